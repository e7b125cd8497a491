/**
 * Where each resource record sits in the text. Scanned once (lazily, on the first edit of a
 * valid document), then carried across edits by shifting, so that an edit inside one record
 * re-reads only that record and the locator can jump over every other one.
 */
import type { Span } from '../../diagnostics';
import { upperBound } from '../../text/upperBound';
import type { KnownExtents } from './locate';

export class ResourceLayout implements KnownExtents {
  constructor(
    /** The resources array itself. */
    readonly array: Span,
    /** Start offset of each record, ascending. */
    readonly starts: readonly number[],
    /** End offset (exclusive) of each record. */
    readonly ends: readonly number[],
  ) {}

  static fromSpans(array: Span, elements: Span[]): ResourceLayout {
    return new ResourceLayout(
      array,
      elements.map((e) => e.offset),
      elements.map((e) => e.offset + e.length),
    );
  }

  endOf(offset: number): number | undefined {
    if (offset === this.array.offset) return this.array.offset + this.array.length;
    const index = this.indexAt(offset);
    return index !== undefined && this.starts[index] === offset ? this.ends[index] : undefined;
  }

  /**
   * The record whose text strictly contains [start, end): the edit leaves its first and last
   * characters (the braces of a record) untouched. Undefined when no single record does.
   */
  containing(start: number, end: number): number | undefined {
    const index = this.indexAt(start);
    if (index === undefined) return undefined;
    return this.starts[index] < start && end < this.ends[index] ? index : undefined;
  }

  /** The layout after record `index` grew by `delta` characters. */
  resized(index: number, delta: number): ResourceLayout {
    const starts = this.starts.slice();
    const ends = this.ends.slice();
    ends[index] += delta;
    for (let i = index + 1; i < starts.length; i++) {
      starts[i] += delta;
      ends[i] += delta;
    }
    return new ResourceLayout({ offset: this.array.offset, length: this.array.length + delta }, starts, ends);
  }

  /** The last record starting at or before `offset`. */
  private indexAt(offset: number): number | undefined {
    const count = upperBound(this.starts, offset);
    return count === 0 ? undefined : count - 1;
  }
}
