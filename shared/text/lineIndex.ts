import type { Position, Range, Span } from '../diagnostics';
import type { ChangedRegion } from './changedRegion';
import { upperBound } from './upperBound';

/** How much of a text predicts its number of lines. */
const SAMPLE_LENGTH = 1 << 16;

/** The number of lines `text` has if the rest is like its first 64 kB, with a tenth to spare (never more than can fit). */
function predictedLineCount(text: string): number {
  const length = text.length;
  const sampled = Math.min(length, SAMPLE_LENGTH);
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < sampled; i = text.indexOf('\n', i + 1)) lines++;
  return sampled === 0 ? 16 : Math.min(length + 1, Math.ceil(((lines + 1) / sampled) * length * 1.1));
}

/** The line starts of a text, in a typed array sized from a sample and grown by doubling (a 100 MB file has ~2M lines). */
class LineStarts {
  values: Uint32Array;
  length = 0;

  /** `expected`: the room the first growth makes, asked then, so that a text scanned only at its top never pays for it. */
  constructor(
    capacity: number,
    private expected?: () => number,
  ) {
    this.values = new Uint32Array(Math.max(16, capacity));
  }

  push(offset: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(Math.max(this.values.length * 2, this.expected?.() ?? 0));
      this.expected = undefined;
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = offset;
  }

  /** Appends the start of every line that begins after a '\n' in text[from, to). */
  scan(text: string, from: number, to: number): this {
    let i = text.indexOf('\n', from);
    while (i !== -1 && i < to) {
      this.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return this;
  }
}

/**
 * Converts offsets to LSP positions (UTF-16 code units, which is what JS string
 * indices already are). The text is scanned for line starts lazily, only as far as the offsets
 * asked about (a diagnostic near the top of a 40 MB file needs none of the rest); lookups are
 * binary searches, so converting the ranges of k diagnostics costs at most O(n + k log n).
 */
export class LineIndex {
  private readonly starts: LineStarts;
  /** Every line start at or before this offset is in `starts`. */
  private scannedTo: number;

  constructor(
    private readonly text: string,
    lineStarts?: LineStarts,
  ) {
    this.starts = lineStarts ?? LineIndex.initial(text);
    this.scannedTo = lineStarts ? text.length : 0;
  }

  /**
   * Room for the text's lines as its first 64 kB predict them, made when the scan first needs it:
   * growing a 100 MB file's array by doubling holds the old and the new copy at once, at the
   * analysis's peak of memory.
   */
  private static initial(text: string): LineStarts {
    const starts = new LineStarts(16, () => predictedLineCount(text));
    starts.push(0);
    return starts;
  }

  /**
   * The index of `text`, which differs from `previous`'s text only in `region`: lines before
   * the region are kept, lines inside it are scanned, lines after it are shifted.
   */
  static afterEdit(previous: LineIndex, text: string, region: ChangedRegion): LineIndex {
    const old = previous.scannedUpTo(previous.text.length);
    const count = old.length;
    // Line starts at or before the region's start are unaffected (a start is the offset after a '\n').
    const keep = upperBound(old.values, region.start, count);
    const starts = new LineStarts(count + 16);
    starts.values.set(old.values.subarray(0, keep));
    starts.length = keep;
    starts.scan(text, region.start, region.newEnd);
    const delta = region.newEnd - region.oldEnd;
    for (let i = upperBound(old.values, region.oldEnd, count); i < count; i++) starts.push(old.values[i] + delta);
    return new LineIndex(text, starts);
  }

  /** The line starts, scanned at least up to `offset` (in steps of a megabyte, so many small asks scan once). */
  private scannedUpTo(offset: number): LineStarts {
    if (offset > this.scannedTo) {
      const to = Math.min(this.text.length, Math.max(offset, this.scannedTo + (1 << 20)));
      this.starts.scan(this.text, this.scannedTo, to);
      this.scannedTo = to;
    }
    return this.starts;
  }

  get lineCount(): number {
    return this.scannedUpTo(this.text.length).length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.scannedUpTo(clamped);
    const line = upperBound(starts.values, clamped, starts.length) - 1;
    return { line, character: clamped - starts.values[line] };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    let starts = this.starts;
    // The line after the asked one bounds the character; scan until it is known or the text ends.
    while (starts.length <= position.line + 1 && this.scannedTo < this.text.length) starts = this.scannedUpTo(this.scannedTo + 1);
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts.values[position.line];
    const nextLineStart = position.line + 1 < starts.length ? starts.values[position.line + 1] : this.text.length;
    return Math.max(lineStart, Math.min(lineStart + position.character, nextLineStart));
  }

  rangeOf(span: Span): Range {
    return { start: this.positionAt(span.offset), end: this.positionAt(span.offset + span.length) };
  }
}
