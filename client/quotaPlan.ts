/**
 * Push and pull between a quota file and a server, as pure functions (no vscode, no network):
 * the plan of changes that makes the server match the file, and the file edit that brings the
 * server's rules and groups into a file.
 */
import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser';
import type { Bytes, QuotaGroupList, QuotaRuleInfo } from '../shared/api/types';
import { type QuotaModel, formatSize, formatSizeExact, exactBytes } from '../shared/quota/vocabulary';

export type PlanStep =
  | { action: 'create-rule'; rule: { name: string; limit: Bytes; subjects: string[] } }
  | { action: 'update-rule'; rule: { name: string; limit: Bytes; subjects: string[] }; before: QuotaRuleInfo }
  | { action: 'create-group'; group: string }
  | { action: 'add-rule-to-group'; group: string; rule: string }
  | { action: 'remove-rule-from-group'; group: string; rule: string }
  | { action: 'set-user-groups'; user: string; groups: string[]; before: string[] }
  | { action: 'delete-group'; group: string }
  | { action: 'delete-rule'; rule: string };

export interface ServerQuotaState {
  rules: QuotaRuleInfo[];
  groups: QuotaGroupList;
  /** The groups that currently apply to each account the file assigns (from GET /admin/users/{u}/quota). */
  accountGroups: Record<string, string[]>;
}

const ORDER: Record<PlanStep['action'], number> = {
  'create-rule': 0,
  'update-rule': 1,
  'create-group': 2,
  'add-rule-to-group': 3,
  'remove-rule-from-group': 4,
  'set-user-groups': 5,
  'delete-group': 6,
  'delete-rule': 7,
};

function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sortedA = [...a].sort();
  const sortedB = [...b].sort();
  return sortedA.every((value, index) => value === sortedB[index]);
}

/**
 * Steps that make the server's rules, groups, group rules and the file's assignments equal to
 * the file. Rules first (groups need them), deletions last; a rule about to be deleted is not
 * detached first (deleting detaches it), and a group about to be deleted is not edited.
 */
export function planPush(file: QuotaModel, server: ServerQuotaState): PlanStep[] {
  const steps: PlanStep[] = [];
  const serverRules = new Map(server.rules.filter((r) => r.name !== undefined).map((r) => [r.name!, r]));
  const fileRules = new Map(file.rules.map((r) => [r.name, r]));
  for (const rule of fileRules.values()) {
    const existing = serverRules.get(rule.name);
    const wanted = { name: rule.name, limit: rule.limit, subjects: [...rule.subjects] };
    if (!existing) steps.push({ action: 'create-rule', rule: wanted });
    else if (exactBytes(existing.limit) !== exactBytes(rule.limit) || !sameMultiset(existing.subjects ?? [], rule.subjects)) {
      steps.push({ action: 'update-rule', rule: wanted, before: existing });
    }
  }
  for (const name of serverRules.keys()) if (!fileRules.has(name)) steps.push({ action: 'delete-rule', rule: name });

  const serverGroups = new Map(server.groups.filter((g) => g.name !== undefined).map((g) => [g.name!, g]));
  const fileGroups = new Map(file.groups.map((g) => [g.name, g]));
  for (const group of fileGroups.values()) {
    const existing = serverGroups.get(group.name);
    if (!existing) steps.push({ action: 'create-group', group: group.name });
    const has = new Set((existing?.rules ?? []).map((r) => r.name ?? ''));
    const wants = new Set(group.rules);
    for (const rule of wants) if (!has.has(rule)) steps.push({ action: 'add-rule-to-group', group: group.name, rule });
    for (const rule of has) {
      if (!wants.has(rule) && fileRules.has(rule)) steps.push({ action: 'remove-rule-from-group', group: group.name, rule });
    }
  }
  for (const name of serverGroups.keys()) if (!fileGroups.has(name)) steps.push({ action: 'delete-group', group: name });

  for (const [user, groups] of Object.entries(file.assignments)) {
    const before = server.accountGroups[user] ?? [];
    if (!sameMultiset(before, groups)) steps.push({ action: 'set-user-groups', user, groups: [...groups], before });
  }
  return steps.sort((a, b) => ORDER[a.action] - ORDER[b.action]);
}

function subjectsText(subjects: readonly string[]): string {
  return subjects.length ? subjects.join(', ') : 'no subjects';
}

export function describeStep(step: PlanStep): string {
  switch (step.action) {
    case 'create-rule':
      return `create rule "${step.rule.name}": ${formatSize(step.rule.limit)} on ${subjectsText(step.rule.subjects)}`;
    case 'update-rule': {
      const changes: string[] = [];
      if (step.before.limit !== step.rule.limit) changes.push(`limit ${formatSize(step.before.limit)} → ${formatSize(step.rule.limit)}`);
      if (!sameMultiset(step.before.subjects ?? [], step.rule.subjects)) {
        changes.push(`subjects ${subjectsText(step.before.subjects ?? [])} → ${subjectsText(step.rule.subjects)}`);
      }
      return `update rule "${step.rule.name}": ${changes.join('; ')}`;
    }
    case 'create-group':
      return `create group "${step.group}"`;
    case 'add-rule-to-group':
      return `add rule "${step.rule}" to group "${step.group}"`;
    case 'remove-rule-from-group':
      return `remove rule "${step.rule}" from group "${step.group}"`;
    case 'set-user-groups':
      return `set the groups of "${step.user}": ${step.before.join(', ') || 'none'} → ${step.groups.join(', ') || 'none'}`;
    case 'delete-group':
      return `delete group "${step.group}" (not in the file)`;
    case 'delete-rule':
      return `delete rule "${step.rule}" (not in the file)`;
  }
}

/** What a push cannot change through the API (server configuration, not data). */
export function unpushableSettings(file: QuotaModel): string[] {
  const notes: string[] = [];
  notes.push(`"enabled" (${file.enabled}), "defaultGroups" and "defaultTotal" are the server's configuration ([quota] in app.ini) and are not pushed.`);
  return notes;
}

const FORMATTING: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

/**
 * The file text with its `rules` and `groups` replaced by the server's (limits written as exact
 * sizes such as "1 GiB"); comments and every other property are kept.
 */
export function pullIntoText(text: string, rules: QuotaRuleInfo[], groups: QuotaGroupList): string {
  const fileRules = rules.filter((rule) => rule.name !== undefined).map((rule) => ({ name: rule.name!, limit: formatSizeExact(rule.limit), subjects: rule.subjects ?? [] }));
  const fileGroups = groups
    .filter((group) => group.name !== undefined)
    .map((group) => ({ name: group.name!, rules: group.rules.map((rule) => rule.name).filter((name): name is string => name !== undefined) }));
  const base = text.trim() === '' ? '{}' : text;
  let result = base;
  result = applyEdits(result, modify(result, ['rules'], fileRules, { formattingOptions: FORMATTING }));
  result = applyEdits(result, modify(result, ['groups'], fileGroups, { formattingOptions: FORMATTING }));
  return result;
}
