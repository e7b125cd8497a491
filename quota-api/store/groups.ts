/** Quota groups and the rules in them (`/admin/quota/groups[/{group}/rules/{rule}]`). */
import type { QuotaRule } from '../../shared/quota';
import { transaction } from '../db';
import { messages, notFound } from '../errors';
import type { QuotaStore } from './quotaStore';
import { insertUnique, toRule, type InlineRule, type RuleRow, type StoredGroup } from './rows';
import { ruleId } from './rules';

/** A group's row id; an unknown group is a 404. */
export function groupId(store: QuotaStore, name: string): number {
  const id = store.db.prepare('SELECT id FROM quota_groups WHERE name = ?').pluck().get(name) as number | undefined;
  if (id === undefined) throw notFound();
  return id;
}

function rulesOfGroup(store: QuotaStore, id: number): QuotaRule[] {
  return (
    store.db
      .prepare(
        `SELECT r.name, r.limit_bytes, r.subjects FROM quota_group_rules gr JOIN quota_rules r ON r.id = gr.rule_id
         WHERE gr.group_id = ? ORDER BY gr.rowid`,
      )
      .safeIntegers(true)
      .all(id) as RuleRow[]
  ).map(toRule);
}

export function listGroups(store: QuotaStore): StoredGroup[] {
  const groups = store.db.prepare('SELECT id, name FROM quota_groups ORDER BY id').all() as Array<{ id: number; name: string }>;
  return groups.map((g) => ({ name: g.name, rules: rulesOfGroup(store, g.id) }));
}

export function getGroup(store: QuotaStore, name: string): StoredGroup {
  return { name, rules: rulesOfGroup(store, groupId(store, name)) };
}

/**
 * Creates a group with inline rules in one transaction: an existing rule of that name is
 * attached unchanged, a new one is created (limit 0 when absent) and attached.
 */
export function createGroup(store: QuotaStore, name: string, inlineRules: InlineRule[]): StoredGroup {
  const db = store.db;
  return transaction(db, 'write', () => {
    const id = insertUnique(
      () => Number(db.prepare('INSERT INTO quota_groups (name) VALUES (?)').run(name).lastInsertRowid),
      () => messages.groupExists(name),
    );
    for (const rule of inlineRules) {
      db.prepare('INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING').run(rule.name, rule.limit ?? 0, JSON.stringify(rule.subjects));
      db.prepare('INSERT INTO quota_group_rules (group_id, rule_id) VALUES (?, ?)').run(id, ruleId(store, rule.name));
    }
    return getGroup(store, name);
  });
}

/** Deletes a group with its rule and member mappings; the rules themselves stay. */
export function deleteGroup(store: QuotaStore, name: string): void {
  const result = store.db.prepare('DELETE FROM quota_groups WHERE name = ?').run(name);
  if (result.changes === 0) throw notFound();
}

export function addRuleToGroup(store: QuotaStore, group: string, rule: string): void {
  transaction(store.db, 'write', () => {
    const ids = [groupId(store, group), ruleId(store, rule)];
    insertUnique(
      () => store.db.prepare('INSERT INTO quota_group_rules (group_id, rule_id) VALUES (?, ?)').run(...ids),
      () => messages.ruleInGroup(group, rule),
    );
  });
}

export function removeRuleFromGroup(store: QuotaStore, group: string, rule: string): void {
  transaction(store.db, 'write', () => {
    const ids = [groupId(store, group), ruleId(store, rule)];
    const result = store.db.prepare('DELETE FROM quota_group_rules WHERE group_id = ? AND rule_id = ?').run(...ids);
    if (result.changes === 0) throw notFound();
  });
}
