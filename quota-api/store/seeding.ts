/**
 * Loading a quota model and instance content into an empty database (`quota-api --seed`, read
 * by ../seed.ts), in one transaction: a half-seeded database is never left behind.
 */
import type { InstanceContent, QuotaModel } from '../../shared/quota';
import { transaction } from '../db';
import type { QuotaStore } from './quotaStore';
import { repoOwner } from './rows';
import { writeSettings } from './settings';

export interface SeedToken {
  account: string;
  sha256: string;
}

const TABLES = ['settings', 'accounts', 'quota_rules', 'quota_groups', 'repos', 'attachments', 'packages', 'artifacts'];

/** True when nothing has been stored yet: the seed is loaded only into such a database. */
export function isEmpty(store: QuotaStore): boolean {
  return TABLES.every((table) => !store.db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get());
}

/** Loads a quota model and instance content into an empty database, in one transaction. */
export function seed(store: QuotaStore, model: QuotaModel, content: InstanceContent, tokens: SeedToken[]): void {
  transaction(store.db, 'write', () => {
    writeSettings(store, { enabled: model.enabled, defaultGroups: model.defaultGroups, defaultTotal: model.defaultTotal });
    seedAccounts(store, model, content, tokens);
    seedRulesAndGroups(store, model);
    seedContent(store, content);
  });
}

/** Accounts, the owners of each organization, and the seed's tokens. */
function seedAccounts(store: QuotaStore, model: QuotaModel, content: InstanceContent, tokens: SeedToken[]): void {
  const db = store.db;
  const insertAccount = db.prepare('INSERT INTO accounts (name, type, is_admin, email, full_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT(name) DO NOTHING');
  for (const account of content.accounts) {
    insertAccount.run(account.name, account.type, account.admin ? 1 : 0, account.email ?? '', account.fullName ?? '');
  }
  // Accounts named only by assignments or ownership still exist on a Forgejo instance.
  const mentioned = [...Object.keys(model.assignments), ...content.repos.map((r) => r.owner), ...content.packages.map((p) => p.owner)];
  for (const name of mentioned) insertAccount.run(name, 'user', 0, '', '');
  const accountId = db.prepare('SELECT id FROM accounts WHERE name = ?').pluck();
  for (const account of content.accounts) {
    for (const owner of account.owners ?? []) {
      insertAccount.run(owner, 'user', 0, '', '');
      db.prepare('INSERT OR IGNORE INTO org_owners (org_id, user_id) VALUES (?, ?)').run(accountId.get(account.name), accountId.get(owner));
    }
  }
  const insertToken = db.prepare('INSERT OR IGNORE INTO tokens (account_id, token_sha256, created_at) VALUES (?, ?, ?)');
  for (const token of tokens) insertToken.run(accountId.get(token.account), token.sha256, new Date().toISOString());
}

/** Rules, groups, the rules of each group and the explicit groups of each account. */
function seedRulesAndGroups(store: QuotaStore, model: QuotaModel): void {
  const db = store.db;
  const insertRule = db.prepare('INSERT OR IGNORE INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?)');
  for (const rule of model.rules) insertRule.run(rule.name, rule.limit, JSON.stringify(rule.subjects));
  const insertGroup = db.prepare('INSERT OR IGNORE INTO quota_groups (name) VALUES (?)');
  const linkRule = db.prepare(
    `INSERT OR IGNORE INTO quota_group_rules (group_id, rule_id)
     SELECT g.id, r.id FROM quota_groups g, quota_rules r WHERE g.name = ? AND r.name = ?`,
  );
  for (const group of model.groups) {
    insertGroup.run(group.name);
    for (const rule of group.rules) linkRule.run(group.name, rule);
  }
  const linkAccount = db.prepare(
    `INSERT OR IGNORE INTO quota_group_accounts (group_id, account_id)
     SELECT g.id, a.id FROM quota_groups g, accounts a WHERE g.name = ? AND a.name = ?`,
  );
  for (const [account, groups] of Object.entries(model.assignments)) {
    for (const group of groups) linkAccount.run(group, account);
  }
}

/** Repositories, releases, attachments, packages and artifacts, each charged to whoever owns it. */
function seedContent(store: QuotaStore, content: InstanceContent): void {
  const db = store.db;
  const insertRepo = db.prepare('INSERT INTO repos (owner, name, is_private, git_size, lfs_size) VALUES (?, ?, ?, ?, ?)');
  for (const repo of content.repos) insertRepo.run(repo.owner, repo.name, repo.private ? 1 : 0, repo.gitSize, repo.lfsSize);
  const insertRelease = db.prepare('INSERT INTO releases (repo, tag) VALUES (?, ?) ON CONFLICT (repo, tag) DO NOTHING');
  const insertAttachment = db.prepare(
    `INSERT INTO attachments (repo, charged_to, name, size, issue, comment, release, release_id, uploader)
     VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT id FROM releases WHERE repo = ? AND tag = ?), ?)`,
  );
  for (const a of content.attachments) {
    const tag = a.release ?? null;
    if (tag !== null) insertRelease.run(a.repo, tag);
    insertAttachment.run(a.repo, repoOwner(a.repo), a.name, a.size, a.issue ?? null, a.comment ?? null, tag, a.repo, tag, a.uploader ?? null);
  }
  const insertPackage = db.prepare('INSERT INTO packages (owner, repo, charged_to, type, name, version, size) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const p of content.packages) {
    insertPackage.run(p.owner, p.repo ?? null, p.repo ? repoOwner(p.repo) : p.owner, p.type, p.name, p.version, p.size);
  }
  const insertArtifact = db.prepare('INSERT INTO artifacts (repo, charged_to, name, size, run_id, expired) VALUES (?, ?, ?, ?, ?, ?)');
  for (const a of content.artifacts) {
    insertArtifact.run(a.repo, repoOwner(a.repo), a.name, a.size, a.runId, a.expired ? 1 : 0);
  }
}
