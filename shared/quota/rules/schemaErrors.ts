/**
 * The `schema` module's reading of ajv's errors (the precompiled validator of schemas/): which errors
 * another code reports better, and each kept error in words, at the node it is about.
 */
import * as l10n from '@vscode/l10n';
import type { ErrorObject } from 'ajv';
import type { Node } from 'jsonc-parser';
import type { Span } from '../../diagnostics';
import { describeJsonType, headSpan, nodeAtPath, pointerToPath, propertyKeyNode, schemaErrorMessage, spanOf } from '../../json/jsoncTree';
import { typeName } from '../../json/words';
import { orList } from '../../text/lists';

/** Paths whose values are sizes: their shape errors are reported as `invalid-size`. */
const SIZE_PATH = /^\/(defaultTotal|rules\/\d+\/limit|usage\/[^/]+\/[^/]+|repos\/\d+\/(gitSize|lfsSize)|(attachments|packages|artifacts)\/\d+\/size)$/;
/** Paths whose values are subjects: reported as `unknown-subject`. */
const SUBJECT_PATH = /^\/rules\/\d+\/subjects\/\d+$/;
const USAGE_ACCOUNT_PATH = /^\/usage\/[^/]+$/;
const RULE_PATH = /^\/rules\/\d+$/;

/**
 * Drops errors that a more specific code reports on the same node (sizes, subjects, usage
 * keys, missing limits), and the noise of `oneOf` branches.
 */
export function relevantSchemaErrors(errors: ErrorObject[]): ErrorObject[] {
  return errors.filter((error) => {
    const path = error.instancePath;
    if (SIZE_PATH.test(path)) return false;
    if (SUBJECT_PATH.test(path) && error.keyword === 'enum') return false;
    if (USAGE_ACCOUNT_PATH.test(path) && (error.keyword === 'propertyNames' || error.keyword === 'enum')) return false;
    if (RULE_PATH.test(path) && error.keyword === 'required' && error.params.missingProperty === 'limit') return false;
    return true;
  });
}

function lastSegment(pointer: string): string {
  const segments = pointerToPath(pointer);
  const last = segments[segments.length - 1];
  return last === undefined ? l10n.t('the file') : typeof last === 'number' ? l10n.t('item {0}', last) : `"${last}"`;
}

/** An item of one of the file's lists, by its name or its index: `rule "free"`, `account 2`. */
function itemLabel(collection: string | number | undefined, name: string | undefined, index: string | number): string | undefined {
  switch (collection) {
    case 'rules':
      return name !== undefined ? l10n.t('rule "{0}"', name) : l10n.t('rule {0}', index);
    case 'groups':
      return name !== undefined ? l10n.t('group "{0}"', name) : l10n.t('group {0}', index);
    case 'accounts':
      return name !== undefined ? l10n.t('account "{0}"', name) : l10n.t('account {0}', index);
    case 'repos':
      return name !== undefined ? l10n.t('repo "{0}"', name) : l10n.t('repo {0}', index);
    case 'attachments':
      return name !== undefined ? l10n.t('attachment "{0}"', name) : l10n.t('attachment {0}', index);
    case 'packages':
      return name !== undefined ? l10n.t('package "{0}"', name) : l10n.t('package {0}', index);
    case 'artifacts':
      return name !== undefined ? l10n.t('artifact "{0}"', name) : l10n.t('artifact {0}', index);
    default:
      return undefined;
  }
}

/** What an object at a path is, for messages: `rule "free"`, `the file`, `account 2`. */
function describeContainer(root: Node, pointer: string): string {
  const segments = pointerToPath(pointer);
  if (segments.length === 0) return l10n.t('the quota config');
  const node = nodeAtPath(root, segments);
  const nameNode = node.type === 'object' ? node.children?.find((p) => p.children?.[0]?.value === 'name')?.children?.[1] : undefined;
  const name = nameNode && typeof nameNode.value === 'string' ? nameNode.value : undefined;
  return itemLabel(segments[segments.length - 2], name, segments[segments.length - 1]) ?? lastSegment(pointer);
}

/** The JSON Schema type(s) `type` names, in words: "a string", "a string or null"; a person reads booleans and integers plainly. */
function article(type: string): string {
  return orList(type.split(',').map((t) => (t === 'boolean' ? l10n.t('true or false') : t === 'integer' ? l10n.t('a whole number') : typeName(t))));
}

/** The message of an `additionalProperties` error, at the property's key when the object has it. */
function additionalProperty(root: Node, node: Node, error: ErrorObject): { message: string; span: Span } {
  const key = String(error.params.additionalProperty);
  const keyNode = node.type === 'object' ? propertyKeyNode(node, key) : undefined;
  return { message: l10n.t('Property "{0}" is not allowed in {1}', key, describeContainer(root, error.instancePath)), span: keyNode ? spanOf(keyNode) : headSpan(node) };
}

/** A `pattern` error's message: names must not contain "/", repositories are "owner/name". */
function patternMessage(node: Node, error: ErrorObject): string {
  return /\[\^\/\]\*/.test(String(error.params.pattern))
    ? l10n.t('"{0}" cannot be used as a name: it must not contain "/" (names are URL path segments)', String(node.value))
    : l10n.t('"{0}" must be written as "owner/name"', String(node.value));
}

/** One kept ajv error in words, and where: the whole value for a wrong value, the head of the object for a missing property. */
export function schemaError(root: Node, error: ErrorObject): { message: string; span: Span } {
  const node = nodeAtPath(root, pointerToPath(error.instancePath));
  const property = lastSegment(error.instancePath);
  switch (error.keyword) {
    case 'type':
      return { message: l10n.t('{0} must be {1}, not {2}', property, article(String(error.params.type)), describeJsonType(node)), span: spanOf(node) };
    case 'required':
      return { message: l10n.t('{0} is missing the required property "{1}"', describeContainer(root, error.instancePath), String(error.params.missingProperty)), span: headSpan(node) };
    case 'additionalProperties':
      return additionalProperty(root, node, error);
    case 'minLength':
      return { message: l10n.t('{0} must not be empty', property), span: spanOf(node) };
    case 'pattern':
      return { message: patternMessage(node, error), span: spanOf(node) };
    case 'enum':
      return { message: l10n.t('{0} must be one of {1}', property, (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')), span: spanOf(node) };
    case 'minimum':
      return { message: l10n.t('{0} must be at least {1}', property, String(error.params.limit)), span: spanOf(node) };
    default:
      return { message: schemaErrorMessage(property, error.message), span: headSpan(node) };
  }
}
