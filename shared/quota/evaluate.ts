/**
 * The quota engine: pure functions over a QuotaModel and leaf usage, deciding as Forgejo does.
 *
 * - A rule stands when its limit is -1, or the summed usage of its subjects is strictly
 *   below the limit (limit 0 never stands; other negative limits never stand).
 * - A group stands when all its rules stand; a group list when any group stands.
 * - An account's group list: its assigned groups; if none, the default groups that exist;
 *   if none, a built-in group `{limit: defaultTotal, subjects: [size:all]}`.
 * - A check for subject S: a rule applies when S or an ancestor of S is among its subjects;
 *   a group allows S when some rule applies and every applicable rule stands.
 */
import type { LeafUsage, QuotaGroup, QuotaModel, QuotaRule } from './model';
import { CANONICAL_SUBJECTS, canonicalSubject, subjectAncestors, type Subject } from './subjects';
import { UNLIMITED } from './sizes';
import { usageOf } from './usage';

/** Name of the built-in group (and its rule) used when an account has no group, as the JSON report shows it. */
export const BUILTIN_GROUP_NAME = '(default)';

export interface RuleVerdict {
  name: string;
  used: number;
  limit: number;
  stands: boolean;
}

export interface GroupVerdict {
  name: string;
  builtin?: true;
  stands: boolean;
  rules: RuleVerdict[];
}

export interface AccountVerdict {
  name: string;
  groups: GroupVerdict[];
  stands: boolean;
  checks: Record<string, boolean>;
}

export function ruleUsed(rule: QuotaRule, usage: LeafUsage): number {
  let used = 0;
  for (const subject of rule.subjects) used += usageOf(subject, usage);
  return used;
}

export function limitStands(limit: number, used: number): boolean {
  if (limit === UNLIMITED) return true;
  return limit >= 0 && used < limit;
}

export function evaluateRule(rule: QuotaRule, usage: LeafUsage): RuleVerdict {
  const used = ruleUsed(rule, usage);
  return { name: rule.name, used, limit: rule.limit, stands: limitStands(rule.limit, used) };
}

/** Indexes a model's rules and groups by name; the first definition of a name wins. */
export class QuotaIndex {
  readonly rules = new Map<string, QuotaRule>();
  readonly groups = new Map<string, QuotaGroup>();

  constructor(readonly model: QuotaModel) {
    for (const rule of model.rules) if (!this.rules.has(rule.name)) this.rules.set(rule.name, rule);
    for (const group of model.groups) if (!this.groups.has(group.name)) this.groups.set(group.name, group);
  }

  rulesOf(group: QuotaGroup): QuotaRule[] {
    const result: QuotaRule[] = [];
    for (const name of group.rules) {
      const rule = this.rules.get(name);
      if (rule) result.push(rule);
    }
    return result;
  }

  builtinGroup(): QuotaGroup & { builtin: true; ruleObjects: QuotaRule[] } {
    return {
      name: BUILTIN_GROUP_NAME,
      builtin: true,
      rules: [BUILTIN_GROUP_NAME],
      ruleObjects: [{ name: BUILTIN_GROUP_NAME, limit: this.model.defaultTotal, subjects: ['size:all'] }],
    };
  }

  /** The groups that stand for `account` (assigned, else the existing defaults, else the built-in), with their rules resolved. */
  groupListOf(account: string): ResolvedGroup[] {
    const assigned = (Object.prototype.hasOwnProperty.call(this.model.assignments, account)
      ? this.model.assignments[account]
      : []
    )
      .map((name) => this.groups.get(name))
      .filter((g): g is QuotaGroup => g !== undefined);
    const chosen = assigned.length > 0
      ? assigned
      : this.model.defaultGroups.map((name) => this.groups.get(name)).filter((g): g is QuotaGroup => g !== undefined);
    if (chosen.length > 0) return dedupe(chosen).map((group) => ({ group, rules: this.rulesOf(group) }));
    const builtin = this.builtinGroup();
    return [{ group: builtin, rules: builtin.ruleObjects, builtin: true }];
  }

  /** Where an account's group list comes from, for hovers and previews. */
  groupListSource(account: string): 'assigned' | 'default' | 'builtin' {
    const list = this.groupListOf(account);
    if (list[0]?.builtin) return 'builtin';
    const assigned = this.model.assignments[account] ?? [];
    return assigned.some((name) => this.groups.has(name)) ? 'assigned' : 'default';
  }
}

export interface ResolvedGroup {
  group: QuotaGroup;
  rules: QuotaRule[];
  builtin?: true;
}

function dedupe(groups: QuotaGroup[]): QuotaGroup[] {
  return [...new Set(groups)];
}

export function evaluateGroup(resolved: ResolvedGroup, usage: LeafUsage): GroupVerdict {
  const rules = resolved.rules.map((rule) => evaluateRule(rule, usage));
  const verdict: GroupVerdict = { name: resolved.group.name, stands: rules.every((r) => r.stands), rules };
  return resolved.builtin ? { name: verdict.name, builtin: true, stands: verdict.stands, rules } : verdict;
}

/** Whether a rule applies to subject S: S or one of its ancestors is among the rule's subjects. */
export function ruleAppliesTo(rule: QuotaRule, subject: Subject): boolean {
  const answering = new Set<Subject>([subject, ...subjectAncestors(subject)]);
  return rule.subjects.some((s) => {
    const canonical = canonicalSubject(s);
    return canonical !== undefined && answering.has(canonical);
  });
}

/** Subjects always allowed: the wiki is not tracked, `none` measures nothing. */
function alwaysAllowed(subject: Subject): boolean {
  return subject === 'size:assets:wiki' || subject === 'none';
}

export function groupAllows(resolved: ResolvedGroup, subject: Subject, usage: LeafUsage): boolean {
  const applicable = resolved.rules.filter((rule) => ruleAppliesTo(rule, subject));
  return applicable.length > 0 && applicable.every((rule) => evaluateRule(rule, usage).stands);
}

/**
 * The `/check` verdict: true when the account is within quota for the subject.
 * `subject` may be any accepted spelling; callers must reject unknown subjects first
 * (an unknown subject is never allowed here).
 */
export function checkSubject(index: QuotaIndex, account: string, subject: string, usage: LeafUsage): boolean {
  const canonical = canonicalSubject(subject);
  if (!canonical) return false;
  if (alwaysAllowed(canonical)) return true;
  return index.groupListOf(account).some((resolved) => groupAllows(resolved, canonical, usage));
}

/**
 * Full verdict for one account. `subjects` defaults to every canonical subject;
 * keys of `checks` are the subjects as given.
 */
export function evaluateAccount(
  index: QuotaIndex,
  account: string,
  usage: LeafUsage,
  subjects: readonly string[] = CANONICAL_SUBJECTS,
): AccountVerdict {
  const groups = index.groupListOf(account).map((resolved) => evaluateGroup(resolved, usage));
  const checks: Record<string, boolean> = {};
  for (const subject of subjects) checks[subject] = checkSubject(index, account, subject, usage);
  return { name: account, groups, stands: groups.some((g) => g.stands), checks };
}
