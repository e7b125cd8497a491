import type { Position, Range, Span } from '../diagnostics';
import type { ChangedRegion } from './changedRegion';
import { upperBound } from './upperBound';

/** The line starts of a text, in a typed array that grows by doubling (a 100 MB file has ~2M lines). */
class LineStarts {
  values: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.values = new Uint32Array(Math.max(16, capacity));
  }

  push(offset: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
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
 * indices already are). Built with one scan over the text; lookups are binary searches,
 * so converting the ranges of k diagnostics costs O(n + k log n), never O(n·k).
 */
export class LineIndex {
  private readonly starts: Uint32Array;
  private readonly count: number;

  constructor(
    private readonly text: string,
    lineStarts?: LineStarts,
  ) {
    const starts = lineStarts ?? LineIndex.initial(text.length).scan(text, 0, text.length);
    this.starts = starts.values;
    this.count = starts.length;
  }

  private static initial(capacity: number): LineStarts {
    const starts = new LineStarts(capacity >> 6);
    starts.push(0);
    return starts;
  }

  /**
   * The index of `text`, which differs from `previous`'s text only in `region`: lines before
   * the region are kept, lines inside it are scanned, lines after it are shifted.
   */
  static afterEdit(previous: LineIndex, text: string, region: ChangedRegion): LineIndex {
    const old = previous.starts;
    // Line starts at or before the region's start are unaffected (a start is the offset after a '\n').
    const keep = upperBound(old, region.start, previous.count);
    const starts = new LineStarts(previous.count + 16);
    starts.values.set(old.subarray(0, keep));
    starts.length = keep;
    starts.scan(text, region.start, region.newEnd);
    const delta = region.newEnd - region.oldEnd;
    for (let i = upperBound(old, region.oldEnd, previous.count); i < previous.count; i++) starts.push(old[i] + delta);
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.count;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = upperBound(this.starts, clamped, this.count) - 1;
    return { line, character: clamped - this.starts[line] };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.count) return this.text.length;
    const lineStart = this.starts[position.line];
    const nextLineStart = position.line + 1 < this.count ? this.starts[position.line + 1] : this.text.length;
    return Math.max(lineStart, Math.min(lineStart + position.character, nextLineStart));
  }

  rangeOf(span: Span): Range {
    return { start: this.positionAt(span.offset), end: this.positionAt(span.offset + span.length) };
  }
}
