/**
 * Quick fixes for quota diagnostics: each diagnostic's code picks its rule module's fix (rules/index.ts),
 * which reads the diagnostic's `data`.
 */
import type { Range } from '../../diagnostics';
import { withoutRepeats, type Fix } from '../../edits';
import { QUOTA_CODES, type QuotaCode } from '../codes';
import type { QuotaAnalysis } from '../config';
import { quotaFixProvider } from '../rules';

/** What a fix reads of a diagnostic; the shared model and LSP's diagnostics both have it. */
export interface FixableDiagnostic {
  code?: unknown;
  range: Range;
  data?: unknown;
}

/** The fixes of one diagnostic, by its code. */
export function quotaFixesFor(analysis: QuotaAnalysis, diagnostic: FixableDiagnostic): Fix[] {
  const code = diagnostic.code;
  if (typeof code !== 'string' || !Object.hasOwn(QUOTA_CODES, code)) return [];
  const provider = quotaFixProvider(code as QuotaCode);
  if (!provider) return [];
  const start = analysis.lines.offsetAt(diagnostic.range.start);
  const span = { offset: start, length: analysis.lines.offsetAt(diagnostic.range.end) - start };
  const data = typeof diagnostic.data === 'object' && diagnostic.data !== null ? (diagnostic.data as Record<string, unknown>) : {};
  return provider(analysis, { code, span, data });
}

/** Every fix of `diagnostics`, each with the diagnostic it answers, repeats removed. */
export function quotaCodeActions<D extends FixableDiagnostic>(analysis: QuotaAnalysis, diagnostics: readonly D[]): Array<{ fix: Fix; diagnostic: D }> {
  return withoutRepeats(diagnostics.flatMap((diagnostic) => quotaFixesFor(analysis, diagnostic).map((fix) => ({ fix, diagnostic }))));
}
