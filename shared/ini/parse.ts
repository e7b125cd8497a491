/**
 * An INI tokenizer with offsets that reads a file the way Forgejo's configuration loader does:
 * go-ini v1.67 with `IgnoreContinuation: true` and every other option at its default.
 *
 * - Whole-line comments start with `;` or `#` (after leading whitespace).
 * - A value is cut at the first `;` or `#` (an inline comment), even without a space before it.
 * - A value wrapped in matching `"…"` or `'…'` loses the quotes (only when no other quote of that
 *   kind is inside); a value starting with a backtick or `"""` runs to the last matching quote,
 *   over several lines when needed, and is not cut at comment characters.
 * - A trailing backslash does not continue the value on the next line (it stays in the value).
 * - Keys and values are separated by the first `=` or `:`; section and key names are
 *   case-sensitive; a section name is everything between `[` and the last `]`, not trimmed.
 * - A repeated section is merged into the first; a repeated key overwrites the earlier value.
 * - A line that is neither blank, a comment, a section nor a key-value pair makes go-ini refuse
 *   the whole file (Forgejo does not start). Unlike go-ini, every such line is reported and
 *   parsing goes on, so the rest of the file still gets its diagnostics.
 *
 * No INI package on npm returns positions, and each one reads comments, quotes and duplicates
 * differently from go-ini, so this one is written here. It never throws.
 */
import * as l10n from '@vscode/l10n';
import type { Span } from '../diagnostics';

export const DEFAULT_SECTION = 'DEFAULT';

interface IniSectionHeader {
  /** The name as go-ini keys the section (exactly the text between `[` and the last `]`). */
  name: string;
  /** From `[` to the last `]`. */
  span: Span;
  nameSpan: Span;
}

export interface IniEntry {
  /** Name of the section the key belongs to (`DEFAULT` before the first header). */
  section: string;
  /** Index of the header in `IniDocument.headers`, -1 before the first header. */
  headerIndex: number;
  key: string;
  keySpan: Span;
  /** The value Forgejo receives. */
  value: string;
  /**
   * Where the value's characters are in the text (quotes excluded): replacing this span
   * replaces the value. Zero-length after the delimiter when the value is empty.
   */
  valueSpan: Span;
  /** The inline comment go-ini cut off the value (from the `;`/`#` to the end of the line). */
  comment?: Span;
  /** How the value was quoted in the file. */
  quote?: 'backtick' | 'triple' | 'double' | 'single';
  /** From the key to the end of the value's last line (newline excluded). */
  lineSpan: Span;
}

interface IniSyntaxError {
  message: string;
  span: Span;
}

export interface IniDocument {
  text: string;
  headers: IniSectionHeader[];
  entries: IniEntry[];
  /** Lines go-ini refuses; any one of them stops Forgejo from loading the file. */
  errors: IniSyntaxError[];
}

/** Go's `unicode.IsSpace`. */
function isGoSpace(c: string): boolean {
  return /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/.test(c);
}

function trimStartIndex(text: string, from: number, to: number): number {
  while (from < to && isGoSpace(text[from])) from++;
  return from;
}

function trimEndIndex(text: string, from: number, to: number): number {
  while (to > from && isGoSpace(text[to - 1])) to--;
  return to;
}

/** True when `value` is wrapped in `quote` and holds no other `quote` (go-ini's hasSurroundedQuote). */
function hasSurroundedQuote(value: string, quote: string): boolean {
  return value.length >= 2 && value[0] === quote && value[value.length - 1] === quote && value.indexOf(quote, 1) === value.length - 1;
}

function indexOfAny(text: string, chars: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (chars.includes(text[i])) return i;
  return -1;
}

interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset after the line's last character, newline excluded. */
  end: number;
  /** Offset after the newline (or the end of the text). */
  next: number;
}

function readLine(text: string, from: number): Line {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? { start: from, end: text.length, next: text.length } : { start: from, end: newline, next: newline + 1 };
}

/** The line's text from `start`, trailing whitespace trimmed, as an error span. */
function restOfLine(text: string, start: number, line: Line): Span {
  return { offset: start, length: trimEndIndex(text, start, line.end) - start };
}

const lineError = (message: string, span: Span): IniSyntaxError => ({ message, span });

/** A `[name]` line: the name is everything between `[` and the last `]`. */
function readHeader(text: string, start: number, line: Line): IniSectionHeader | IniSyntaxError {
  const close = text.lastIndexOf(']', line.end - 1);
  if (close < start) {
    const span = restOfLine(text, start, line);
    return lineError(`unclosed section "${text.slice(span.offset, span.offset + span.length)}": add "]"`, span);
  }
  const name = text.slice(start + 1, close);
  if (name.length === 0) return lineError('empty section name "[]"', { offset: start, length: 2 });
  return { name, span: { offset: start, length: close + 1 - start }, nameSpan: { offset: start + 1, length: name.length } };
}

/** A key name and where its value starts (after the first `=` or `:`). */
interface KeyRead {
  key: string;
  keySpan: Span;
  valueStart: number;
}

function noDelimiterError(text: string, start: number, line: Line): IniSyntaxError {
  const span = restOfLine(text, start, line);
  return lineError(l10n.t('"{0}" has no "=" (Forgejo reads key = value lines only)', text.slice(span.offset, span.offset + span.length)), span);
}

/** A key in `"…"`, `"""…"""` or backticks: the name is what the quotes hold, trimmed. */
function readQuotedKey(text: string, start: number, line: Line, keyQuote: string): KeyRead | IniSyntaxError {
  const nameStart = start + keyQuote.length;
  const close = text.indexOf(keyQuote, nameStart);
  if (close === -1 || close >= line.end) return lineError(l10n.t('missing closing quote of the key name'), { offset: start, length: keyQuote.length });
  const delimiter = indexOfAny(text, '=:', close + keyQuote.length, line.end);
  if (delimiter === -1) return noDelimiterError(text, start, line);
  const keyStart = trimStartIndex(text, nameStart, close);
  const keyEnd = trimEndIndex(text, keyStart, close);
  if (keyEnd === keyStart) return lineError(l10n.t('empty key name'), { offset: start, length: close + keyQuote.length - start });
  return { key: text.slice(keyStart, keyEnd), keySpan: { offset: keyStart, length: keyEnd - keyStart }, valueStart: delimiter + 1 };
}

/** A key name, possibly quoted, up to the first `=` or `:`. */
function readKey(text: string, start: number, line: Line): KeyRead | IniSyntaxError {
  const first = text[start];
  const keyQuote = first === '"' ? (line.end - start > 6 && text.startsWith('"""', start) ? '"""' : '"') : first === '`' ? '`' : '';
  if (keyQuote) return readQuotedKey(text, start, line, keyQuote);
  const delimiter = indexOfAny(text, '=:', start, line.end);
  if (delimiter === -1) return noDelimiterError(text, start, line);
  if (delimiter === start) return lineError(l10n.t('a value without a key name'), restOfLine(text, start, line));
  const keyEnd = trimEndIndex(text, start, delimiter);
  return { key: text.slice(start, keyEnd), keySpan: { offset: start, length: keyEnd - start }, valueStart: delimiter + 1 };
}

const isError = (read: object): read is IniSyntaxError => 'message' in read;

/** Where parsing stands: the section the next key goes into, and what was read so far. */
interface ParseState {
  document: IniDocument;
  section: string;
  headerIndex: number;
}

/** Reads the key-value line at `start` into the state; returns where reading goes on. */
function readEntry(state: ParseState, start: number, line: Line): number {
  const { text, entries, errors } = state.document;
  const key = readKey(text, start, line);
  if (isError(key)) {
    errors.push(key);
    return line.next;
  }
  const value = readValue(text, key.valueStart, line);
  if ('error' in value) {
    // go-ini reads to the end looking for the closing quote.
    errors.push(value.error);
    return text.length;
  }
  entries.push({
    section: state.section,
    headerIndex: state.headerIndex,
    key: key.key,
    keySpan: key.keySpan,
    value: value.value,
    valueSpan: value.valueSpan,
    comment: value.comment,
    quote: value.quote,
    lineSpan: { offset: key.keySpan.offset, length: value.lineEnd - key.keySpan.offset },
  });
  return Math.max(line.next, value.next);
}

/** Reads the line at `position` into the state; returns where the next line starts. */
function readStatement(state: ParseState, position: number): number {
  const { text } = state.document;
  const line = readLine(text, position);
  const start = trimStartIndex(text, line.start, line.end);
  if (start === line.end || text[start] === '#' || text[start] === ';') return line.next;
  if (text[start] !== '[') return readEntry(state, start, line);
  const header = readHeader(text, start, line);
  if (isError(header)) state.document.errors.push(header);
  else {
    state.document.headers.push(header);
    state.section = header.name;
    state.headerIndex = state.document.headers.length - 1;
  }
  return line.next;
}

export function parseIni(text: string): IniDocument {
  const state: ParseState = { document: { text, headers: [], entries: [], errors: [] }, section: DEFAULT_SECTION, headerIndex: -1 };
  // go-ini skips a UTF-8 byte-order mark at the start.
  let position = text.startsWith('\ufeff') ? 1 : 0;
  while (position < text.length) position = readStatement(state, position);
  return state.document;
}

interface ValueRead {
  value: string;
  valueSpan: Span;
  comment?: Span;
  quote?: IniEntry['quote'];
  /** End of the value's last line, newline excluded. */
  lineEnd: number;
  /** Where reading goes on (after a multi-line value, past its last line). */
  next: number;
}

/**
 * A value opened with a backtick or `"""`: verbatim up to the last matching quote of the first line
 * that has one, over several lines when needed.
 */
function readQuotedValue(text: string, start: number, line: Line, valueQuote: string): ValueRead | { error: IniSyntaxError } {
  const contentStart = start + valueQuote.length;
  const quote = valueQuote === '`' ? 'backtick' : 'triple';
  const close = text.lastIndexOf(valueQuote, line.next - 1);
  if (close >= contentStart && close + valueQuote.length <= line.next) {
    return { value: text.slice(contentStart, close), valueSpan: { offset: contentStart, length: close - contentStart }, quote, lineEnd: line.end, next: line.next };
  }
  for (let next = line.next; next < text.length;) {
    const following = readLine(text, next);
    const at = text.lastIndexOf(valueQuote, following.next - 1);
    if (at >= following.start && at + valueQuote.length <= following.next) {
      return { value: text.slice(contentStart, at), valueSpan: { offset: contentStart, length: at - contentStart }, quote, lineEnd: following.end, next: following.next };
    }
    next = following.next;
  }
  return { error: { message: l10n.t('the value opened with {0} is never closed', valueQuote), span: { offset: start, length: valueQuote.length } } };
}

/** A value on one line: cut at the first `;` or `#`, and unwrapped from matching `"…"` or `'…'`. */
function readPlainValue(text: string, start: number, line: Line): ValueRead {
  const lineEnd = trimEndIndex(text, start, line.end);
  let valueEnd = lineEnd;
  let comment: Span | undefined;
  const hash = indexOfAny(text, '#;', start, lineEnd);
  if (hash !== -1) {
    comment = { offset: hash, length: lineEnd - hash };
    valueEnd = trimEndIndex(text, start, hash);
  }
  let value = text.slice(start, valueEnd);
  let valueSpan: Span = { offset: start, length: valueEnd - start };
  let quote: IniEntry['quote'];
  if (hasSurroundedQuote(value, "'") || hasSurroundedQuote(value, '"')) {
    quote = value[0] === '"' ? 'double' : 'single';
    value = value.slice(1, -1);
    valueSpan = { offset: start + 1, length: value.length };
  }
  return { value, valueSpan, comment, quote, lineEnd: line.end, next: line.next };
}

function readValue(text: string, from: number, line: Line): ValueRead | { error: IniSyntaxError } {
  const start = trimStartIndex(text, from, line.end);
  if (start === line.end) return { value: '', valueSpan: { offset: from, length: 0 }, lineEnd: line.end, next: line.next };
  // go-ini sees the line with its newline: `"""` then a newline is long enough to open a quote.
  const rest = line.next - start;
  const valueQuote = rest > 3 && text.startsWith('"""', start) ? '"""' : text[start] === '`' ? '`' : '';
  return valueQuote ? readQuotedValue(text, start, line, valueQuote) : readPlainValue(text, start, line);
}
