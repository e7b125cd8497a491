/** Detects a document's indentation and line ending, so generated edits match the file. */
import type { FormattingOptions } from 'jsonc-parser';

/**
 * The indentation one level adds in `text`: a tab, or the smallest run of leading spaces (1 to 8),
 * read from its first 64 KiB; `fallbackWidth` spaces when no line there is indented.
 */
export function indentUnit(text: string, fallbackWidth: number): string {
  const sample = text.slice(0, 64 * 1024);
  const indents = [...sample.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]);
  if (indents.some((i) => i.startsWith('\t'))) return '\t';
  const widths = indents.map((i) => i.length).filter((w) => w > 0);
  const smallest = widths.length ? Math.min(...widths) : fallbackWidth;
  return ' '.repeat(Math.min(Math.max(smallest, 1), 8));
}

export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(text, 2);
  return unit === '\t' ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: unit.length, eol };
}

/** The indentation of the line `offset` is on (the whitespace after the previous newline). */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let end = lineStart;
  while (end < offset && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(lineStart, end);
}
