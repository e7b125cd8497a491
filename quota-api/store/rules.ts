/** Quota rules (`/admin/quota/rules`): a name, an int64 limit and its subjects. */
import type { Bytes } from '../../shared/api/types';
import type { QuotaRule } from '../../shared/quota';
import { transaction } from '../db';
import { messages, notFound } from '../errors';
import type { QuotaStore } from './quotaStore';
import { insertUnique, RULE_COLUMNS, toRule, type RuleRow } from './rows';

export function listRules(store: QuotaStore): QuotaRule[] {
  return (store.db.prepare(`SELECT ${RULE_COLUMNS} FROM quota_rules ORDER BY id`).safeIntegers(true).all() as RuleRow[]).map(toRule);
}

export function getRule(store: QuotaStore, name: string): QuotaRule {
  const row = store.db.prepare(`SELECT ${RULE_COLUMNS} FROM quota_rules WHERE name = ?`).safeIntegers(true).get(name) as RuleRow | undefined;
  if (!row) throw notFound();
  return toRule(row);
}

/** A rule's row id; an unknown rule is a 404. */
export function ruleId(store: QuotaStore, name: string): number {
  const id = store.db.prepare('SELECT id FROM quota_rules WHERE name = ?').pluck().get(name) as number | undefined;
  if (id === undefined) throw notFound();
  return id;
}

/**
 * Inserts and reads back in one statement: a separate read could find the rule already
 * deleted by another process and answer 404 for a create that committed.
 */
export function createRule(store: QuotaStore, rule: QuotaRule): QuotaRule {
  const row = insertUnique(
    () =>
      store.db
        .prepare(`INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?) RETURNING ${RULE_COLUMNS}`)
        .safeIntegers(true)
        .get(rule.name, rule.limit, JSON.stringify(rule.subjects)) as RuleRow,
    () => messages.ruleExists(rule.name),
  );
  return toRule(row);
}

export function editRule(store: QuotaStore, name: string, changes: { limit?: Bytes; subjects?: string[] }): QuotaRule {
  return transaction(store.db, 'write', () => {
    const current = getRule(store, name);
    const limit = changes.limit ?? current.limit;
    const subjects = changes.subjects ?? current.subjects;
    store.db.prepare('UPDATE quota_rules SET limit_bytes = ?, subjects = ? WHERE name = ?').run(limit, JSON.stringify(subjects), name);
    return getRule(store, name);
  });
}

/** Deletes a rule and detaches it from every group (ON DELETE CASCADE), atomically. */
export function deleteRule(store: QuotaStore, name: string): void {
  const result = store.db.prepare('DELETE FROM quota_rules WHERE name = ?').run(name);
  if (result.changes === 0) throw notFound();
}
