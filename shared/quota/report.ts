/**
 * The evaluation report: exactly the JSON of `quota-state evaluate --format json`
 * (product.md §8), also returned by the language server's preview request.
 */
import type { QuotaAnalysis } from './config';
import { evaluateAccount, QuotaIndex, type AccountVerdict } from './evaluate';
import type { LeafUsage } from './model';
import { zeroUsage } from './usage';

export interface AccountReport extends AccountVerdict {
  /** Present on the signed-in user's account when its usage came live from a quota API. */
  live?: { server: string };
}

export interface EvaluationReport {
  /** Present (false) only when the file disables quota: verdicts then show what the rules would decide. */
  enabled?: false;
  accounts: AccountReport[];
}

export interface ReportOptions {
  /** Evaluate only this account. */
  account?: string;
  /** Check only this subject (any accepted spelling); default every canonical subject. */
  subject?: string;
  /** The signed-in user's usage from the API; replaces or adds that account. */
  live?: { account: string; server: string; usage: LeafUsage };
}

/** Accounts in report order: the file's accounts, then the live account if it is new. */
export function reportAccounts(analysis: QuotaAnalysis, live?: ReportOptions['live']): string[] {
  const names = [...analysis.accountNames];
  if (live && !names.includes(live.account)) names.push(live.account);
  return names;
}

export function buildEvaluationReport(analysis: QuotaAnalysis, options: ReportOptions = {}): EvaluationReport {
  const index = new QuotaIndex(analysis.model);
  const subjects = options.subject !== undefined ? [options.subject] : undefined;
  const names = options.account !== undefined ? [options.account] : reportAccounts(analysis, options.live);
  const accounts = names.map((name): AccountReport => {
    const isLive = options.live?.account === name;
    const usage = isLive ? options.live!.usage : analysis.usage.get(name) ?? zeroUsage();
    const verdict = evaluateAccount(index, name, usage, subjects);
    return isLive ? { ...verdict, live: { server: options.live!.server } } : verdict;
  });
  return analysis.model.enabled ? { accounts } : { enabled: false, accounts };
}
