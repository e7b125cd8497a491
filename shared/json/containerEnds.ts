/**
 * Finds where a JSON object or array ends, in text that `JSON.parse` accepted, without reading it
 * character by character. JSON forbids raw line breaks inside strings, so a bracket that begins its
 * line, or that only closers, commas and blanks follow up to the line break, is outside every
 * string, and pretty-printed state (`pulumi stack export`, any indenting serializer) puts nearly all
 * its brackets there. The scan jumps from bracket to bracket
 * with `indexOf` (a native memchr) and reads the strings of a line only for a bracket in its middle.
 *
 * One instance serves one forward pass: its cached next-bracket positions stay valid as long as
 * every call starts at or after where the previous one ended.
 */

const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const NEWLINE = 10;
const RETURN = 13;
const SPACE = 32;
const COMMA = 44;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;
const TAB = 9;

export class ContainerEnds {
  /** The next '{', '}', '[', ']' and line feed at or after the last position read (text.length: none). */
  private openBrace = -1;
  private closeBrace = -1;
  private openBracket = -1;
  private closeBracket = -1;
  private newline = -1;

  constructor(private readonly text: string) {}

  /** The offset just after the container whose opening bracket is at `start`; text.length if it never closes. */
  endOf(start: number): number {
    const text = this.text;
    const length = text.length;
    let depth = 1;
    // Everything before `sync` is read; `sync` itself is outside strings.
    let sync = start + 1;
    for (;;) {
      const bracket = this.nextBracket(sync);
      if (bracket >= length) return length;
      const stringEnd = this.stringAround(bracket, sync);
      if (stringEnd >= 0) {
        sync = stringEnd;
        continue;
      }
      const code = text.charCodeAt(bracket);
      if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (--depth === 0) return bracket + 1;
      sync = bracket + 1;
    }
  }

  /** The first bracket at or after `from`. */
  private nextBracket(from: number): number {
    const text = this.text;
    const none = text.length;
    if (this.openBrace < from) this.openBrace = orNone(text.indexOf('{', from), none);
    if (this.closeBrace < from) this.closeBrace = orNone(text.indexOf('}', from), none);
    if (this.openBracket < from) this.openBracket = orNone(text.indexOf('[', from), none);
    if (this.closeBracket < from) this.closeBracket = orNone(text.indexOf(']', from), none);
    const braces = this.openBrace < this.closeBrace ? this.openBrace : this.closeBrace;
    const brackets = this.openBracket < this.closeBracket ? this.openBracket : this.closeBracket;
    return braces < brackets ? braces : brackets;
  }

  /**
   * When the bracket at `at` lies inside a string, the offset after that string's closing quote;
   * -1 when it is structural. `sync` (at or before `at`) is outside strings.
   */
  private stringAround(at: number, sync: number): number {
    const text = this.text;
    // Only closers, commas and blanks up to the line break: no quote could close a string around it.
    let after = at + 1;
    for (let c = text.charCodeAt(after); c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === SPACE || c === TAB; c = text.charCodeAt(after)) after++;
    if (text.charCodeAt(after) === NEWLINE || text.charCodeAt(after) === RETURN) return -1;
    let before = at - 1;
    while (before >= sync && (text.charCodeAt(before) === SPACE || text.charCodeAt(before) === TAB)) before--;
    if (before < sync || text.charCodeAt(before) === NEWLINE || text.charCodeAt(before) === RETURN) return -1;
    // In the middle of a line: read its strings from the line's start (or `sync`, if later).
    if (this.newline < sync) this.newline = orNone(text.indexOf('\n', sync), text.length);
    let from = this.newline < at ? text.lastIndexOf('\n', at) + 1 : sync;
    for (let quote = text.indexOf('"', from); quote !== -1 && quote < at; quote = text.indexOf('"', from)) {
      const close = closingQuote(text, quote);
      if (close > at) return close + 1;
      from = close + 1;
    }
    return -1;
  }
}

function orNone(index: number, none: number): number {
  return index === -1 ? none : index;
}

/** The closing quote of the string opening at `quote` (text.length when unterminated). */
export function closingQuote(text: string, quote: number): number {
  let from = quote + 1;
  for (;;) {
    const next = text.indexOf('"', from);
    if (next === -1) return text.length;
    let backslashes = 0;
    for (let b = next - 1; text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if ((backslashes & 1) === 0) return next;
    from = next + 1;
  }
}
