/**
 * What the quota dashboard shows, computed from an account's groups and usage. Pure (no `vscode`)
 * so the same figures can be checked against the API's answer in tests.
 */
import type { QuotaInfo } from '../../shared/api/types';
import { DEFAULT_FORGEJO_PROFILE, rulesLabel, type ForgejoProfile } from '../../shared/quota/forgejoVersion';
import { evaluateRule, QuotaIndex, type RuleVerdict } from '../../shared/quota/evaluate';
import type { LeafUsage, QuotaModel } from '../../shared/quota/model';
import { leafUsageFromQuotaUsed } from '../../shared/quota/quotaInfo';
import { explainSubject, type SubjectExplanation } from '../../shared/quota/report';
import { CANONICAL_SUBJECTS, SUBJECT_DESCRIPTIONS, type Subject } from '../../shared/quota/subjects';
import { UNLIMITED } from '../../shared/quota/sizes';
import { usageOf } from '../../shared/quota/usage';

export interface DashboardSubject {
  subject: Subject;
  description: string;
  /** Bytes of this subject in use. */
  used: number;
  allowed: boolean;
  /** The rule whose limit binds the subject (least room in the group with the most room), if any. */
  binding?: { rule: string; group: string; used: number; limit: number | bigint };
  /** Share of the binding limit in use, 0–100+ (undefined when unlimited or no rule binds). */
  percent?: number;
  /** Bytes the account could still add before a rule fails; null when unlimited. */
  headroom: number | null;
  explanation: string;
}

interface DashboardRule extends RuleVerdict {
  subjects: string[];
}

interface DashboardGroup {
  name: string;
  stands: boolean;
  /** Failing rules first. */
  rules: DashboardRule[];
}

export interface DashboardListItem {
  name: string;
  size: number;
  detail: string;
  url?: string;
}

export interface DashboardModel {
  account: string;
  /** The Forgejo rules the verdicts follow, e.g. "Forgejo 11.0 rules". */
  rules: string;
  /** Where the figures come from: the server (self or an account an admin picked) or a quota file's preview. */
  origin: { kind: 'self' | 'admin'; server: string } | { kind: 'file'; file: string };
  within: boolean;
  /** True when the server lists no group for the account: its built-in default limit decides, which the API does not show. */
  noGroups: boolean;
  subjects: DashboardSubject[];
  /** Failing groups first. */
  groups: DashboardGroup[];
  /** Only for the signed-in account: the API lists these for `/user` only. */
  lists?: { attachments: DashboardListItem[]; packages: DashboardListItem[]; artifacts: DashboardListItem[] };
  /** Only for the signed-in account: its largest repositories, largest first, and how many it owns in all. */
  repositories?: { items: DashboardListItem[]; total: number };
}

/** Forgejo reports a repository's size (git plus LFS) in KiB. */
const REPOSITORY_SIZE_UNIT = 1024;

/** A repository as a dashboard row: its size in bytes, and its page on the server. */
export function repositoryListItem(repo: { full_name: string; size: number; private?: boolean; html_url?: string }): DashboardListItem {
  return { name: repo.full_name, size: repo.size * REPOSITORY_SIZE_UNIT, detail: repo.private ? 'private' : 'public', url: repo.html_url };
}

/** Subjects shown: everything measurable (`none` measures nothing). */
const SHOWN_SUBJECTS = CANONICAL_SUBJECTS.filter((subject) => subject !== 'none');

/**
 * The API's answer as an engine model: group and rule names are hidden in user views, so they
 * are numbered (group #1, rule #1.2) the way the dashboard shows them.
 */
export function modelFromQuotaInfo(account: string, quota: QuotaInfo): QuotaModel {
  const rules: QuotaModel['rules'] = [];
  const groups: QuotaModel['groups'] = [];
  quota.groups.forEach((group, g) => {
    const groupName = group.name ?? `#${g + 1}`;
    const ruleNames: string[] = [];
    group.rules.forEach((rule, r) => {
      // A rule shared by two groups appears in both answers; numbering keeps them apart harmlessly.
      const name = rule.name ?? `#${g + 1}.${r + 1}`;
      if (!rules.some((known) => known.name === name)) rules.push({ name, limit: rule.limit, subjects: rule.subjects ?? [] });
      ruleNames.push(name);
    });
    groups.push({ name: groupName, rules: ruleNames });
  });
  // The account's groups are listed explicitly, so the built-in group is never used here.
  return { enabled: true, defaultGroups: [], defaultTotal: UNLIMITED, rules, groups, assignments: { [account]: groups.map((group) => group.name) } };
}

export function dashboardFromQuotaInfo(account: string, quota: QuotaInfo, origin: DashboardModel['origin'], profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): DashboardModel {
  const model = dashboardFromModel(account, modelFromQuotaInfo(account, quota), leafUsageFromQuotaUsed(quota.used), origin, profile);
  if (quota.groups.length > 0) return model;
  const explanation = `the server lists no quota group for ${account}, so its default total limit decides (the API does not show it)`;
  return {
    ...model,
    noGroups: true,
    within: true,
    groups: [],
    subjects: model.subjects.map((subject) => ({ ...subject, allowed: true, binding: undefined, percent: undefined, headroom: null, explanation })),
  };
}

export function dashboardFromModel(account: string, model: QuotaModel, usage: LeafUsage, origin: DashboardModel['origin'], profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): DashboardModel {
  const index = new QuotaIndex(model, profile);
  const resolved = index.groupListOf(account);
  const groups: DashboardGroup[] = resolved.map(({ group, rules }) => {
    const verdicts = rules.map((rule): DashboardRule => ({ ...evaluateRule(rule, usage, profile), subjects: rule.subjects }));
    return { name: group.name, stands: verdicts.every((rule) => rule.stands), rules: failingFirst(verdicts) };
  });
  const subjects = SHOWN_SUBJECTS.map((subject) => subjectRow(subject, explainSubject(index, account, subject, usage), usage, profile));
  return { account, rules: rulesLabel(profile), origin, within: groups.some((group) => group.stands), noGroups: false, subjects, groups: failingFirst(groups) };
}

function subjectRow(subject: Subject, explained: SubjectExplanation, usage: LeafUsage, profile: ForgejoProfile): DashboardSubject {
  const row: DashboardSubject = {
    subject,
    description: SUBJECT_DESCRIPTIONS[subject],
    used: usageOf(subject, usage, profile),
    allowed: explained.allowed,
    headroom: explained.headroom === Infinity ? null : explained.headroom,
    explanation: explained.sentence,
  };
  const reason = explained.reason;
  const binding = reason.kind === 'allowed' ? { group: reason.group, rule: reason.binding } : reason.kind === 'fails' ? reason.failing[0] : undefined;
  if (binding) {
    row.binding = { rule: binding.rule.name, group: binding.group, used: binding.rule.used, limit: binding.rule.limit };
    const limit = Number(binding.rule.limit);
    if (limit !== UNLIMITED) {
      row.percent = limit > 0 ? Math.round((binding.rule.used / limit) * 1000) / 10 : 100;
    }
  }
  return row;
}

function failingFirst<T extends { stands: boolean }>(items: T[]): T[] {
  return [...items.filter((item) => !item.stands), ...items.filter((item) => item.stands)];
}

/** The short verdict of the status bar: ✓ within, or ✗ with the subjects of the first failing rule. */
export function accountVerdict(model: DashboardModel): { within: boolean; subject?: string } {
  if (model.within) return { within: true };
  const failing = model.groups.flatMap((group) => group.rules).find((rule) => !rule.stands);
  return { within: false, subject: failing?.subjects.join(', ') };
}
