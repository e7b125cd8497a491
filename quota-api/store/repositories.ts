/** Repositories in Forgejo's orders (`/user/repos`, `/repos/search`). */
import { transaction } from '../db';
import type { QuotaStore } from './quotaStore';
import type { Account, Page, RepoRow } from './rows';

/** SQL ORDER BY of each Forgejo repository order (models/repo/search.go); ties by id. */
export const REPOSITORY_ORDER_SQL: Record<string, string> = {
  name: 'name ASC',
  id: 'id ASC',
  newest: 'id DESC',
  oldest: 'id ASC',
  recentupdate: 'id DESC',
  leastupdate: 'id ASC',
  reversealphabetically: 'owner DESC, name DESC',
  alphabetically: 'owner ASC, name ASC',
  reversesize: '(git_size + lfs_size) DESC',
  size: '(git_size + lfs_size) ASC',
  reversegitsize: 'git_size DESC',
  gitsize: 'git_size ASC',
  reverselfssize: 'lfs_size DESC',
  lfssize: 'lfs_size ASC',
  moststars: 'id ASC',
  feweststars: 'id ASC',
  mostforks: 'id ASC',
  fewestforks: 'id ASC',
};

/**
 * Repositories `viewer` may see, in a Forgejo order: with `ownedBy`, that account's own;
 * otherwise every public repository plus the viewer's private ones.
 */
export function repositories(store: QuotaStore, viewer: Account, options: { ownedBy?: Account; orderSql: string; offset: number; limit: number }): Page<RepoRow> {
  const where = options.ownedBy ? 'lower(owner) = lower(?)' : '(is_private = 0 OR lower(owner) = lower(?))';
  const param = options.ownedBy ? options.ownedBy.name : viewer.name;
  return transaction(store.db, 'read', () => {
    const total = store.db.prepare(`SELECT COUNT(*) FROM repos WHERE ${where}`).pluck().get(param) as number;
    const items = store.db.prepare(`SELECT * FROM repos WHERE ${where} ORDER BY ${options.orderSql}, id LIMIT ? OFFSET ?`).all(param, options.limit, options.offset) as RepoRow[];
    return { total, items };
  });
}
