/**
 * Accounts (users and organizations), an organization's owners, and which groups an account is
 * in (`/admin/quota/groups/{group}/users`, `/admin/users/{user}/quota/groups`).
 */
import { canonicalName } from '../../shared/names';
import { transaction } from '../db';
import { messages, notFound, unprocessable, userNotFound } from '../errors';
import { groupId } from './groups';
import type { QuotaStore } from './quotaStore';
import { insertUnique, toAccount, type Account, type AccountRow } from './rows';

export function findAccount(store: QuotaStore, name: string): Account | undefined {
  // Account names compare without case, as Forgejo's lower_name does (its names are ASCII).
  const row = store.cached('SELECT * FROM accounts WHERE name = ? COLLATE NOCASE').get(name) as AccountRow | undefined;
  return row && toAccount(row);
}

export function accountById(store: QuotaStore, id: number): Account | undefined {
  const row = store.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  return row && toAccount(row);
}

export function isOrgOwner(store: QuotaStore, org: Account, user: Account): boolean {
  return !!store.db.prepare('SELECT 1 FROM org_owners WHERE org_id = ? AND user_id = ?').get(org.id, user.id);
}

function requireAccount(store: QuotaStore, name: string): Account {
  const account = findAccount(store, name);
  if (!account) throw userNotFound(name);
  return account;
}

export function membersOf(store: QuotaStore, group: string): Account[] {
  const id = groupId(store, group);
  return (
    store.db
      .prepare(
        `SELECT a.* FROM quota_group_accounts ga JOIN accounts a ON a.id = ga.account_id
         WHERE ga.group_id = ? ORDER BY ga.rowid`,
      )
      .all(id) as AccountRow[]
  ).map(toAccount);
}

export function addAccountToGroup(store: QuotaStore, group: string, accountName: string): void {
  transaction(store.db, 'write', () => {
    const id = groupId(store, group);
    const account = requireAccount(store, accountName);
    insertUnique(
      () => store.db.prepare('INSERT INTO quota_group_accounts (group_id, account_id) VALUES (?, ?)').run(id, account.id),
      () => messages.userInGroup(group, account.id),
    );
  });
}

export function removeAccountFromGroup(store: QuotaStore, group: string, accountName: string): void {
  transaction(store.db, 'write', () => {
    const id = groupId(store, group);
    const account = requireAccount(store, accountName);
    const result = store.db.prepare('DELETE FROM quota_group_accounts WHERE group_id = ? AND account_id = ?').run(id, account.id);
    if (result.changes === 0) throw notFound();
  });
}

/**
 * Replaces an account's explicit groups, all or nothing: a group that does not exist
 * answers 422 and nothing changes. A name listed twice counts once.
 */
export function setAccountGroups(store: QuotaStore, accountName: string, groups: string[]): void {
  const db = store.db;
  transaction(db, 'write', () => {
    const account = requireAccount(store, accountName);
    db.prepare('DELETE FROM quota_group_accounts WHERE account_id = ?').run(account.id);
    for (const group of new Set(groups.map(canonicalName))) {
      const id = db.prepare('SELECT id FROM quota_groups WHERE name = ?').pluck().get(group) as number | undefined;
      if (id === undefined) throw unprocessable(messages.groupNotFound(group));
      db.prepare('INSERT INTO quota_group_accounts (group_id, account_id) VALUES (?, ?)').run(id, account.id);
    }
  });
}
