/**
 * What the quota engine evaluates for an account: its model, read in one snapshot, and its
 * verdict per subject, both kept until the database changes.
 */
import { createQuotaService, type QuotaModel, type QuotaRule } from '../../shared/quota';
import { transaction } from '../db';
import type { QuotaStore } from './quotaStore';
import { toRule, type Account, type RuleRow } from './rows';
import { settings } from './settings';
import { usageOf } from './usage';

const quota = createQuotaService();
const { checkSubject } = quota.engine;

type GroupRow = { id: number; name: string };

/**
 * The quota model the engine evaluates for `account`, read in one snapshot: only the groups
 * that can apply to it (its explicit groups, else the default groups) and their rules, each
 * read through an index. A check then costs the same with 50 rules on the server or 50,000.
 */
export function modelFor(store: QuotaStore, account: Account, generation = store.generation()): QuotaModel {
  return store.throughCache(store.modelCache, account.id, generation, () => ({ generation, model: readModelFor(store, account, generation) })).model;
}

function readModelFor(store: QuotaStore, account: Account, generation: number): QuotaModel {
  return transaction(store.db, 'read', () => {
    const current = settings(store, generation);
    const assigned = store
      .cached(
        `SELECT g.id, g.name FROM quota_group_accounts ga JOIN quota_groups g ON g.id = ga.group_id
         WHERE ga.account_id = ? ORDER BY ga.rowid`,
      )
      .all(account.id) as GroupRow[];
    const groupByName = store.cached('SELECT id, name FROM quota_groups WHERE name = ?');
    const chosen = assigned.length > 0 ? assigned : current.defaultGroups.map((name) => groupByName.get(name) as GroupRow | undefined).filter((g): g is GroupRow => g !== undefined);
    const rulesOfGroup = store
      .cached(
        `SELECT r.name, r.limit_bytes, r.subjects FROM quota_group_rules gr JOIN quota_rules r ON r.id = gr.rule_id
         WHERE gr.group_id = ? ORDER BY gr.rowid`,
      )
      .safeIntegers(true);
    const rules = new Map<string, QuotaRule>();
    const groups = chosen.map((group) => {
      const groupRules = (rulesOfGroup.all(group.id) as RuleRow[]).map(toRule);
      for (const rule of groupRules) if (!rules.has(rule.name)) rules.set(rule.name, rule);
      return { name: group.name, rules: groupRules.map((rule) => rule.name) };
    });
    const assignments: Record<string, string[]> = assigned.length > 0 ? { [account.name]: assigned.map((g) => g.name) } : {};
    return { ...current, rules: [...rules.values()], groups, assignments };
  });
}

/**
 * Whether `account` is within its quota for `subject`, as Forgejo's check answers. Verdicts are
 * kept per account until the database changes (`generation`, read once by the caller for the
 * whole request), so a repeated check is a map look-up instead of an evaluation.
 */
export function checkVerdict(store: QuotaStore, account: Account, subject: string, generation: number): boolean {
  const entry = store.throughCache(store.verdictCache, account.id, generation, () => ({
    generation,
    index: quota.engine.index(modelFor(store, account, generation), store.forgejo),
    usage: usageOf(store, account, generation),
    verdicts: new Map<string, boolean>(),
  }));
  let verdict = entry.verdicts.get(subject);
  if (verdict === undefined) {
    verdict = checkSubject(entry.index, account.name, subject, entry.usage);
    entry.verdicts.set(subject, verdict);
  }
  return verdict;
}
