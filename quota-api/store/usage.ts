/**
 * What accounts use: the stored instance content (repositories, attachments, packages,
 * artifacts), each account's leaf usage from it, and the usage lists (largest first, as Forgejo
 * sorts them) of `/user/quota/…` and `/orgs/{org}/quota/…`.
 */
import { type InstanceContent, type LeafUsage, zeroUsage, createQuotaService } from '../../shared/quota';
import { transaction } from '../db';
import type { QuotaStore } from './quotaStore';
import type { Account, ArtifactRow, AttachmentRow, PackageRow, Page, RepoRow } from './rows';

const {
  engine: { computeUsage },
} = createQuotaService();

/** Leaf usage of an account, computed by the shared engine from the stored content, for every account at once per generation. */
export function usageOf(store: QuotaStore, account: Account, generation = store.generation()): LeafUsage {
  if (store.usageCache?.generation !== generation) {
    store.usageCache = { generation, usage: transaction(store.db, 'read', () => computeUsage(content(store))) };
  }
  return store.usageCache.usage.get(account.name) ?? zeroUsage();
}

/** The stored instance content (the seed's repos, attachments, packages and artifacts). */
function content(store: QuotaStore): InstanceContent {
  const db = store.db;
  return {
    accounts: [],
    repos: (db.prepare('SELECT owner, name, is_private, git_size, lfs_size FROM repos ORDER BY id').all() as Array<Omit<RepoRow, 'id'>>).map((r) => ({
      owner: r.owner,
      name: r.name,
      private: r.is_private === 1,
      gitSize: r.git_size,
      lfsSize: r.lfs_size,
    })),
    attachments: (db.prepare('SELECT * FROM attachments ORDER BY id').all() as Array<AttachmentRow>).map((a) => ({
      repo: a.repo,
      name: a.name,
      size: a.size,
      ...(a.issue !== null ? { issue: a.issue } : {}),
      ...(a.comment !== null ? { comment: a.comment } : {}),
      ...(a.release !== null ? { release: a.release } : {}),
    })),
    packages: (db.prepare('SELECT * FROM packages ORDER BY id').all() as Array<PackageRow & { repo: string | null }>).map((p) => ({
      owner: p.owner,
      ...(p.repo !== null ? { repo: p.repo } : {}),
      type: p.type,
      name: p.name,
      version: p.version,
      size: p.size,
    })),
    artifacts: (
      db.prepare('SELECT * FROM artifacts ORDER BY id').all() as Array<{
        repo: string;
        name: string;
        size: number;
        run_id: number;
        expired: number;
      }>
    ).map((a) => ({ repo: a.repo, name: a.name, size: a.size, runId: a.run_id, expired: a.expired === 1 })),
  };
}

export function attachmentsOf(store: QuotaStore, account: Account, offset: number, limit: number): Page<AttachmentRow> {
  return page(store, 'attachments', 'id, repo, name, size, issue, comment, release, release_id AS releaseId', '', account, offset, limit);
}

export function packagesOf(store: QuotaStore, account: Account, offset: number, limit: number): Page<PackageRow> {
  return page(store, 'packages', 'id, owner, type, name, version, size', '', account, offset, limit);
}

export function artifactsOf(store: QuotaStore, account: Account, offset: number, limit: number): Page<ArtifactRow> {
  return page(store, 'artifacts', 'id, repo, name, size, run_id AS runId', 'AND expired = 0', account, offset, limit);
}

function page<T>(store: QuotaStore, table: string, columns: string, filter: string, account: Account, offset: number, limit: number): Page<T> {
  const db = store.db;
  return transaction(db, 'read', () => {
    const total = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE charged_to = ? ${filter}`).pluck().get(account.name) as number;
    const items = db.prepare(`SELECT ${columns} FROM ${table} WHERE charged_to = ? ${filter} ORDER BY size DESC, id LIMIT ? OFFSET ?`).all(account.name, limit, offset) as T[];
    return { total, items };
  });
}
