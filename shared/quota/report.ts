/**
 * The evaluation report: exactly the JSON of `quota-state evaluate --format json`
 * (what `quota-state evaluate --format json` prints), also returned by the language server's preview request.
 */
import * as l10n from '@vscode/l10n';
import type { QuotaAnalysis } from './config';
import { BUILTIN_GROUP_NAME, evaluateAccount, evaluateRule, groupAnswer, QuotaIndex, ruleUsedExact, type AccountVerdict, type GroupAnswer, type ResolvedGroup, type RuleVerdict } from './evaluate';
import { resolveForgejoProfile, rulesLabel, type EvaluationGeneration, type ForgejoProfile, type ForgejoVersionSource, type ResolvedForgejoProfile } from './forgejoVersion';
import type { LeafUsage, QuotaRule } from './model';
import { formatSize, UNLIMITED } from './sizes';
import { canonicalSubject, type Subject } from './subjects';
import { exactBytes, zeroUsage } from './usage';

export interface AccountReport extends AccountVerdict {
  /** Present on the signed-in user's account when its usage came live from a quota API. */
  live?: { server: string };
}

export interface EvaluationReport {
  /** The Forgejo version whose rules decided, and where it came from. */
  forgejo: { version: string; rules: string; generation: EvaluationGeneration; source: ForgejoVersionSource };
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

export function buildEvaluationReport(analysis: QuotaAnalysis, options: ReportOptions = {}): EvaluationReport {
  const forgejo = options.forgejo ?? fileForgejoProfile(analysis);
  const index = new QuotaIndex(analysis.model, forgejo.profile);
  const subjects = options.subject !== undefined ? [options.subject] : undefined;
  const names = options.account !== undefined ? [options.account] : reportAccounts(analysis, options.live);
  const accounts = names.map((name): AccountReport => {
    const isLive = options.live?.account === name;
    const usage = isLive ? options.live!.usage : (analysis.usage.get(name) ?? zeroUsage());
    const verdict = evaluateAccount(index, name, usage, subjects);
    return isLive ? { ...verdict, live: { server: options.live!.server } } : verdict;
  });
  const header = { version: forgejo.profile.version, rules: rulesLabel(forgejo.profile), generation: forgejo.profile.generation, source: forgejo.source };
  return analysis.model.enabled ? { forgejo: header, accounts } : { forgejo: header, enabled: false, accounts };
}

// ---------------------------------------------------------------------------------------------
// Verdicts in words: one sentence per subject, shared by the CLI, hovers, the dashboard and the
// check command, so a refusal never looks like a contradiction ("over quota" at 0 B used).

/** Why a subject is allowed or refused for an account (group names as in the model). */
type SubjectReason =
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
  return name === BUILTIN_GROUP_NAME ? l10n.t('the built-in default group') : l10n.t('group {0}', name);
}

function groupsPhrase(names: string[]): string {
  const labels = names.map(groupLabel);
  if (labels.length <= 1) return labels[0] ?? l10n.t('any group');
  return l10n.t('{0} or {1}', labels.slice(0, -1).join(', '), labels[labels.length - 1]);
}

/** A Forgejo version's notes on a verdict: "Forgejo 11.0: a; b". */
function profileNotes(profile: ForgejoProfile, notes: string[]): string | undefined {
  return notes.length ? l10n.t('{0}: {1}', profile.label, notes.join('; ')) : undefined;
}

function headroomOf(rule: RuleVerdict): number {
  const limit = Number(rule.limit);
  return limit === UNLIMITED ? Infinity : Math.max(0, limit - rule.used);
}

/**
 * What the generation of the index's Forgejo version adds to an explanation, where the answer
 * depends on it: the reader of a Gen-1 verdict must not take it for the newest behaviour.
 */
function generationNote(index: QuotaIndex, subject: Subject, answer: GroupAnswer<QuotaRule>, usage: LeafUsage): string | undefined {
  const { consulted, answeredFrom } = answer;
  const profile = index.profile;
  const notes = uploadTargetNotes(profile, subject);
  if (profile.generation !== 1) return profileNotes(profile, notes);
  const unlimitedElsewhere = consulted.some((rule) => exactBytes(rule.limit) === -1n && !rule.subjects.some((s) => canonicalSubject(s) === subject));
  if (unlimitedElsewhere) notes.push(l10n.t('on Forgejo before 13.0 a rule with limit -1 covers every subject'));
  if (answeredFrom?.length) notes.push(l10n.t('on Forgejo before 13.0 a subject no rule names is answered from its children ({0})', answeredFrom.join(', ')));
  if (consulted.some((rule) => exactBytes(rule.limit) !== -1n && ruleUsedExact(rule, usage, profile) === exactBytes(rule.limit))) {
    notes.push(l10n.t('on Forgejo before 13.0 usage equal to the limit is still within it'));
  }
  return profileNotes(profile, notes);
}

/**
 * Whose quota an upload is checked against changed at 14.0.4 (packages) and 15.0.3 (LFS): the
 * usage sums stay the same, but the account a verdict is about may not be the one Forgejo asks.
 */
function uploadTargetNotes(profile: ForgejoProfile, subject: Subject): string[] {
  if (subject === 'size:assets:packages:all' && profile.packageUploadChargedTo === 'uploader') {
    return [l10n.t("before 14.0.4 Forgejo checks a package upload against the uploader's quota, not the package owner's")];
  }
  if (subject === 'size:git:lfs' && profile.lfsUploadChargedTo === 'pusher') {
    return [l10n.t("before 15.0.3 Forgejo checks an LFS upload against the pusher's quota, not the repository owner's")];
  }
  return [];
}

/** The check verdict for one subject, with the reason and a sentence saying it, in the index's Forgejo generation. */
export function explainSubject(index: QuotaIndex, account: string, subject: string, usage: LeafUsage): SubjectExplanation {
  const canonical = canonicalSubject(subject);
  const groups = index.groupListOf(account);
  let best: { resolved: ResolvedGroup; binding: RuleVerdict; headroom: number } | undefined;
  const failing: Array<{ group: string; rule: RuleVerdict }> = [];
  const uncovered: string[] = [];
  const notes = new Set<string>();
  for (const resolved of groups) {
    const answer = canonical ? groupAnswer(resolved.rules, usage, canonical, index.profile) : undefined;
    if (!answer || !answer.matches) {
      uncovered.push(resolved.group.name);
      continue;
    }
    const note = generationNote(index, canonical!, answer, usage);
    if (note) notes.add(note);
    const consulted = answer.consulted.map((rule) => evaluateRule(rule, usage, index.profile));
    if (!answer.allows) {
      failing.push({ group: resolved.group.name, rule: consulted.find((rule) => !rule.stands) ?? consulted[0] });
      continue;
    }
    const binding = consulted.reduce((least, rule) => (headroomOf(rule) < headroomOf(least) ? rule : least));
    if (!best || headroomOf(binding) > best.headroom) best = { resolved, binding, headroom: headroomOf(binding) };
  }
  /** The sentence, with the version's notes after it in parentheses. */
  const noted = (sentence: string) => (notes.size ? l10n.t('{0} ({1})', sentence, [...notes].join('; ')) : sentence);
  /** A refusal; for a subject Forgejo does not measure, said first. */
  const refusal = (sentence: string) =>
    canonical === 'none' || canonical === 'size:assets:wiki' ? l10n.t('{0} is not measured (always 0 bytes), but Forgejo still asks the rules covering it; {1}', subject, sentence) : sentence;
  if (best) {
    const group = best.resolved.group.name;
    const { name, used, limit } = best.binding;
    return {
      subject,
      allowed: true,
      headroom: best.headroom,
      reason: { kind: 'allowed', group, binding: best.binding, headroom: best.headroom },
      sentence: noted(
        best.headroom === Infinity
          ? l10n.t('{0} allows {1}: rule {2} {3} of {4}, no limit', groupLabel(group), subject, name, formatSize(used), formatSize(limit))
          : l10n.t('{0} allows {1}: rule {2} {3} of {4}, {5} left', groupLabel(group), subject, name, formatSize(used), formatSize(limit), formatSize(best.headroom)),
      ),
    };
  }
  if (failing.length === 0) {
    return {
      subject,
      allowed: false,
      headroom: 0,
      reason: { kind: 'uncovered', groups: uncovered },
      sentence: noted(refusal(l10n.t('no rule of {0} covers {1}, so Forgejo refuses it', groupsPhrase(uncovered), subject))),
    };
  }
  const parts = failing.map(({ group, rule }) => l10n.t('rule {0} of {1} fails ({2} of {3})', rule.name, groupLabel(group), formatSize(rule.used), formatSize(rule.limit)));
  if (uncovered.length) parts.push(l10n.t('no rule of {0} covers it', groupsPhrase(uncovered)));
  return {
    subject,
    allowed: false,
    headroom: 0,
    reason: { kind: 'fails', failing, uncovered },
    sentence: noted(refusal(l10n.t('{0}, so Forgejo refuses {1}', parts.join('; '), subject))),
  };
}

/** Explanations for every subject the report checked for one account, in the report's order. */
export function explainAccount(analysis: QuotaAnalysis, account: AccountReport, live?: ReportOptions['live'], forgejo: ResolvedForgejoProfile = fileForgejoProfile(analysis)): SubjectExplanation[] {
  const index = new QuotaIndex(analysis.model, forgejo.profile);
  const usage = live?.account === account.name ? live.usage : (analysis.usage.get(account.name) ?? zeroUsage());
  return Object.keys(account.checks).map((subject) => explainSubject(index, account.name, subject, usage));
}
