/** Detects a document's indentation and line ending, so generated edits match the file. */
import type { FormattingOptions } from 'jsonc-parser';

export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sample = text.slice(0, 64 * 1024);
  const indents = [...sample.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const widths = indents.map((i) => i.length).filter((w) => w > 0);
  const smallest = widths.length ? Math.min(...widths) : 2;
  return { insertSpaces: true, tabSize: Math.min(Math.max(smallest, 1), 8), eol };
}
