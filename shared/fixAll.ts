/**
 * "Fix all" for one file: the safe quick fixes applied one by one, exactly as a user would apply
 * the editor's preferred quick fix to the first fixable diagnostic, let the file be analysed
 * again, and repeat. `quota-state fix` uses it; doing it one fix at a time keeps its result equal
 * to the editor's (a later fix is computed on the text the earlier one produced).
 *
 * Which fixes are safe is each kind's row in fileKinds.ts. State files get what `pulumi state repair`
 * does (resources sorted into dependency order, references to resources that are not in the file
 * removed) plus the fixes that cannot lose data: the recomputed manifest magic, the provider reference
 * pointed at the provider's real id, and a duplicate marked `"delete": true`. Quota files get the
 * canonical subject spellings only. app.ini files get none: each of their fixes changes what a running
 * Forgejo does.
 */
import type { Diagnostic } from './diagnostics';
import type { DocumentKind } from './documentKind';
import { applyEdits } from './edits';
import { FILE_KINDS, type KindAnalysisOptions } from './fileKinds';

interface AppliedFix {
  code: string;
  title: string;
}

export interface FixAllResult {
  /** The text after every safe fix. */
  text: string;
  applied: AppliedFix[];
  /** The diagnostics of `text`, with their default severities. */
  diagnostics: Diagnostic[];
}

/** The safe fixes of `kind`'s row, for the tests that check the editor applies the same ones. */
export const safeFixCodes = (kind: DocumentKind): readonly string[] => FILE_KINDS[kind].safeFixes;

export function fixAll(kind: DocumentKind, text: string, options: KindAnalysisOptions = {}): FixAllResult {
  const row = FILE_KINDS[kind];
  const applied: AppliedFix[] = [];
  let current = text;
  let step = row.fixStep(current, options);
  // Each safe fix removes its diagnostic, so the loop ends; the bound guards against a fix that
  // would not (it would otherwise spin on the same diagnostic).
  const rounds = step.diagnostics.length * 4 + 16;
  for (let round = 0; round < rounds && step.fix; round++) {
    const fixed = applyEdits(current, step.fix.edits);
    if (fixed === current) break;
    applied.push({ code: step.fix.code, title: step.fix.title });
    current = fixed;
    step = row.fixStep(current, options);
  }
  return { text: current, applied, diagnostics: step.diagnostics };
}
