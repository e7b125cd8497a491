/**
 * Resource-state analysis entry point (product.md §5), shared by the language server and the
 * CLI. Fast path: `JSON.parse` + compiled ajv + integrity checks on the object, then one scan
 * of the text to locate only the nodes that carry diagnostics. Only when `JSON.parse` throws
 * does it fall back to jsonc-parser's tolerant tree (syntax diagnostics, then the same checks
 * on whatever parsed).
 */
import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { compareDiagnostics, type Diagnostic, type RelatedInformation, type Span } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';
import { integrityDiagnostics } from './integrity';
import { pathKey, ScanLocator, TreeLocator, type JsonPath, type LocatedNode, type NodeLocator } from './locate';
import { buildStateDocument, type StateDocument, type StateShape } from './model';
import type { Anchor, PendingDiagnostic } from './pending';
import { schemaDiagnostics } from './schemaDiagnostics';
import { validateShape } from './schemas';

export type { StateShape } from './model';

export interface StateAnalysis {
  /** Final diagnostics, sorted with `compareDiagnostics`. */
  diagnostics: Diagnostic[];
  shape: StateShape;
  /** 'json' when JSON.parse accepted the text, 'tolerant' when the syntax was broken. */
  parsedWith: 'json' | 'tolerant';
  text: string;
  document: StateDocument;
  lines: LineIndex;
  /** Finds spans of JSON paths in `text` (navigation and quick fixes). */
  locator: NodeLocator;
}

export function analyzeState(text: string): StateAnalysis {
  const pending: PendingDiagnostic[] = [];
  const syntax: Array<{ span: Span; message: string }> = [];
  let root: unknown;
  let locator: NodeLocator;
  let parsedWith: StateAnalysis['parsedWith'] = 'json';
  try {
    root = JSON.parse(text);
    locator = new ScanLocator(text);
  } catch (parseError) {
    parsedWith = 'tolerant';
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    for (const error of errors) {
      syntax.push({ span: { offset: error.offset, length: Math.max(error.length, 1) }, message: `JSON syntax error: ${describeParseError(error)}` });
    }
    if (!errors.length) {
      // jsonc-parser accepted what JSON.parse refused (e.g. a byte-order mark): report JSON.parse's reason.
      syntax.push({ span: { offset: 0, length: 1 }, message: `JSON syntax error: ${(parseError as Error).message}` });
    }
    root = tree ? safeNodeValue(tree) : undefined;
    locator = new TreeLocator(tree);
  }

  const document = buildStateDocument(root);
  if (document.shape === 'unknown') {
    if (parsedWith === 'json' || root !== undefined) pending.push(unknownShape(root));
  } else {
    try {
      pending.push(...schemaDiagnostics(validateShape(document.shape, root), document));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      pending.push({ code: 'schema', severity: 'error', message: 'The document is nested too deeply to validate against the schema', at: { path: [], part: 'head' } });
    }
    pending.push(...integrityDiagnostics(document));
  }

  const lines = new LineIndex(text);
  const diagnostics = resolve(pending, locator, lines, text);
  for (const error of syntax) diagnostics.push({ code: 'syntax', severity: 'error', message: error.message, range: lines.rangeOf(error.span) });
  diagnostics.sort(compareDiagnostics);
  return { diagnostics, shape: document.shape, parsedWith, text, document, lines, locator };
}

function describeParseError(error: ParseError): string {
  const name = printParseErrorCode(error.error);
  const words: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'property name expected',
    ValueExpected: 'value expected',
    ColonExpected: 'colon expected',
    CommaExpected: 'comma expected',
    CloseBraceExpected: 'closing brace expected',
    CloseBracketExpected: 'closing bracket expected',
    EndOfFileExpected: 'end of file expected',
    InvalidCommentToken: 'comments are not allowed in JSON',
    UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string',
    UnexpectedEndOfNumber: 'unterminated number',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in string',
  };
  return words[name] ?? name;
}

function safeNodeValue(tree: NonNullable<ReturnType<typeof parseTree>>): unknown {
  try {
    return getNodeValue(tree);
  } catch {
    return undefined; // pathologically deep input: report syntax only
  }
}

function unknownShape(root: unknown): PendingDiagnostic {
  const isObject = typeof root === 'object' && root !== null && !Array.isArray(root);
  return {
    code: 'schema',
    severity: 'error',
    message: isObject
      ? 'Not a recognised state shape: expected a resource record (urn), a deployment (manifest, resources), an export (version, deployment) or a checkpoint (version, checkpoint)'
      : `A state file must be a JSON object (a resource record, deployment, export or checkpoint), not ${root === null ? 'null' : Array.isArray(root) ? 'an array' : typeof root}`,
    at: { path: [], part: 'head' },
  };
}

/** Resolves every anchor with one locator pass and converts spans to ranges. */
function resolve(pending: PendingDiagnostic[], locator: NodeLocator, lines: LineIndex, text: string): Diagnostic[] {
  const paths = new Map<string, JsonPath>();
  const want = (anchor: Anchor) => {
    // Ancestors too: a missing node (e.g. a required property) is shown on its nearest existing
    // ancestor, and ancestors lie on the scan's way anyway.
    for (let length = anchor.path.length; length >= 0; length--) {
      const key = pathKey(anchor.path.slice(0, length));
      if (paths.has(key)) break;
      paths.set(key, anchor.path.slice(0, length));
    }
  };
  for (const diagnostic of pending) {
    want(diagnostic.at);
    diagnostic.related?.forEach((r) => want(r.at));
  }
  const located = paths.size ? locator.locateAll(paths.values()) : new Map<string, LocatedNode>();
  const spanOf = (anchor: Anchor): Span => {
    const node = located.get(pathKey(anchor.path));
    if (!node) {
      for (let length = anchor.path.length - 1; length >= 0; length--) {
        const ancestor = located.get(pathKey(anchor.path.slice(0, length)));
        if (ancestor) return headOrName(ancestor);
      }
      return { offset: 0, length: Math.min(1, text.length) };
    }
    switch (anchor.part) {
      case 'value':
        return node.kind === 'object' || node.kind === 'array' ? { offset: node.value.offset, length: 1 } : node.value;
      case 'key':
        return node.key ?? headOrName(node);
      case 'name':
        return headOrName(node);
      case 'head':
        return { offset: node.value.offset, length: Math.min(1, node.value.length) };
    }
  };
  return pending.map((p) => {
    const diagnostic: Diagnostic = { code: p.code, severity: p.severity, message: p.message, range: lines.rangeOf(spanOf(p.at)) };
    if (p.related?.length) {
      diagnostic.relatedInformation = p.related.map((r): RelatedInformation => ({ range: lines.rangeOf(spanOf(r.at)), message: r.message }));
    }
    if (p.tags) diagnostic.tags = p.tags;
    if (p.data) diagnostic.data = { ...p.data, code: p.code };
    return diagnostic;
  });
}

function headOrName(node: LocatedNode): Span {
  if (node.key) return node.key;
  return node.kind === 'object' || node.kind === 'array' ? { offset: node.value.offset, length: Math.min(1, node.value.length) } : node.value;
}
