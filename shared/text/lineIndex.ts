import type { Position, Range, Span } from '../diagnostics';

/**
 * Converts offsets to LSP positions (UTF-16 code units, which is what JS string
 * indices already are). Built with one scan over the text; lookups are binary searches,
 * so converting the ranges of k diagnostics costs O(n + k log n), never O(n·k).
 */
export class LineIndex {
  private readonly lineStarts: number[];

  constructor(private readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.lineStarts = starts;
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
