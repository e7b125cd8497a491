/** Access tokens, stored as SHA-256 hashes (../tokens.ts makes and hashes them): sign-in and `quota-api token create`. */
import { transaction } from '../db';
import { unprocessable } from '../errors';
import type { QuotaStore } from './quotaStore';
import { toAccount, type Account, type AccountRow } from './rows';
import { accountById, findAccount } from './users';

/** The account a token hash signs in as, read once per `generation` (every request resolves one). */
export function accountByTokenHash(store: QuotaStore, sha256: string, generation = store.generation()): Account | undefined {
  return store.throughCache(store.tokenCache, sha256, generation, () => ({ generation, account: readAccountByTokenHash(store, sha256) })).account;
}

function readAccountByTokenHash(store: QuotaStore, sha256: string): Account | undefined {
  const row = store.cached('SELECT a.* FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_sha256 = ?').get(sha256) as AccountRow | undefined;
  return row && toAccount(row);
}

/**
 * Stores a token hash for a user, creating the user when it does not exist; `admin`
 * makes the user a site admin. Orgs cannot sign in, so they get no token.
 */
export function addToken(store: QuotaStore, accountName: string, sha256: string, options: { admin?: boolean } = {}): Account {
  const db = store.db;
  return transaction(db, 'write', () => {
    // Looked up without case first: `ALICE` is alice's account, never a second one beside it.
    let account = findAccount(store, accountName);
    if (!account) {
      db.prepare("INSERT INTO accounts (name, type) VALUES (?, 'user')").run(accountName);
      account = findAccount(store, accountName)!;
    }
    if (account.type !== 'user') throw unprocessable(`${account.name} is an organization; only users can have tokens`);
    if (options.admin && !account.isAdmin) {
      db.prepare('UPDATE accounts SET is_admin = 1 WHERE id = ?').run(account.id);
      account = accountById(store, account.id)!;
    }
    db.prepare('INSERT INTO tokens (account_id, token_sha256, created_at) VALUES (?, ?, ?)').run(account.id, sha256, new Date().toISOString());
    return account;
  });
}
