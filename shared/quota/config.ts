/**
 * Loads a quota config or instance file: JSONC → syntax tree →
 * schema validation (ajv, draft 2020-12) → semantic checks → the quota model, the instance
 * content, preview usage, and a name index for navigation. Parse once; everything else is
 * derived from this one analysis.
 */
import * as l10n from '@vscode/l10n';
import type { ErrorObject } from 'ajv';
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
// ajv standalone code generated from schemas/ at build time (scripts/generate-validators.mjs).
import { config as quotaConfigValidator } from '../validators/quotaConfigValidator';
import { compareDiagnostics, type Diagnostic, type Span } from '../diagnostics';
import { limitNesting, nestingMessage } from '../json/nesting';
import { describeJsonType, headSpan, nodeAtPath, pointerToPath, propertyKeyNode, schemaErrorMessage, spanOf } from '../json/jsoncTree';
import { LineIndex } from '../text/lineIndex';
import { orList } from '../text/lists';
import { parseErrorWords, typeName } from '../json/words';
import { emptyInstanceContent, defaultQuotaModel, type LeafUsage } from './model';
import type { QuotaAnalysis } from './analysis';
import { runSemanticChecks } from './semantics';

export type { QuotaAnalysis } from './analysis';

/** Precompiled: no schema is compiled at run time. */
function validator() {
  return quotaConfigValidator;
}

/** Paths whose values are sizes: their shape errors are reported as `invalid-size` by the semantic pass. */
const SIZE_PATH = /^\/(defaultTotal|rules\/\d+\/limit|usage\/[^/]+\/[^/]+|repos\/\d+\/(gitSize|lfsSize)|(attachments|packages|artifacts)\/\d+\/size)$/;
/** Paths whose values are subjects: reported as `unknown-subject` by the semantic pass. */
const SUBJECT_PATH = /^\/rules\/\d+\/subjects\/\d+$/;
const USAGE_ACCOUNT_PATH = /^\/usage\/[^/]+$/;
const RULE_PATH = /^\/rules\/\d+$/;

export function analyzeQuotaConfig(text: string): QuotaAnalysis {
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const at = (span: Span) => lines.rangeOf(span);

  const parseErrors: ParseError[] = [];
  // Every reader of the tree recurses: containers past the bound are parsed as empty, with one diagnostic each.
  const nesting = limitNesting(text);
  for (const span of nesting.tooDeep) diagnostics.push({ code: 'syntax', severity: 'error', message: nestingMessage(), range: at(span) });
  const root = parseTree(nesting.text, parseErrors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  for (const error of parseErrors) {
    diagnostics.push({ code: 'syntax', severity: 'error', message: syntaxMessage(error), range: at(error) });
  }

  const base: Omit<QuotaAnalysis, 'diagnostics'> = {
    text,
    lines,
    root,
    parsedText: nesting.text,
    nestingLimited: nesting.tooDeep.length > 0,
    names: { occurrences: [] },
    ruleLayout: [],
    groupLayout: [],
    model: defaultQuotaModel(),
    content: emptyInstanceContent(),
    isInstance: false,
    accountNames: [],
    usage: new Map<string, LeafUsage>(),
    usageSource: new Map<string, 'usage' | 'content'>(),
  };

  if (!root) {
    if (parseErrors.length === 0) {
      diagnostics.push({
        code: 'schema',
        severity: 'error',
        message: l10n.t('The file is empty: a quota config is a JSON object such as {0}', '{ "rules": [], "groups": [] }'),
        range: at({ offset: 0, length: 0 }),
      });
    }
    return { ...base, diagnostics: diagnostics.sort(compareDiagnostics) };
  }
  if (root.type !== 'object') {
    diagnostics.push({
      code: 'schema',
      severity: 'error',
      message: l10n.t('A quota config must be a JSON object, not {0}', describeJsonType(root)),
      range: at(headSpan(root)),
    });
    return { ...base, diagnostics: diagnostics.sort(compareDiagnostics) };
  }

  const value = getNodeValue(root) as unknown;
  const validate = validator();
  if (!validate(value)) {
    for (const error of relevantSchemaErrors(validate.errors ?? [])) {
      const diagnostic = schemaDiagnostic(root, error, at);
      if (diagnostic) diagnostics.push(diagnostic);
    }
  }

  const semantic = runSemanticChecks(root, at, nesting.text);
  diagnostics.push(...semantic.diagnostics);
  return {
    ...base,
    ...semantic.result,
    diagnostics: dedupe(diagnostics).sort(compareDiagnostics),
  };
}

function syntaxMessage(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return l10n.t('JSON syntax error: {0}', parseErrorWords(code, 'jsonc'));
}

/**
 * Drops errors that a more specific code reports on the same node (sizes, subjects, usage
 * keys, missing limits), and the noise of `oneOf` branches.
 */
function relevantSchemaErrors(errors: ErrorObject[]): ErrorObject[] {
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

function schemaDiagnostic(root: Node, error: ErrorObject, at: (span: Span) => Diagnostic['range']): Diagnostic | undefined {
  const node = nodeAtPath(root, pointerToPath(error.instancePath));
  const property = lastSegment(error.instancePath);
  let span = headSpan(node);
  let message: string;
  switch (error.keyword) {
    case 'type':
      message = l10n.t('{0} must be {1}, not {2}', property, article(String(error.params.type)), describeJsonType(node));
      span = spanOf(node);
      break;
    case 'required':
      message = l10n.t('{0} is missing the required property "{1}"', describeContainer(root, error.instancePath), String(error.params.missingProperty));
      break;
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty);
      const keyNode = node.type === 'object' ? propertyKeyNode(node, key) : undefined;
      if (keyNode) span = spanOf(keyNode);
      message = l10n.t('Property "{0}" is not allowed in {1}', key, describeContainer(root, error.instancePath));
      break;
    }
    case 'minLength':
      message = l10n.t('{0} must not be empty', property);
      span = spanOf(node);
      break;
    case 'pattern':
      message = /\[\^\/\]\*/.test(String(error.params.pattern))
        ? l10n.t('"{0}" cannot be used as a name: it must not contain "/" (names are URL path segments)', String(node.value))
        : l10n.t('"{0}" must be written as "owner/name"', String(node.value));
      span = spanOf(node);
      break;
    case 'enum':
      message = l10n.t('{0} must be one of {1}', property, (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', '));
      span = spanOf(node);
      break;
    case 'minimum':
      message = l10n.t('{0} must be at least {1}', property, String(error.params.limit));
      span = spanOf(node);
      break;
    default:
      message = schemaErrorMessage(property, error.message);
  }
  return { code: 'schema', severity: 'error', message, range: at(span) };
}

/** The JSON Schema type(s) `type` names, in words: "a string", "a string or null"; a person reads booleans and integers plainly. */
function article(type: string): string {
  return orList(type.split(',').map((t) => (t === 'boolean' ? l10n.t('true or false') : t === 'integer' ? l10n.t('a whole number') : typeName(t))));
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.code}|${d.range.start.line}:${d.range.start.character}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when the analysis found nothing that stops evaluation (no Error diagnostic). */
export function isEvaluable(analysis: QuotaAnalysis): boolean {
  return !analysis.diagnostics.some((d) => d.severity === 'error');
}
