import type { Position, Range, Span } from '../diagnostics';
import type { ChangedRegion } from './changedRegion';
import { upperBound } from './upperBound';

/**
 * Converts offsets to LSP positions (UTF-16 code units, which is what JS string
 * indices already are). Built with one scan over the text; lookups are binary searches,
 * so converting the ranges of k diagnostics costs O(n + k log n), never O(n·k).
 */
export class LineIndex {
  private readonly lineStarts: number[];

  constructor(
    private readonly text: string,
    lineStarts?: number[],
  ) {
    this.lineStarts = lineStarts ?? LineIndex.scan(text, 0, text.length, [0]);
  }

  /**
   * The index of `text`, which differs from `previous`'s text only in `region`: lines before
   * the region are kept, lines inside it are scanned, lines after it are shifted.
   */
  static afterEdit(previous: LineIndex, text: string, region: ChangedRegion): LineIndex {
    const old = previous.lineStarts;
    // Line starts at or before the region's start are unaffected (a start is the offset after a '\n').
    let keep = upperBound(old, region.start);
    const starts = old.slice(0, keep);
    LineIndex.scan(text, region.start, region.newEnd, starts);
    keep = upperBound(old, region.oldEnd);
    const delta = region.newEnd - region.oldEnd;
    for (let i = keep; i < old.length; i++) starts.push(old[i] + delta);
    return new LineIndex(text, starts);
  }

  /** Appends the start of every line that begins after a '\n' in text[from, to). */
  private static scan(text: string, from: number, to: number, starts: number[]): number[] {
    let i = text.indexOf('\n', from);
    while (i !== -1 && i < to) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - starts[low] };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const lineStart = this.lineStarts[position.line];
    const nextLineStart = position.line + 1 < this.lineStarts.length ? this.lineStarts[position.line + 1] : this.text.length;
    return Math.max(lineStart, Math.min(lineStart + position.character, nextLineStart));
  }

  rangeOf(span: Span): Range {
    return { start: this.positionAt(span.offset), end: this.positionAt(span.offset + span.length) };
  }
}
