/**
 * The evaluation report: exactly the JSON of `quota-state evaluate --format json`
 * (what `quota-state evaluate --format json` prints), also returned by the language server's preview request.
 */
import type { QuotaAnalysis } from './config';
import { BUILTIN_GROUP_NAME, evaluateAccount, evaluateRule, QuotaIndex, ruleAppliesTo, type AccountVerdict, type ResolvedGroup, type RuleVerdict } from './evaluate';
import type { LeafUsage } from './model';
import { formatSize, UNLIMITED } from './sizes';
import { canonicalSubject } from './subjects';
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

// ---------------------------------------------------------------------------------------------
// Verdicts in words: one sentence per subject, shared by the CLI, hovers, the dashboard and the
// check command, so a refusal never looks like a contradiction ("over quota" at 0 B used).

/** Why a subject is allowed or refused for an account (group names as in the model). */
export type SubjectReason =
  /** `none` and the wiki: nothing is measured, so nothing is refused. */
  | { kind: 'untracked' }
  /** Some group allows it; `binding` is the applicable rule with the least room in that group. */
  | { kind: 'allowed'; group: string; binding: RuleVerdict; headroom: number }
  /** No rule of any of the account's groups applies to the subject: Forgejo refuses what no rule covers. */
  | { kind: 'uncovered'; groups: string[] }
  /** Every group refuses: each either has a failing applicable rule or covers nothing. */
  | { kind: 'fails'; failing: Array<{ group: string; rule: RuleVerdict }>; uncovered: string[] };

export interface SubjectExplanation {
  subject: string;
  allowed: boolean;
  /** Bytes of the subject the account could still add before a rule fails (Infinity when unlimited, 0 when refused). */
  headroom: number;
  reason: SubjectReason;
  sentence: string;
}

function groupLabel(name: string): string {
  return name === BUILTIN_GROUP_NAME ? 'the built-in default group' : `group ${name}`;
}

function groupsPhrase(names: string[]): string {
  const labels = names.map(groupLabel);
  if (labels.length <= 1) return labels[0] ?? 'any group';
  return `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}

function headroomOf(rule: RuleVerdict): number {
  return rule.limit === UNLIMITED ? Infinity : Math.max(0, rule.limit - rule.used);
}

/** The check verdict for one subject, with the reason and a sentence saying it. */
export function explainSubject(index: QuotaIndex, account: string, subject: string, usage: LeafUsage): SubjectExplanation {
  const canonical = canonicalSubject(subject);
  if (canonical === 'none' || canonical === 'size:assets:wiki') {
    return { subject, allowed: true, headroom: Infinity, reason: { kind: 'untracked' }, sentence: `${subject} is not tracked, so it is always within quota` };
  }
  const groups = index.groupListOf(account);
  let best: { resolved: ResolvedGroup; binding: RuleVerdict; headroom: number } | undefined;
  const failing: Array<{ group: string; rule: RuleVerdict }> = [];
  const uncovered: string[] = [];
  for (const resolved of groups) {
    const applicable = canonical ? resolved.rules.filter((rule) => ruleAppliesTo(rule, canonical)).map((rule) => evaluateRule(rule, usage)) : [];
    if (applicable.length === 0) {
      uncovered.push(resolved.group.name);
      continue;
    }
    const failed = applicable.find((rule) => !rule.stands);
    if (failed) {
      failing.push({ group: resolved.group.name, rule: failed });
      continue;
    }
    const binding = applicable.reduce((least, rule) => (headroomOf(rule) < headroomOf(least) ? rule : least));
    if (!best || headroomOf(binding) > best.headroom) best = { resolved, binding, headroom: headroomOf(binding) };
  }
  if (best) {
    const group = best.resolved.group.name;
    const room = best.headroom === Infinity ? 'no limit' : `${formatSize(best.headroom)} left`;
    return {
      subject,
      allowed: true,
      headroom: best.headroom,
      reason: { kind: 'allowed', group, binding: best.binding, headroom: best.headroom },
      sentence: `${groupLabel(group)} allows ${subject}: rule ${best.binding.name} ${formatSize(best.binding.used)} of ${formatSize(best.binding.limit)}, ${room}`,
    };
  }
  if (failing.length === 0) {
    return {
      subject,
      allowed: false,
      headroom: 0,
      reason: { kind: 'uncovered', groups: uncovered },
      sentence: `no rule of ${groupsPhrase(uncovered)} covers ${subject}, so Forgejo refuses it`,
    };
  }
  const parts = failing.map(({ group, rule }) => `rule ${rule.name} of ${groupLabel(group)} fails (${formatSize(rule.used)} of ${formatSize(rule.limit)})`);
  if (uncovered.length) parts.push(`no rule of ${groupsPhrase(uncovered)} covers it`);
  return {
    subject,
    allowed: false,
    headroom: 0,
    reason: { kind: 'fails', failing, uncovered },
    sentence: `${parts.join('; ')}, so Forgejo refuses ${subject}`,
  };
}

/** Explanations for every subject the report checked for one account, in the report's order. */
export function explainAccount(analysis: QuotaAnalysis, account: AccountReport, live?: ReportOptions['live']): SubjectExplanation[] {
  const index = new QuotaIndex(analysis.model);
  const usage = live?.account === account.name ? live.usage : analysis.usage.get(account.name) ?? zeroUsage();
  return Object.keys(account.checks).map((subject) => explainSubject(index, account.name, subject, usage));
}
