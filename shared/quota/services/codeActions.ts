/**
 * Quick fixes for quota diagnostics: each diagnostic's code picks its rule module's fix (rules/index.ts),
 * which reads the diagnostic's `data`.
 */
import { fixRequestOf, withoutRepeats, type Fix, type FixableDiagnostic } from '../../edits';
import { QUOTA_CODES } from '../codes';
import type { QuotaAnalysis } from '../config';
import { quotaFixProvider } from '../rules';

/** The fixes of one diagnostic, by its code. */
export function quotaFixesFor(analysis: QuotaAnalysis, diagnostic: FixableDiagnostic): Fix[] {
  const request = fixRequestOf(diagnostic, QUOTA_CODES, analysis.lines);
  const provider = request && quotaFixProvider(request.code);
  return provider ? provider(analysis, request) : [];
}

/** Every fix of `diagnostics`, each with the diagnostic it answers, repeats removed. */
export function quotaCodeActions<D extends FixableDiagnostic>(analysis: QuotaAnalysis, diagnostics: readonly D[]): Array<{ fix: Fix; diagnostic: D }> {
  return withoutRepeats(diagnostics.flatMap((diagnostic) => quotaFixesFor(analysis, diagnostic).map((fix) => ({ fix, diagnostic }))));
}
