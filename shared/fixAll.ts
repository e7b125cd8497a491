/**
 * "Fix all" for one file: the safe quick fixes applied one by one, exactly as a user would apply
 * the editor's preferred quick fix to the first fixable diagnostic, let the file be analysed
 * again, and repeat. `quota-state fix` uses it; doing it one fix at a time keeps its result equal
 * to the editor's (a later fix is computed on the text the earlier one produced).
 *
 * State files get what `pulumi state repair` does (resources sorted into dependency order,
 * references to resources that are not in the file removed) plus the fixes that cannot lose
 * data: the recomputed manifest magic, the provider reference pointed at the provider's real id,
 * and a duplicate marked `"delete": true`. Quota files get the canonical subject spellings only.
 */
import type { Diagnostic } from './diagnostics';
import type { DocumentKind } from './documentKind';
import { applyEdits, type TextEdit } from './edits';
import { analyzeQuotaConfig, type QuotaAnalysis } from './quota/config';
import { quotaFixesFor } from './quota/services/codeActions';
import { analyzeState, type StateAnalysis } from './state/analyze';
import { fixesFor } from './state/services/codeActions';

/** The state codes whose preferred quick fix `fix` applies. */
export const SAFE_STATE_FIXES: readonly string[] = ['forward-reference', 'missing-reference', 'magic-mismatch', 'unknown-provider', 'duplicate-urn'];
/** The quota codes whose preferred quick fix `fix` applies. */
export const SAFE_QUOTA_FIXES: readonly string[] = ['subject-alias'];

export interface AppliedFix {
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

/** One fix: the code it answers, its title and its offset-based edits on the current text. */
interface PendingFix extends AppliedFix {
  edits: TextEdit[];
}

/** The preferred fix of the first diagnostic (in the editor's order) that has a safe one. */
export function nextStateFix(analysis: StateAnalysis): PendingFix | undefined {
  for (const diagnostic of analysis.diagnostics) {
    if (!SAFE_STATE_FIXES.includes(diagnostic.code)) continue;
    const fix = fixesFor(analysis, diagnostic).find((f) => f.preferred && f.edits.length > 0);
    if (fix) return { code: diagnostic.code, title: fix.title, edits: fix.edits };
  }
  return undefined;
}

export function nextQuotaFix(analysis: QuotaAnalysis): PendingFix | undefined {
  for (const diagnostic of analysis.diagnostics) {
    if (!SAFE_QUOTA_FIXES.includes(diagnostic.code)) continue;
    const fix = quotaFixesFor(analysis, diagnostic).find((f) => f.preferred && f.edits.length > 0);
    if (fix) return { code: diagnostic.code, title: fix.title, edits: fix.edits };
  }
  return undefined;
}

export function fixAll(kind: DocumentKind, text: string): FixAllResult {
  const analyze = kind === 'state' ? analyzeState : analyzeQuotaConfig;
  const next = (analysis: ReturnType<typeof analyze>) =>
    kind === 'state' ? nextStateFix(analysis as StateAnalysis) : nextQuotaFix(analysis as QuotaAnalysis);
  const applied: AppliedFix[] = [];
  let current = text;
  let analysis = analyze(current);
  // Each safe fix removes its diagnostic, so the loop ends; the bound guards against a fix that
  // would not (it would otherwise spin on the same diagnostic).
  const rounds = analysis.diagnostics.length * 4 + 16;
  for (let round = 0; round < rounds; round++) {
    const fix = next(analysis);
    if (!fix) break;
    const fixed = applyEdits(current, fix.edits);
    if (fixed === current) break;
    applied.push({ code: fix.code, title: fix.title });
    current = fixed;
    analysis = analyze(current);
  }
  return { text: current, applied, diagnostics: analysis.diagnostics };
}
