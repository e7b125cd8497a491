/**
 * The quota engine: pure functions over a QuotaModel and leaf usage, deciding as the Forgejo
 * version of a profile (./forgejoVersion.ts) does. Names follow Forgejo's `models/quota`.
 *
 * Generation 2 (Forgejo 13.0+):
 * - A rule stands when its limit is -1, or the summed usage of its subjects is strictly
 *   below the limit (limit 0 never stands; other negative limits never stand).
 * - A check for subject S: a rule covers S when S or an ancestor of S is among its subjects;
 *   a group allows S when some rule covers S and every covering rule stands.
 * Generation 1 (Forgejo 9.0 – 12.x):
 * - A rule stands at usage at most its limit; a -1 rule covers every subject.
 * - A group no rule of which covers S answers from S's children instead (never from its parents).
 * Both:
 * - A group stands when all its rules stand; a group list allows S when any group allows it.
 * - An account's group list: its assigned groups; if none, the default groups that exist;
 *   if none, a built-in group `{limit: defaultTotal, subjects: [size:all]}`.
 * Sums are exact (bigint) and wrap at 64 bits as Go's int64 does.
 */
import { DEFAULT_FORGEJO_PROFILE, type EvaluationGeneration, type ForgejoProfile } from './forgejoVersion';
import type { LeafUsage, QuotaGroup, QuotaModel, QuotaRule } from './model';
import { CANONICAL_SUBJECTS, canonicalSubject, subjectAncestors, type LeafSubject, type Subject } from './subjects';
import { exactBytes, usageOfExact } from './usage';

/** Name of the built-in group (and its rule) used when an account has no group, as the JSON report shows it. */
export const BUILTIN_GROUP_NAME = '(default)';

export interface RuleVerdict {
  name: string;
  used: number;
  /** Exact: a bigint beyond 2^53 (an int64 limit from the API). */
  limit: number | bigint;
  stands: boolean;
}

interface GroupVerdict {
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

/** Bytes as the engine takes them: plain numbers from files, exact bigints from the API's database. */
export type Bytes = number | bigint;

/** A rule as the engine needs it; `QuotaRule` and the API's rows both fit. */
export interface EngineRule {
  limit: Bytes;
  subjects: readonly string[];
}

/** Leaf usage as the engine needs it: `LeafUsage`, or exact bigints. */
export type EngineUsage = Readonly<Record<LeafSubject, Bytes>>;

/** Go's int64 addition wraps around; Forgejo sums usage that way, so overflowing sums turn negative there too. */
function wrapInt64(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

function isUnlimited(limit: Bytes): boolean {
  return exactBytes(limit) === -1n;
}

/** A rule's measured usage, exactly: the sum over its subjects (a subject listed twice counts twice), wrapped like int64. */
export function ruleUsedExact(rule: EngineRule, usage: EngineUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): bigint {
  let used = 0n;
  for (const subject of rule.subjects) used += usageOfExact(subject, usage, profile);
  return wrapInt64(used);
}

/**
 * Whether a limit stands for a usage. Generation 2 (Forgejo 13.0+): -1, or usage strictly below the
 * limit (`rule.go` `r.Sum(used) < r.Limit`). Generation 1 (up to 12.x): -1, or usage at most the limit.
 */
export function limitStands(limit: Bytes, used: Bytes, generation: EvaluationGeneration = 2): boolean {
  const exactLimit = exactBytes(limit);
  const exactUsed = exactBytes(used);
  // A rule a file gives no valid limit (NaN) never stands; Forgejo cannot store one.
  if (exactLimit === undefined || exactUsed === undefined) return false;
  if (exactLimit === -1n) return true;
  // Exactly Go's comparisons: with usage never negative, any other negative limit never stands.
  return generation === 1 ? exactUsed <= exactLimit : exactUsed < exactLimit;
}

export function evaluateRule(rule: QuotaRule, usage: LeafUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): RuleVerdict {
  const used = ruleUsedExact(rule, usage, profile);
  return { name: rule.name, used: Number(used), limit: rule.limit, stands: limitStands(rule.limit, used, profile.generation) };
}

/** Indexes a model's rules and groups by name; the first definition of a name wins. */
export class QuotaIndex {
  readonly rules = new Map<string, QuotaRule>();
  readonly groups = new Map<string, QuotaGroup>();

  constructor(
    readonly model: QuotaModel,
    /** The Forgejo version whose rules decide. */
    readonly profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE,
  ) {
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
    const assigned = (Object.prototype.hasOwnProperty.call(this.model.assignments, account) ? this.model.assignments[account] : [])
      .map((name) => this.groups.get(name))
      .filter((g): g is QuotaGroup => g !== undefined);
    const chosen = assigned.length > 0 ? assigned : this.model.defaultGroups.map((name) => this.groups.get(name)).filter((g): g is QuotaGroup => g !== undefined);
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

function evaluateGroup(resolved: ResolvedGroup, usage: LeafUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): GroupVerdict {
  const rules = resolved.rules.map((rule) => evaluateRule(rule, usage, profile));
  const verdict: GroupVerdict = { name: resolved.group.name, stands: rules.every((r) => r.stands), rules };
  return resolved.builtin ? { name: verdict.name, builtin: true, stands: verdict.stands, rules } : verdict;
}

/** A rule's answer for one subject, as Forgejo's `Rule.Evaluate`: whether it covers the subject, and whether it allows it. */
export interface RuleAnswer {
  matches: boolean;
  allows: boolean;
}

/**
 * Generation 2 (`rule.go` `subjectToParent`): a rule covers S when it lists S or an ancestor of S;
 * the wiki's parent is `size:assets:all` there too, although the wiki adds nothing to any sum.
 */
function matchingSubjects(subject: Subject): Set<Subject> {
  const answering = new Set<Subject>([subject, ...subjectAncestors(subject)]);
  if (subject === 'size:assets:wiki') for (const ancestor of ['size:assets:all', 'size:all'] as const) answering.add(ancestor);
  return answering;
}

function listsAny(rule: EngineRule, subjects: ReadonlySet<Subject>): boolean {
  return rule.subjects.some((s) => {
    const canonical = canonicalSubject(s);
    return canonical !== undefined && subjects.has(canonical);
  });
}

/**
 * Whether a rule covers subject S. Generation 2: S or an ancestor of S is among its subjects.
 * Generation 1 (v11 `rule.go`): a -1 rule covers every subject; any other only the subjects it lists.
 */
function ruleAppliesTo(rule: EngineRule, subject: Subject, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): boolean {
  if (profile.generation === 1) return isUnlimited(rule.limit) || listsAny(rule, new Set([subject]));
  return listsAny(rule, matchingSubjects(subject));
}

/** Forgejo's `Rule.Evaluate` for one subject. */
export function ruleAnswer(rule: EngineRule, usage: EngineUsage, subject: Subject, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): RuleAnswer {
  if (!ruleAppliesTo(rule, subject, profile)) return { matches: false, allows: false };
  return { matches: true, allows: limitStands(rule.limit, ruleUsedExact(rule, usage, profile), profile.generation) };
}

/**
 * Generation 1's downward step (v11 `group.go` `affectsMap`): when no rule of a group covers S,
 * the group answers from S's children instead.
 */
const GEN1_CHILDREN: Readonly<Partial<Record<Subject, readonly Subject[]>>> = {
  'size:all': ['size:repos:all', 'size:git:lfs', 'size:assets:all'],
  'size:repos:all': ['size:repos:public', 'size:repos:private'],
  'size:assets:all': ['size:assets:attachments:all', 'size:assets:artifacts', 'size:assets:packages:all'],
  'size:assets:attachments:all': ['size:assets:attachments:issues', 'size:assets:attachments:releases'],
};

/** A group's answer for one subject, with the rules that decided it (for explanations). */
export interface GroupAnswer<R extends EngineRule = EngineRule> {
  matches: boolean;
  allows: boolean;
  /** The rules that covered the subject (or, in generation 1, the child subjects it was answered from). */
  consulted: R[];
  /** Generation 1 only: the subjects below S the answer came from, when no rule covered S itself. */
  answeredFrom?: Subject[];
  /**
   * Generation 1 only, as `Group.Evaluate` returns it: the failing rule's limit, else the smallest
   * limit of the covering rules, else int64's maximum when nothing covered the subject.
   */
  limit?: bigint;
}

const INT64_MAX = (1n << 63n) - 1n;

function gen1GroupAnswer<R extends EngineRule>(rules: readonly R[], usage: EngineUsage, subject: Subject, profile: ForgejoProfile): GroupAnswer<R> {
  let matches = false;
  let limit = INT64_MAX;
  const consulted: R[] = [];
  for (const rule of rules) {
    const answer = ruleAnswer(rule, usage, subject, profile);
    if (!answer.matches) continue;
    consulted.push(rule);
    const ruleLimit = exactBytes(rule.limit) ?? 0n;
    if (!answer.allows) return { matches: true, allows: false, consulted: [rule], limit: ruleLimit };
    matches = true;
    if (ruleLimit < limit) limit = ruleLimit;
  }
  if (matches) return { matches, allows: true, consulted, limit };
  const answeredFrom: Subject[] = [];
  for (const child of GEN1_CHILDREN[subject] ?? []) {
    const answer = gen1GroupAnswer(rules, usage, child, profile);
    if (!answer.matches) continue;
    answeredFrom.push(child);
    if (!answer.allows) return { matches: true, allows: false, consulted: answer.consulted, answeredFrom: [child], limit: answer.limit };
    matches = true;
    for (const rule of answer.consulted) if (!consulted.includes(rule)) consulted.push(rule);
    if (answer.limit! < limit) limit = answer.limit!;
  }
  // Forgejo's generation 1 reports "allowed" even when nothing matched; only `matches` tells them apart.
  return { matches, allows: true, consulted, ...(answeredFrom.length ? { answeredFrom } : {}), limit };
}

/** Forgejo's `Group.Evaluate` for one subject, in the profile's generation. */
export function groupAnswer<R extends EngineRule>(rules: readonly R[], usage: EngineUsage, subject: Subject, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): GroupAnswer<R> {
  if (profile.generation === 1) return gen1GroupAnswer(rules, usage, subject, profile);
  const consulted = rules.filter((rule) => ruleAppliesTo(rule, subject, profile));
  const failing = consulted.find((rule) => !ruleAnswer(rule, usage, subject, profile).allows);
  if (failing) return { matches: true, allows: false, consulted: [failing] };
  return { matches: consulted.length > 0, allows: consulted.length > 0, consulted };
}

/** Whether a group lets the account write to S: some rule covers S and none of those fails. */
function groupAllows(resolved: ResolvedGroup, subject: Subject, usage: EngineUsage, profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE): boolean {
  const answer = groupAnswer(resolved.rules, usage, subject, profile);
  return answer.matches && answer.allows;
}

/**
 * Forgejo's `GroupList.Evaluate`: allowed when one group covers S and allows it. An empty list is
 * the built-in group with one `size:all` rule limited by `defaultTotal` (`default.go`).
 * Generation 1 also returns a limit: the allowing group's, -1 for the built-in unlimited one, 0 when denied.
 */
export function groupListAnswer(
  groups: ReadonlyArray<readonly EngineRule[]>,
  defaultTotal: Bytes,
  usage: EngineUsage,
  subject: Subject,
  profile: ForgejoProfile = DEFAULT_FORGEJO_PROFILE,
): { allows: boolean; limit?: bigint } {
  const list = groups.length > 0 ? groups : [[{ limit: defaultTotal, subjects: ['size:all'] }]];
  for (const rules of list) {
    const answer = groupAnswer(rules, usage, subject, profile);
    if (answer.matches && answer.allows) return profile.generation === 1 ? { allows: true, limit: answer.limit } : { allows: true };
  }
  return profile.generation === 1 ? { allows: false, limit: 0n } : { allows: false };
}

/**
 * The `/check` verdict: true when the account is within quota for the subject, in the index's
 * Forgejo generation. `subject` may be any accepted spelling; callers must reject unknown subjects
 * first (an unknown subject is never allowed here).
 */
export function checkSubject(index: QuotaIndex, account: string, subject: string, usage: EngineUsage): boolean {
  const canonical = canonicalSubject(subject);
  if (!canonical) return false;
  return index.groupListOf(account).some((resolved) => groupAllows(resolved, canonical, usage, index.profile));
}

/**
 * Full verdict for one account. `subjects` defaults to every canonical subject;
 * keys of `checks` are the subjects as given.
 */
export function evaluateAccount(index: QuotaIndex, account: string, usage: LeafUsage, subjects: readonly string[] = CANONICAL_SUBJECTS): AccountVerdict {
  const groups = index.groupListOf(account).map((resolved) => evaluateGroup(resolved, usage, index.profile));
  const checks: Record<string, boolean> = {};
  for (const subject of subjects) checks[subject] = checkSubject(index, account, subject, usage);
  return { name: account, groups, stands: groups.some((g) => g.stands), checks };
}
