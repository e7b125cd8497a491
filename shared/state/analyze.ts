/**
 * Resource-state analysis entry point (product.md §5), shared by the language server and the
 * CLI. Fast path: `JSON.parse` + compiled ajv + integrity checks on the object, then one scan
 * of the text to locate only the nodes that carry diagnostics. Only when `JSON.parse` throws
 * does it fall back to jsonc-parser's tolerant tree (syntax diagnostics, then the same checks
 * on whatever parsed).
 *
 * `reanalyzeState` is the keystroke path: when an edit stays inside one record (see
 * snapshot.ts), only that record is validated against the schema again and the other records'
 * schema diagnostics are carried over; the cross-resource checks run on the updated object.
 * The result equals `analyzeState(text)` (property-tested).
 */
import { compareDiagnostics, type Diagnostic } from '../diagnostics';
import { integrityDiagnostics } from './integrity';
import { isWithin, type JsonPath } from './locate';
import type { StateDocument } from './model';
import type { PendingDiagnostic } from './pending';
import { resolve } from './resolve';
import { schemaDiagnostics } from './schemaDiagnostics';
import { validateRecordAt, validateShape } from './schemas';
import { editRecord, parseState, type StateSnapshot } from './snapshot';

export type { StateShape } from './model';
export type { StateSnapshot } from './snapshot';

export interface StateAnalysis extends StateSnapshot {
  /** Final diagnostics, sorted with `compareDiagnostics`. */
  diagnostics: Diagnostic[];
  /** Schema diagnostics before location, carried to the next version; absent when incomplete. */
  schema?: PendingDiagnostic[];
}

export function analyzeState(text: string): StateAnalysis {
  return analyzeSnapshot(parseState(text));
}

/** The analysis of `text`, a later version of `previous`'s text. */
export function reanalyzeState(previous: StateAnalysis, text: string): StateAnalysis {
  if (text === previous.text) return previous;
  const edit = previous.schema && editRecord(previous, text);
  if (!edit) return analyzeState(text);
  const { snapshot, index } = edit;
  const resource = snapshot.document.resources[index];
  const single: StateDocument = { ...snapshot.document, resources: [resource], pendingResources: [] };
  const schema = [
    ...previous.schema!.filter((p) => !isWithin(p.at.path, resource.path)),
    ...schemaDiagnostics(validateRecordAt(resource.value, pathToPointer(resource.path)), single),
  ];
  return { ...snapshot, diagnostics: diagnose(snapshot, schema), schema };
}

function analyzeSnapshot(snapshot: StateSnapshot): StateAnalysis {
  const { document } = snapshot;
  const schema: PendingDiagnostic[] = [];
  let complete = true;
  if (document.shape === 'unknown') {
    if (snapshot.parsedWith === 'json' || document.root !== undefined) schema.push(unknownShape(document.root));
  } else {
    try {
      schema.push(...schemaDiagnostics(validateShape(document.shape, document.root), document));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      complete = false;
      schema.push({ code: 'schema', severity: 'error', message: 'The document is nested too deeply to validate against the schema', at: { path: [], part: 'head' } });
    }
  }
  return { ...snapshot, diagnostics: diagnose(snapshot, schema), schema: complete ? schema : undefined };
}

/** Adds the cross-resource checks and the syntax errors to the schema diagnostics, locates and sorts them. */
function diagnose(snapshot: StateSnapshot, schema: PendingDiagnostic[]): Diagnostic[] {
  const { document, locator, lines, text } = snapshot;
  const pending = document.shape === 'unknown' ? schema : [...schema, ...integrityDiagnostics(document)];
  const diagnostics = resolve(pending, locator, lines, text);
  for (const error of snapshot.syntax) diagnostics.push({ code: 'syntax', severity: 'error', message: error.message, range: lines.rangeOf(error.span) });
  return diagnostics.sort(compareDiagnostics);
}

function pathToPointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
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
