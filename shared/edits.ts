/**
 * The one edit and fix vocabulary of shared/: edits are offset-based spans of the analysed text,
 * and only the server turns them into LSP ranges (server/convert.ts), so the CLI, the tests and
 * the server apply exactly the same fixes.
 */

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

/** Applies non-overlapping edits (as a fix's edits are) to `text`. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) {
    result = result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length);
  }
  return result;
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
