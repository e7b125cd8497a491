/**
 * What the client needs of a quota file to push it or preview an account: the model, the usage
 * per account and the errors that stop evaluation. The server computes it, so the client bundles
 * no analysis (and no schema validator).
 */
import type { QuotaAnalysis } from './config';
import { withPlainNumbers } from '../api/json';
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
    // The protocol is plain JSON: usage summed past 2^53 (a bigint) travels as a number.
    usage: withPlainNumbers(Object.fromEntries(analysis.usage)),
    accountNames: analysis.accountNames,
    ...(analysis.forgejoVersion ? { forgejoVersion: analysis.forgejoVersion.text } : {}),
  };
}

/**
 * The summary as the language server protocol (plain JSON) carries it: a limit beyond 2^53 as its
 * decimal digits, so that Push sends it unchanged. `quotaFileSummaryFromWire` turns them back.
 */
export function quotaFileSummaryForWire(analysis: QuotaAnalysis): QuotaFileSummary {
  const summary = quotaFileSummary(analysis);
  const digits = <T extends number | bigint>(value: T): T => (typeof value === 'bigint' ? (value.toString() as unknown as T) : value);
  return {
    ...summary,
    model: { ...summary.model, defaultTotal: digits(summary.model.defaultTotal), rules: summary.model.rules.map((rule) => ({ ...rule, limit: digits(rule.limit) })) },
  };
}

export function quotaFileSummaryFromWire(summary: QuotaFileSummary): QuotaFileSummary {
  const exact = (value: unknown): number | bigint => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? BigInt(value) : (value as number));
  return {
    ...summary,
    model: { ...summary.model, defaultTotal: exact(summary.model.defaultTotal), rules: summary.model.rules.map((rule) => ({ ...rule, limit: exact(rule.limit) })) },
  };
}
