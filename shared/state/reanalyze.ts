/**
 * The keystroke path (issue 7). When an edit stays inside one resource record (its braces
 * untouched), only that record's text is parsed again (with JSON.parse, or tolerantly when the
 * edit broke its syntax) and validated against the record schema; the other records, their
 * schema diagnostics and their spans are carried over (spans shifted). The cross-resource
 * checks run again on the updated object and the locator jumps over untouched records.
 * Anything else falls back to `analyzeState`. Either way the result equals `analyzeState(text)`.
 */
import { changedRegion } from '../text/changedRegion';
import { LineIndex } from '../text/lineIndex';
import { analyzeState, finishDiagnostics, type IncrementalState, type StateAnalysis } from './analyze';
import { ResourceLayout } from './layout';
import { isWithin, PatchedLocator, ScanLocator, TreeLocator, type JsonPath, type NodeLocator } from './locate';
import { withResource, type StateDocument } from './model';
import { schemaDiagnostics } from './schemaDiagnostics';
import { validateRecordAt } from './schemas';
import { parseTolerantElement, type SyntaxError } from './syntax';

/** The analysis of `text`, a later version of `previous`'s text. */
export function reanalyzeState(previous: StateAnalysis, text: string): StateAnalysis {
  if (text === previous.text) return previous;
  return editInsideOneRecord(previous, text) ?? analyzeState(text);
}

/** The spans of the records of a document whose records are located, scanned on first use. */
export function resourceLayoutOf(analysis: StateAnalysis): ResourceLayout | undefined {
  const state = analysis.incremental;
  if (!state) return undefined;
  if (state.layout === undefined) {
    const { locator, document } = analysis;
    const spans = locator instanceof ScanLocator && document.resourcesPath ? locator.elementSpans(document.resourcesPath) : undefined;
    state.layout = spans && spans.elements.length === document.resources.length ? ResourceLayout.fromSpans(spans.array, spans.elements) : null;
  }
  return state.layout ?? undefined;
}

function editInsideOneRecord(previous: StateAnalysis, text: string): StateAnalysis | undefined {
  const state = previous.incremental;
  const layout = state && resourceLayoutOf(previous);
  const region = changedRegion(previous.text, text);
  if (!state || !layout || !region) return undefined;
  const index = layout.containing(region.start, region.oldEnd);
  // With one broken record, only edits inside that record keep the rest known-valid.
  if (index === undefined || (state.broken && state.broken.index !== index)) return undefined;
  const delta = region.newEnd - region.oldEnd;
  const start = layout.starts[index];
  const recordText = text.slice(start, layout.ends[index] + delta);

  let record: unknown;
  let broken: { errors: SyntaxError[]; tree: TreeLocator } | undefined;
  try {
    // The braces are untouched, so if the record's text is one JSON value the whole text is valid JSON.
    record = JSON.parse(recordText);
  } catch {
    const tolerant = parseTolerantElement(recordText);
    if (!tolerant) return undefined;
    record = tolerant.value;
    broken = { errors: tolerant.errors.map((e) => ({ ...e, span: { offset: e.span.offset + start, length: e.span.length } })), tree: new TreeLocator(tolerant.tree) };
  }

  const document = withResource(previous.document, index, record);
  const path = document.resources[index].path;
  const schemaPending = [...state.schemaPending.filter((p) => !isWithin(p.at.path, path)), ...recordSchemaDiagnostics(document, index, path)];
  const incremental: IncrementalState = {
    schemaPending,
    layout: layout.resized(index, delta),
    broken: broken && { index, errors: broken.errors },
  };
  const scan = new ScanLocator(text, () => incremental.layout ?? undefined);
  const locator: NodeLocator = broken ? new PatchedLocator(scan, path, broken.tree, start) : scan;
  const lines = LineIndex.afterEdit(previous.lines, text, region);
  const diagnostics = finishDiagnostics(document, schemaPending, broken?.errors ?? [], locator, lines, text);
  return { diagnostics, shape: document.shape, parsedWith: broken ? 'tolerant' : 'json', text, document, lines, locator, incremental };
}

function recordSchemaDiagnostics(document: StateDocument, index: number, path: JsonPath) {
  const single: StateDocument = { ...document, resources: [document.resources[index]], pendingResources: [] };
  return schemaDiagnostics(validateRecordAt(document.resources[index].value, pathToPointer(path)), single);
}

function pathToPointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
