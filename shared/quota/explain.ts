/**
 * One account, explained: what it uses of each subject, whether Forgejo lets it store more, the
 * rule and group that decide, the room left, and the reason in words, with what the Forgejo
 * version in force changes about the answer. Every view of an account renders this and nothing
 * else: the dashboard, the status bar and the Quota view, the usage report and Check Quota,
 * hovers and previews in quota files, and `quota-state evaluate`. Pure.
 *
 * The reasons go through `@vscode/l10n`: the editor's language where a bundle is configured
 * (the language server, the extension), English elsewhere (the CLI).
 */
import * as l10n from '@vscode/l10n';
import type { QuotaInfo } from '../api/types';
import { groupAnswer, limitStands, QuotaIndex, ruleUsedExact, type Bytes, type EngineRule, type EngineUsage, type GroupAnswer } from './evaluate';
import { DEFAULT_FORGEJO_PROFILE, rulesLabel, type EvaluationGeneration, type ForgejoProfile } from './forgejoVersion';
import type { QuotaModel } from './model';
import { leafUsageFromQuotaUsed, modelFromQuotaInfo } from './quotaInfo';
import { formatSize } from './sizes';
import { CANONICAL_SUBJECTS, canonicalSubject, type Subject } from './subjects';
import { exactBytes, narrowBytes, usageOfExact, zeroUsage } from './usage';

export interface RuleExplanation {
  name: string;
  /** As written (aliases kept). */
  subjects: string[];
  /** The sum over the rule's subjects, exact (a bigint beyond 2^53) and wrapped like Go's int64. */
  used: Bytes;
  /** Exact: a bigint beyond 2^53; -1 unlimited. */
  limit: Bytes;
  stands: boolean;
  /** Bytes left under the limit, 0 at or over it; null when the limit is -1. */
  headroom: Bytes | null;
}

export interface GroupExplanation {
  name: string;
  /** The built-in group of an account with no group: one `size:all` rule limited by `defaultTotal`. */
  builtin?: true;
  /** All its rules stand (an empty group stands). */
  stands: boolean;
  rules: RuleExplanation[];
}

/** A rule and the group in which it decides. */
interface Decider {
  group: string;
  builtin?: true;
  rule: RuleExplanation;
}

export interface SubjectExplanation {
  /** As asked (an alias stays an alias). */
  subject: string;
  /** Bytes of the subject in use, exact. */
  used: Bytes;
  /** The `/check` verdict: Forgejo lets the account store more of it. */
  allowed: boolean;
  /**
   * `allowed`: a group allows it; `fails`: every group refuses, at least one with a failing rule;
   * `uncovered`: no rule of any group covers it; `unlisted`: the API lists no group for the
   * account, so the server's default total decides, which it does not show (taken as allowed).
   */
  verdict: 'allowed' | 'fails' | 'uncovered' | 'unlisted';
  /**
   * The rule and group that decide. Allowed: the covering rule with the least room in the group
   * with the most room. Refused: the first failing rule. Absent when no rule covers the subject.
   */
  decidedBy?: Decider;
  /** Refused: every group's failing rule, in the account's group order. */
  failing: Decider[];
  /** Refused: the groups no rule of which covers the subject. */
  uncovered: string[];
  /** Bytes of the subject the account can still add under the deciding rule; 0 when refused; null when unlimited. */
  headroom: Bytes | null;
  /** Share of the deciding rule's limit in use, one decimal, 0–100 and beyond; absent when unlimited or nothing decides. */
  percent?: number;
  /** What the Forgejo version in force changes about this answer, one clause each; empty when nothing. */
  versionNotes: string[];
  /** The verdict in words, naming the deciding rule and group, with the version notes. */
  reason: string;
}

export interface AccountExplanation {
  account: string;
  /** The Forgejo version whose rules decide. */
  forgejo: { version: string; rules: string; generation: EvaluationGeneration };
  /** Where the account's group list comes from; `unlisted` when the API lists no group for it. */
  groupList: 'assigned' | 'default' | 'builtin' | 'unlisted';
  /** Within quota: some group stands. */
  within: boolean;
  /** Over quota: the first failing rule of the first group (every group fails). */
  failing?: Decider;
  /** The account's group list, in order. */
  groups: GroupExplanation[];
  /** One per subject asked, in the order asked. */
  subjects: SubjectExplanation[];
  /** The account's verdict in words. */
  reason: string;
}

/** An account as a quota file or the engine's model has it, or as the quota API answers for it. */
export type AccountSource = { model: QuotaModel; usage?: EngineUsage } | { quota: QuotaInfo };

export interface ExplainOptions {
  /** The Forgejo version whose rules decide; default the newest behaviour. */
  profile?: ForgejoProfile;
  /** Subjects to explain, any accepted spelling; default every canonical subject. */
  subjects?: readonly string[];
}

/** The account's verdict, per group, rule and subject, with the reasons in words. */
export function explainAccount(account: string, source: AccountSource, options: ExplainOptions = {}): AccountExplanation {
  const profile = options.profile ?? DEFAULT_FORGEJO_PROFILE;
  const subjects = options.subjects ?? CANONICAL_SUBJECTS;
  const forgejo = { version: profile.version, rules: rulesLabel(profile), generation: profile.generation };
  const usage = 'quota' in source ? leafUsageFromQuotaUsed(source.quota.used) : (source.usage ?? zeroUsage());
  if ('quota' in source && source.quota.groups.length === 0) return unlistedAccount(account, forgejo, usage, subjects, profile);
  const model = 'quota' in source ? modelFromQuotaInfo(account, source.quota) : source.model;
  const index = new QuotaIndex(model, profile);
  const resolved = index.groupListOf(account);
  // One explanation per rule object: a rule shared by two groups is the same rule in both.
  const rules = new Map<EngineRule, RuleExplanation>();
  const ruleOf = (rule: EngineRule & { name: string }) => rules.get(rule) ?? rules.set(rule, explainRule(rule, usage, profile)).get(rule)!;
  const groups = resolved.map(({ group, rules: groupRules, builtin }): GroupExplanation => {
    const explained = groupRules.map(ruleOf);
    return { name: group.name, ...(builtin ? { builtin } : {}), stands: explained.every((rule) => rule.stands), rules: explained };
  });
  const context: SubjectContext = { profile, usage, groups: resolved.map((entry, i) => ({ rules: entry.rules, explained: groups[i] })), ruleOf };
  const within = groups.some((group) => group.stands);
  // Over quota, every group fails: the first failing rule of the first one.
  const failing = within ? undefined : firstFailing(groups[0]);
  return {
    account,
    forgejo,
    groupList: index.groupListSource(account),
    within,
    ...(failing ? { failing } : {}),
    groups,
    subjects: subjects.map((subject) => explainSubject(context, subject)),
    reason: accountReason(account, groups),
  };
}

interface SubjectContext {
  profile: ForgejoProfile;
  usage: EngineUsage;
  groups: Array<{ rules: ReadonlyArray<EngineRule & { name: string }>; explained: GroupExplanation }>;
  ruleOf: (rule: EngineRule & { name: string }) => RuleExplanation;
}

function explainRule(rule: EngineRule & { name: string }, usage: EngineUsage, profile: ForgejoProfile): RuleExplanation {
  const used = ruleUsedExact(rule, usage, profile);
  const limit = exactBytes(rule.limit);
  const headroom = limit === -1n ? null : limit === undefined ? 0 : narrowBytes(limit > used ? limit - used : 0n);
  return { name: rule.name, subjects: [...rule.subjects], used: narrowBytes(used), limit: rule.limit, stands: limitStands(rule.limit, used, profile.generation), headroom };
}

function deciderOf(group: GroupExplanation, rule: RuleExplanation): Decider {
  return group.builtin ? { group: group.name, builtin: true, rule } : { group: group.name, rule };
}

/** A failing group's first failing rule (a group fails only when one of its rules does). */
function firstFailing(group: GroupExplanation): Decider {
  const rule = group.rules.find((candidate) => !candidate.stands)!;
  return deciderOf(group, rule);
}

/** Whether room `a` is less than room `b` (null: unlimited). */
function lessRoom(a: Bytes | null, b: Bytes | null): boolean {
  return a !== null && (b === null || BigInt(a) < BigInt(b));
}

function explainSubject(context: SubjectContext, subject: string): SubjectExplanation {
  const { profile, usage } = context;
  const canonical = canonicalSubject(subject);
  let best: Decider | undefined;
  const failing: Decider[] = [];
  const uncovered: GroupExplanation[] = [];
  const notes = new Set<string>();
  for (const { rules, explained } of context.groups) {
    const answer = canonical ? groupAnswer(rules, usage, canonical, profile) : undefined;
    if (canonical && answer) for (const note of versionNotes(profile, canonical, rules, answer, usage)) notes.add(note);
    if (!answer?.matches) {
      uncovered.push(explained);
      continue;
    }
    const consulted = answer.consulted.map(context.ruleOf);
    if (!answer.allows) {
      failing.push(deciderOf(explained, consulted.find((rule) => !rule.stands) ?? consulted[0]));
      continue;
    }
    const binding = consulted.reduce((least, rule) => (lessRoom(rule.headroom, least.headroom) ? rule : least));
    if (!best || lessRoom(best.rule.headroom, binding.headroom)) best = deciderOf(explained, binding);
  }
  const versionNotesList = [...notes];
  const base = { subject, used: narrowBytes(canonical ? usageOfExact(canonical, usage, profile) : 0n), failing, uncovered: uncovered.map((group) => group.name), versionNotes: versionNotesList };
  const untracked = canonical === 'none' || canonical === 'size:assets:wiki';
  if (best) {
    const room = best.rule.headroom === null ? l10n.t('no limit') : l10n.t('{0} left', formatSize(best.rule.headroom));
    const sentence = l10n.t('{0} allows {1}: rule {2} {3} of {4}, {5}', groupLabel(best), subject, best.rule.name, formatSize(best.rule.used), formatSize(best.rule.limit), room);
    return { ...base, allowed: true, verdict: 'allowed', decidedBy: best, headroom: best.rule.headroom, ...percentOf(best.rule), reason: withNotes(sentence, versionNotesList, profile) };
  }
  if (failing.length === 0) {
    const sentence = untrackedPrefix(untracked, subject, l10n.t('no rule of {0} covers {1}, so Forgejo refuses it', groupsPhrase(uncovered), subject));
    return { ...base, allowed: false, verdict: 'uncovered', headroom: 0, reason: withNotes(sentence, versionNotesList, profile) };
  }
  const parts = failing.map(failingClause);
  if (uncovered.length) parts.push(l10n.t('no rule of {0} covers it', groupsPhrase(uncovered)));
  const sentence = untrackedPrefix(untracked, subject, l10n.t('{0}, so Forgejo refuses {1}', parts.join('; '), subject));
  return { ...base, allowed: false, verdict: 'fails', decidedBy: failing[0], headroom: 0, ...percentOf(failing[0].rule), reason: withNotes(sentence, versionNotesList, profile) };
}

/** The share of a limit in use: absent when unlimited; 100 for a limit of 0 (or none valid). */
function percentOf(rule: RuleExplanation): { percent?: number } {
  const limit = Number(rule.limit);
  if (limit === -1) return {};
  return { percent: limit > 0 ? Math.round((Number(rule.used) / limit) * 1000) / 10 : 100 };
}

function untrackedPrefix(untracked: boolean, subject: string, sentence: string): string {
  return untracked ? l10n.t('{0} is not measured (always 0 bytes), but Forgejo still asks the rules covering it; {1}', subject, sentence) : sentence;
}

function withNotes(sentence: string, notes: readonly string[], profile: ForgejoProfile): string {
  return notes.length ? l10n.t('{0} ({1}: {2})', sentence, profile.label, notes.join('; ')) : sentence;
}

function groupLabel(group: { group: string; builtin?: true } | GroupExplanation): string {
  const name = 'group' in group ? group.group : group.name;
  return group.builtin ? l10n.t('the built-in default group') : l10n.t('group {0}', name);
}

function groupsPhrase(groups: readonly GroupExplanation[]): string {
  const labels = groups.map(groupLabel);
  if (labels.length <= 1) return labels[0] ?? l10n.t('any group');
  return l10n.t('{0} or {1}', labels.slice(0, -1).join(', '), labels[labels.length - 1]);
}

function failingClause({ rule, ...group }: Decider): string {
  return l10n.t('rule {0} of {1} fails ({2} of {3})', rule.name, groupLabel(group), formatSize(rule.used), formatSize(rule.limit));
}

function accountReason(account: string, groups: readonly GroupExplanation[]): string {
  const standing = groups.find((group) => group.stands);
  if (standing) return l10n.t('{0} is within quota: {1} stands', account, groupLabel(standing));
  const clauses = groups.map((group) =>
    failingClause(
      deciderOf(
        group,
        group.rules.find((rule) => !rule.stands)!,
      ),
    ),
  );
  return l10n.t('{0} is over quota: {1}', account, clauses.join('; '));
}

/** An account for which the API lists no group: the server's default total decides, and the API does not show it. */
function unlistedAccount(account: string, forgejo: AccountExplanation['forgejo'], usage: EngineUsage, subjects: readonly string[], profile: ForgejoProfile): AccountExplanation {
  const reason = l10n.t('the server lists no quota group for {0}, so its default total limit decides (the API does not show it)', account);
  const explained = subjects.map((subject): SubjectExplanation => {
    const canonical = canonicalSubject(subject);
    const used = narrowBytes(canonical ? usageOfExact(canonical, usage, profile) : 0n);
    return { subject, used, allowed: true, verdict: 'unlisted', failing: [], uncovered: [], headroom: null, versionNotes: [], reason };
  });
  return { account, forgejo, groupList: 'unlisted', within: true, groups: [], subjects: explained, reason };
}

// ---------------------------------------------------------------------------------------------
// What the Forgejo version changes about an answer (reference/forgejo-versions.md §1.2). Said only
// where the version in force answers differently from the other side of 13.0, or checks an upload
// against another account than the newest Forgejo does.

function versionNotes(profile: ForgejoProfile, subject: Subject, rules: readonly EngineRule[], answer: GroupAnswer, usage: EngineUsage): string[] {
  const notes = uploadTargetNotes(profile, subject);
  const atLimit = answer.consulted.some((rule) => exactBytes(rule.limit) !== -1n && ruleUsedExact(rule, usage, profile) === exactBytes(rule.limit));
  const unlimited = (rule: EngineRule) => exactBytes(rule.limit) === -1n;
  if (profile.generation === 2) {
    // Forgejo 13.0 (PR #9033): strict `<`, and a -1 rule covers only its own subjects and those below them.
    if (atLimit) notes.push(l10n.t('from 13.0 usage equal to the limit is over it'));
    if (!answer.matches && rules.some(unlimited)) notes.push(l10n.t('from 13.0 a rule with limit -1 covers only its own subjects'));
    return notes;
  }
  if (answer.consulted.some((rule) => unlimited(rule) && !rule.subjects.some((s) => canonicalSubject(s) === subject))) {
    notes.push(l10n.t('on Forgejo before 13.0 a rule with limit -1 covers every subject'));
  }
  if (answer.answeredFrom?.length) notes.push(l10n.t('on Forgejo before 13.0 a subject no rule names is answered from its children ({0})', answer.answeredFrom.join(', ')));
  if (atLimit) notes.push(l10n.t('on Forgejo before 13.0 usage equal to the limit is still within it'));
  return notes;
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
