/**
 * A parsed version of a state file: the value, its shape and resources, the syntax errors, and
 * the means to find text spans (locator, line index). Everything editor features need, none of
 * the validation. `updateState` is the keystroke path, so typing costs one record: when an edit stays inside one
 * resource record (its braces untouched), only that record's text is parsed again, with
 * JSON.parse, or tolerantly when the edit broke its syntax; every other record, and its span,
 * is carried over. Either way the result is what `parseState` gives for the same text.
 */
import { limitNesting, nestingMessage, valueDeeperThan } from '../../json/nesting';
import { changedRegion } from '../../text/changedRegion';
import { LineIndex } from '../../text/lineIndex';
import { ResourceLayout } from './layout';
import { PatchedLocator, ScanLocator, TreeLocator, type NodeLocator } from './locate';
import { recordFinder } from './recordFinder';
import { buildStateStructure, withResource, type StateStructure, type StateShape } from './structure';
import { parseTolerant, parseTolerantElement, type SyntaxError } from './syntax';

export interface StateSnapshot {
  text: string;
  /** 'json' when the text is valid JSON, 'tolerant' when the syntax is broken. */
  parsedWith: 'json' | 'tolerant';
  shape: StateShape;
  /** The parsed value's shape and where its resources are. */
  structure: StateStructure;
  /** JSON syntax errors (empty when parsedWith is 'json'). */
  syntax: SyntaxError[];
  lines: LineIndex;
  /** Finds spans of JSON paths in `text` (diagnostics, navigation and quick fixes). */
  locator: NodeLocator;
  /** Present when the next version can be derived record by record. */
  records?: RecordIndex;
}

interface RecordIndex {
  /** Spans of the records: undefined until first needed, null when they could not be found. */
  layout?: ResourceLayout | null;
  /** The one record with syntax errors (the rest of the text is valid JSON), if any. */
  broken?: number;
}

export function parseState(text: string): StateSnapshot {
  const records: RecordIndex = {};
  let parsed = text;
  let tooDeep: SyntaxError[] = [];
  try {
    let value: unknown = JSON.parse(text);
    // Containers nested past the bound are read as empty, so no reader of the value meets unbounded depth.
    // (JSON.parse reads any depth; checking its value first spares large shallow files the text pass.)
    if (valueDeeperThan(value)) {
      ({ parsed, tooDeep } = limitedText(text));
      value = JSON.parse(parsed);
    }
    const structure = buildStateStructure(value);
    const resourcesPath = structure.resourcesPath;
    const finder = resourcesPath ? { path: resourcesPath, finder: recordFinder(parsed, structure.resources) } : undefined;
    const locator = new ScanLocator(parsed, () => records.layout ?? undefined, finder);
    return {
      text,
      parsedWith: 'json',
      shape: structure.shape,
      structure,
      syntax: tooDeep,
      lines: new LineIndex(text),
      locator,
      // Record-by-record updates would parse a record's full depth again.
      records: structure.resourcesPath && tooDeep.length === 0 ? records : undefined,
    };
  } catch (parseError) {
    ({ parsed, tooDeep } = limitedText(text));
    const tolerant = parseTolerant(parsed, (parseError as Error).message);
    const structure = buildStateStructure(tolerant.value);
    const syntax = [...tooDeep, ...tolerant.errors];
    return { text, parsedWith: 'tolerant', shape: structure.shape, structure, syntax, lines: new LineIndex(text), locator: new TreeLocator(tolerant.tree) };
  }
}

function limitedText(text: string): { parsed: string; tooDeep: SyntaxError[] } {
  const nesting = limitNesting(text);
  return { parsed: nesting.text, tooDeep: nesting.tooDeep.map((span) => ({ span, message: nestingMessage() })) };
}

/** The snapshot of `text`, a later version of `previous`'s text. */
export function updateState(previous: StateSnapshot, text: string): StateSnapshot {
  if (text === previous.text) return previous;
  return editRecord(previous, text)?.snapshot ?? parseState(text);
}

/** The spans of the records, scanned on first use. */
export function resourceLayoutOf(snapshot: StateSnapshot): ResourceLayout | undefined {
  const records = snapshot.records;
  if (!records) return undefined;
  if (records.layout === undefined) {
    const { locator, structure } = snapshot;
    const spans = locator instanceof ScanLocator && structure.resourcesPath ? locator.elementSpans(structure.resourcesPath) : undefined;
    records.layout = spans && spans.elements.length === structure.resources.length ? ResourceLayout.fromSpans(spans.array, spans.elements) : null;
  }
  return records.layout ?? undefined;
}

/**
 * The snapshot of `text` when it differs from `previous`'s text only inside one record, with
 * that record's index; undefined when the whole text must be parsed again.
 */
export function editRecord(previous: StateSnapshot, text: string): { snapshot: StateSnapshot; index: number } | undefined {
  const layout = resourceLayoutOf(previous);
  const region = layout && changedRegion(previous.text, text);
  if (!layout || !region) return undefined;
  const index = layout.containing(region.start, region.oldEnd);
  // With one broken record, only edits inside that record keep the rest known-valid.
  const broken = previous.records?.broken;
  if (index === undefined || (broken !== undefined && broken !== index)) return undefined;
  const delta = region.newEnd - region.oldEnd;
  const start = layout.starts[index];
  const recordText = text.slice(start, layout.ends[index] + delta);

  let record: unknown;
  let syntax: SyntaxError[] = [];
  let tree: TreeLocator | undefined;
  try {
    // The braces are untouched, so if the record's text is one JSON value the whole text is valid JSON.
    record = JSON.parse(recordText);
  } catch {
    // Too deep for the tolerant parser: the whole-text parse bounds the depth.
    if (limitNesting(recordText).tooDeep.length > 0) return undefined;
    const tolerant = parseTolerantElement(recordText);
    if (!tolerant) return undefined;
    record = tolerant.value;
    syntax = tolerant.errors.map((e) => ({ ...e, span: { offset: e.span.offset + start, length: e.span.length } }));
    tree = new TreeLocator(tolerant.tree);
  }
  if (valueDeeperThan(record)) return undefined;

  const structure = withResource(previous.structure, index, record);
  const records: RecordIndex = { layout: layout.resized(index, delta), broken: tree ? index : undefined };
  const scan = new ScanLocator(text, () => records.layout ?? undefined);
  const snapshot: StateSnapshot = {
    text,
    parsedWith: tree ? 'tolerant' : 'json',
    shape: structure.shape,
    structure,
    syntax,
    lines: LineIndex.afterEdit(previous.lines, text, region),
    locator: tree ? new PatchedLocator(scan, structure.resources[index].path, tree, start) : scan,
    records,
  };
  return { snapshot, index };
}
