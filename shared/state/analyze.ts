/**
 * Resource-state analysis entry point (product.md §5), shared by the language server and the
 * CLI. Fast path: `JSON.parse` + compiled ajv + integrity checks on the object, then one scan
 * of the text to locate only the nodes that carry diagnostics. Only when `JSON.parse` throws
 * does it fall back to jsonc-parser's tolerant tree (syntax diagnostics, then the same checks
 * on whatever parsed). `reanalyzeState` (reanalyze.ts) is the keystroke path.
 */
import { compareDiagnostics, type Diagnostic } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';
import { integrityDiagnostics } from './integrity';
import type { ResourceLayout } from './layout';
import { ScanLocator, TreeLocator, type NodeLocator } from './locate';
import { buildStateDocument, type StateDocument, type StateShape } from './model';
import type { PendingDiagnostic } from './pending';
import { resolve } from './resolve';
import { schemaDiagnostics } from './schemaDiagnostics';
import { validateShape } from './schemas';
import { parseTolerant, type SyntaxError } from './syntax';

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
  /** What re-analysis carries to the next version; absent when the next version must start over. */
  incremental?: IncrementalState;
}

/** Carried from version to version by `reanalyzeState`. */
export interface IncrementalState {
  /** Schema diagnostics before resolution; each lies inside one record or outside all of them. */
  schemaPending: PendingDiagnostic[];
  /** Spans of the records: undefined until first needed, null when they could not be found. */
  layout?: ResourceLayout | null;
  /** The one record with syntax errors (the rest of the text is valid JSON), if any. */
  broken?: { index: number; errors: SyntaxError[] };
}

export function analyzeState(text: string): StateAnalysis {
  const schemaPending: PendingDiagnostic[] = [];
  const incremental: IncrementalState = { schemaPending };
  let syntax: SyntaxError[] = [];
  let root: unknown;
  let locator: NodeLocator;
  let parsedWith: StateAnalysis['parsedWith'] = 'json';
  let schemaComplete = true;
  try {
    root = JSON.parse(text);
    locator = new ScanLocator(text, () => incremental.layout ?? undefined);
  } catch (parseError) {
    parsedWith = 'tolerant';
    const tolerant = parseTolerant(text, (parseError as Error).message);
    syntax = tolerant.errors;
    root = tolerant.value;
    locator = new TreeLocator(tolerant.tree);
  }

  const document = buildStateDocument(root);
  if (document.shape === 'unknown') {
    if (parsedWith === 'json' || root !== undefined) schemaPending.push(unknownShape(root));
  } else {
    try {
      schemaPending.push(...schemaDiagnostics(validateShape(document.shape, root), document));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      schemaComplete = false;
      schemaPending.push({ code: 'schema', severity: 'error', message: 'The document is nested too deeply to validate against the schema', at: { path: [], part: 'head' } });
    }
  }

  const lines = new LineIndex(text);
  const diagnostics = finishDiagnostics(document, schemaPending, syntax, locator, lines, text);
  const incrementable = parsedWith === 'json' && schemaComplete && document.resourcesPath !== undefined;
  return { diagnostics, shape: document.shape, parsedWith, text, document, lines, locator, incremental: incrementable ? incremental : undefined };
}

/** Adds the cross-resource checks and the syntax errors to the schema diagnostics, locates and sorts them. */
export function finishDiagnostics(
  document: StateDocument,
  schemaPending: PendingDiagnostic[],
  syntax: SyntaxError[],
  locator: NodeLocator,
  lines: LineIndex,
  text: string,
): Diagnostic[] {
  const pending = document.shape === 'unknown' ? schemaPending : [...schemaPending, ...integrityDiagnostics(document)];
  const diagnostics = resolve(pending, locator, lines, text);
  for (const error of syntax) diagnostics.push({ code: 'syntax', severity: 'error', message: error.message, range: lines.rangeOf(error.span) });
  return diagnostics.sort(compareDiagnostics);
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
