/**
 * A quota file's accounts, explained (`explainFile`), and the evaluation report: exactly the JSON
 * of `quota-state evaluate --format json`, also returned by the language server's preview request.
 * The report is a rendering of the explanations (./explain.ts); it decides nothing of its own.
 */
import type { QuotaAnalysis } from './config';
import type { Bytes } from './evaluate';
import { explainAccount, type AccountExplanation } from './explain';
import { resolveForgejoProfile, rulesLabel, type EvaluationGeneration, type ForgejoVersionSource, type ResolvedForgejoProfile } from './forgejoVersion';
import type { LeafUsage } from './model';

/** Present on the signed-in user's account when its usage came live from a quota API. */
type Live = { live?: { server: string } };

interface AccountReport extends Live {
  name: string;
  /** The account's resolved group list; the built-in group appears as `{"name": "(default)", "builtin": true, …}`. */
  groups: Array<{ name: string; builtin?: true; stands: boolean; rules: Array<{ name: string; used: Bytes; limit: Bytes; stands: boolean }> }>;
  stands: boolean;
  /** The check verdict per subject, keyed as asked. */
  checks: Record<string, boolean>;
}

/** The Forgejo version whose rules decided, and where it came from. */
type ReportHeader = { version: string; rules: string; generation: EvaluationGeneration; source: ForgejoVersionSource };

export interface EvaluationReport {
  forgejo: ReportHeader;
  /** Present (false) only when the file disables quota: verdicts then show what the rules would decide. */
  enabled?: false;
  accounts: AccountReport[];
}

/** A file's accounts, each explained, under the same header as the report. */
export interface FileExplanation {
  forgejo: ReportHeader;
  enabled?: false;
  accounts: Array<AccountExplanation & Live>;
}

export interface ReportOptions {
  /** Evaluate only this account. */
  account?: string;
  /** Check only this subject (any accepted spelling); default every canonical subject. */
  subject?: string;
  /** The signed-in user's usage from the API; replaces or adds that account. */
  live?: { account: string; server: string; usage: LeafUsage };
  /** The Forgejo version in force; default: the file's `forgejoVersion`, else the default version. */
  forgejo?: ResolvedForgejoProfile;
}

/** The version in force when the caller names none: the file's, else the default. */
export function fileForgejoProfile(analysis: QuotaAnalysis): ResolvedForgejoProfile {
  return resolveForgejoProfile([{ source: 'file', version: analysis.forgejoVersion?.text }]);
}

/** Accounts in report order: the file's accounts, then the live account if it is new. */
function reportAccounts(analysis: QuotaAnalysis, live?: ReportOptions['live']): string[] {
  const names = [...analysis.accountNames];
  if (live && !names.includes(live.account)) names.push(live.account);
  return names;
}

/** Every account of the file (or the one asked), explained with the file's usage (or the live usage) in the version in force. */
export function explainFile(analysis: QuotaAnalysis, options: ReportOptions = {}): FileExplanation {
  const forgejo = options.forgejo ?? fileForgejoProfile(analysis);
  const subjects = options.subject !== undefined ? [options.subject] : undefined;
  const names = options.account !== undefined ? [options.account] : reportAccounts(analysis, options.live);
  const live = options.live;
  const accounts = names.map((name) => {
    const usage = live?.account === name ? live.usage : analysis.usage.get(name);
    const explained = explainAccount(name, { model: analysis.model, usage }, { profile: forgejo.profile, subjects });
    return live?.account === name ? { ...explained, live: { server: live.server } } : explained;
  });
  const { profile, source } = forgejo;
  const header = { version: profile.version, rules: rulesLabel(profile), generation: profile.generation, source };
  return analysis.model.enabled ? { forgejo: header, accounts } : { forgejo: header, enabled: false, accounts };
}

/** The JSON report of explained accounts. */
export function reportOf(file: FileExplanation): EvaluationReport {
  const accounts = file.accounts.map((account): AccountReport => {
    const report: AccountReport = {
      name: account.account,
      groups: account.groups.map((group) => ({
        name: group.name,
        ...(group.builtin ? { builtin: group.builtin } : {}),
        stands: group.stands,
        rules: group.rules.map((rule) => ({ name: rule.name, used: rule.used, limit: rule.limit, stands: rule.stands })),
      })),
      stands: account.within,
      checks: Object.fromEntries(account.subjects.map((subject) => [subject.subject, subject.allowed])),
    };
    return account.live ? { ...report, live: account.live } : report;
  });
  return file.enabled === false ? { forgejo: file.forgejo, enabled: false, accounts } : { forgejo: file.forgejo, accounts };
}

export function buildEvaluationReport(analysis: QuotaAnalysis, options: ReportOptions = {}): EvaluationReport {
  return reportOf(explainFile(analysis, options));
}
