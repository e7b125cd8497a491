/**
 * The one edit and fix vocabulary of shared/: edits are offset-based spans of the analysed text,
 * and only the server turns them into LSP ranges (server/convert.ts), so the CLI, the tests and
 * the server apply exactly the same fixes.
 */
import type { Position, Range } from './diagnostics';

export interface TextEdit {
  offset: number;
  length: number;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** True for the fix that "auto fix" and `quota-state fix` apply. */
  preferred?: boolean;
  /**
   * Fixes with the same id make the same change whichever diagnostic offered them (one reorder
   * answers every forward reference), so a list of code actions keeps only the first.
   */
  id?: string;
}

/** What a fix provider reads of a diagnostic: its code, its range as offsets and its payload. */
export interface FixRequest {
  code: string;
  span: { offset: number; length: number };
  data: Record<string, unknown>;
}

/** What a fix reads of a diagnostic; the shared model and LSP's diagnostics both have it. */
export interface FixableDiagnostic {
  code?: unknown;
  range: Range;
  data?: unknown;
}

/**
 * The fix request of `diagnostic` when its code is one of `registry`'s: its range as offsets of the
 * analysed text (`lines`) and its payload (an empty one when it has none).
 */
export function fixRequestOf<C extends string>(
  diagnostic: FixableDiagnostic,
  registry: Readonly<Record<C, unknown>>,
  lines: { offsetAt(position: Position): number },
): (FixRequest & { code: C }) | undefined {
  const code = diagnostic.code;
  if (typeof code !== 'string' || !Object.hasOwn(registry, code)) return undefined;
  const start = lines.offsetAt(diagnostic.range.start);
  const span = { offset: start, length: lines.offsetAt(diagnostic.range.end) - start };
  const data = typeof diagnostic.data === 'object' && diagnostic.data !== null ? (diagnostic.data as Record<string, unknown>) : {};
  return { code: code as C, span, data };
}

/**
 * Applies non-overlapping edits, all relative to `text` (as a fix's or an operation's edits are), in
 * one pass: linear in the text plus the edits, where repeated slicing would make a remove of
 * thousands of records quadratic. Insertions at one offset keep their order. Overlaps are a bug in
 * whoever built the edits, so they throw rather than produce a mangled file.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const sorted = edits.map((edit, order) => ({ edit, order })).sort((a, b) => a.edit.offset - b.edit.offset || a.edit.length - b.edit.length || a.order - b.order);
  const parts: string[] = [];
  let at = 0;
  for (const { edit } of sorted) {
    if (edit.offset < at) throw new Error(`overlapping edits at offset ${edit.offset}`);
    parts.push(text.slice(at, edit.offset), edit.newText);
    at = edit.offset + edit.length;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Applies edits one after another, each relative to the text the previous one left (as an editor's changes arrive). */
export function applyEditsInSequence(text: string, edits: readonly TextEdit[]): string {
  for (const edit of edits) text = applyEdits(text, [edit]);
  return text;
}

/** Drops the fixes whose id an earlier fix already had. */
export function withoutRepeats<T extends { fix: Fix }>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  return entries.filter(({ fix }) => {
    if (fix.id === undefined) return true;
    if (seen.has(fix.id)) return false;
    seen.add(fix.id);
    return true;
  });
}
