/**
 * What the client needs of a quota file to push it or preview an account: the model, the usage
 * per account and the errors that stop evaluation. The server computes it, so the client bundles
 * no analysis (and no schema validator).
 */
import type { QuotaAnalysis } from './config';
import { fromWire, toWire } from '../api/json';
import type { LeafUsage, QuotaModel } from './model';

export interface QuotaFileSummary {
  /** The errors that stop evaluation, in document order; empty when the file can be evaluated. */
  errors: Array<{ line: number; message: string }>;
  model: QuotaModel;
  /** Usage per account, from the file's `usage` section or its instance content. */
  usage: Record<string, LeafUsage>;
  /** Every account the file names (instance accounts and those mentioned elsewhere). */
  accountNames: string[];
  /** The file's `forgejoVersion`, as written. */
  forgejoVersion?: string;
}

function quotaFileSummary(analysis: QuotaAnalysis): QuotaFileSummary {
  return {
    errors: analysis.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ line: d.range.start.line, message: d.message })),
    model: analysis.model,
    usage: Object.fromEntries(analysis.usage),
    accountNames: analysis.accountNames,
    ...(analysis.forgejoVersion ? { forgejoVersion: analysis.forgejoVersion.text } : {}),
  };
}

/** The summary as the language server protocol (plain JSON) carries it: limits and usage beyond 2^53 exactly (`toWire`), so Push sends them unchanged. */
export function quotaFileSummaryForWire(analysis: QuotaAnalysis): QuotaFileSummary {
  return toWire(quotaFileSummary(analysis));
}

export function quotaFileSummaryFromWire(summary: QuotaFileSummary): QuotaFileSummary {
  return fromWire(summary);
}
