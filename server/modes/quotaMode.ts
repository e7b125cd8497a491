/**
 * Language mode for quota config and instance files (product.md §4, §7). The analysis is
 * computed once per document version and shared by every feature.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeQuotaConfig, type QuotaAnalysis } from '../../shared/quota/config';
import { leafUsageFromQuotaUsed } from '../../shared/quota/quotaInfo';
import { buildEvaluationReport, type EvaluationReport, type ReportOptions } from '../../shared/quota/report';
import type { LanguageMode, ModeContext } from './languageMode';

export interface QuotaMode extends LanguageMode {
  analysis(document: TextDocument): QuotaAnalysis;
  evaluationReport(document: TextDocument, options?: Omit<ReportOptions, 'live'>): EvaluationReport;
}

export function createQuotaMode(context: ModeContext): QuotaMode {
  const cache = new Map<string, { version: number; analysis: QuotaAnalysis }>();

  const analysis = (document: TextDocument): QuotaAnalysis => {
    const cached = cache.get(document.uri);
    if (cached && cached.version === document.version) return cached.analysis;
    const fresh = analyzeQuotaConfig(document.getText());
    cache.set(document.uri, { version: document.version, analysis: fresh });
    return fresh;
  };

  const liveOption = (): ReportOptions['live'] => {
    const live = context.liveUsage();
    return live ? { account: live.account, server: live.server, usage: leafUsageFromQuotaUsed(live.quota.used) } : undefined;
  };

  return {
    kind: 'quota',
    analysis,
    validate: (document) => analysis(document).diagnostics,
    status: (document) => ({ shape: analysis(document).isInstance ? 'instance' : 'quota config' }),
    evaluationReport: (document, options = {}) => buildEvaluationReport(analysis(document), { ...options, live: liveOption() }),
    forget: (uri) => void cache.delete(uri),
  };
}
