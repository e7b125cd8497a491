/**
 * Loads a quota config or instance file: JSONC → syntax tree →
 * schema validation (ajv, draft 2020-12) → semantic checks → the quota model, the instance
 * content, preview usage, and a name index for navigation. Parse once; everything else is
 * derived from this one analysis.
 */
import type { ErrorObject } from 'ajv';
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
// ajv standalone code generated from schemas/ at build time (scripts/generate-validators.mjs).
import { config as quotaConfigValidator } from '../validators/quotaConfigValidator';
import { compareDiagnostics, type Diagnostic, type Span } from '../diagnostics';
import { limitNesting, nestingMessage } from '../json/nesting';
import { describeJsonType, headSpan, nodeAtPath, pointerToPath, propertyKeyNode, spanOf } from '../json/jsoncTree';
import { LineIndex } from '../text/lineIndex';
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
        message: 'The file is empty: a quota config is a JSON object such as { "rules": [], "groups": [] }',
        range: at({ offset: 0, length: 0 }),
      });
    }
    return { ...base, diagnostics: diagnostics.sort(compareDiagnostics) };
  }
  if (root.type !== 'object') {
    diagnostics.push({
      code: 'schema',
      severity: 'error',
      message: `A quota config must be a JSON object, not ${describeJsonType(root)}`,
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
  const readable: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'a property name in double quotes is expected',
    ValueExpected: 'a value is expected',
    ColonExpected: 'a colon is expected after the property name',
    CommaExpected: 'a comma is expected',
    CloseBraceExpected: 'a closing brace } is expected',
    CloseBracketExpected: 'a closing bracket ] is expected',
    EndOfFileExpected: 'the file should end here',
    InvalidCommentToken: 'invalid comment',
    UnexpectedEndOfComment: 'the comment is not closed',
    UnexpectedEndOfString: 'the string is not closed',
    UnexpectedEndOfNumber: 'the number is incomplete',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in string',
  };
  const code = printParseErrorCode(error.error);
  return `JSON syntax error: ${readable[code] ?? code}`;
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
  return last === undefined ? 'the file' : typeof last === 'number' ? `item ${last}` : `"${last}"`;
}

/** What an object at a path is, for messages: `rule "free"`, `the file`, `account 2`. */
function describeContainer(root: Node, pointer: string): string {
  const segments = pointerToPath(pointer);
  if (segments.length === 0) return 'the quota config';
  const node = nodeAtPath(root, segments);
  const nameNode = node.type === 'object' ? node.children?.find((p) => p.children?.[0]?.value === 'name')?.children?.[1] : undefined;
  const collection = segments[segments.length - 2];
  const singular: Record<string, string> = {
    rules: 'rule',
    groups: 'group',
    accounts: 'account',
    repos: 'repo',
    attachments: 'attachment',
    packages: 'package',
    artifacts: 'artifact',
  };
  const kind = typeof collection === 'string' ? singular[collection] : undefined;
  if (kind && nameNode && typeof nameNode.value === 'string') return `${kind} "${nameNode.value}"`;
  if (kind) return `${kind} ${segments[segments.length - 1]}`;
  return lastSegment(pointer);
}

function schemaDiagnostic(root: Node, error: ErrorObject, at: (span: Span) => Diagnostic['range']): Diagnostic | undefined {
  const node = nodeAtPath(root, pointerToPath(error.instancePath));
  const property = lastSegment(error.instancePath);
  let span = headSpan(node);
  let message: string;
  switch (error.keyword) {
    case 'type':
      message = `${property} must be ${article(String(error.params.type))}, not ${describeJsonType(node)}`;
      span = spanOf(node);
      break;
    case 'required':
      message = `${describeContainer(root, error.instancePath)} is missing the required property "${error.params.missingProperty}"`;
      break;
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty);
      const keyNode = node.type === 'object' ? propertyKeyNode(node, key) : undefined;
      if (keyNode) span = spanOf(keyNode);
      message = `Property "${key}" is not allowed in ${describeContainer(root, error.instancePath)}`;
      break;
    }
    case 'minLength':
      message = `${property} must not be empty`;
      span = spanOf(node);
      break;
    case 'pattern':
      message = /\[\^\/\]\*/.test(String(error.params.pattern))
        ? `"${node.value}" cannot be used as a name: it must not contain "/" (names are URL path segments)`
        : `"${node.value}" must be written as "owner/name"`;
      span = spanOf(node);
      break;
    case 'enum':
      message = `${property} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      span = spanOf(node);
      break;
    case 'minimum':
      message = `${property} must be at least ${error.params.limit}`;
      span = spanOf(node);
      break;
    default:
      message = `${property} ${error.message ?? 'is invalid'}`;
  }
  return { code: 'schema', severity: 'error', message, range: at(span) };
}

function article(type: string): string {
  const names: Record<string, string> = {
    object: 'an object',
    array: 'an array',
    string: 'a string',
    boolean: 'true or false',
    integer: 'a whole number',
    number: 'a number',
    null: 'null',
  };
  return type
    .split(',')
    .map((t) => names[t] ?? t)
    .join(' or ');
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
