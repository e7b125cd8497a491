/**
 * All reads and writes of the reference server's database. Every change that touches more
 * than one row runs in one transaction; uniqueness is enforced by the schema, so concurrent
 * creates of one name cannot both succeed even across processes.
 *
 * Domain failures are thrown as `HttpError`s carrying Forgejo's messages.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import type { InstanceContent, LeafUsage, QuotaModel, QuotaRule } from '../shared/quota/model';
import { computeUsage, narrowBytes, zeroUsage } from '../shared/quota/usage';
import { checkSubject, QuotaIndex } from '../shared/quota/evaluate';
import type { Bytes } from '../shared/api/types';
import { parseJsonExact, stringifyJsonExact } from '../shared/api/json';
import { DEFAULT_FORGEJO_PROFILE, type ForgejoProfile } from '../shared/quota/forgejoVersion';
import { conflict, messages, notFound, unprocessable, userNotFound } from './errors';
import { canonicalName } from '../shared/names';

export interface Account {
  id: number;
  name: string;
  type: 'user' | 'org';
  isAdmin: boolean;
  email: string;
  fullName: string;
}

export interface QuotaSettings {
  enabled: boolean;
  defaultGroups: string[];
  defaultTotal: number | bigint;
}

export interface StoredGroup {
  name: string;
  rules: QuotaRule[];
}

/** A rule given inline when creating a group; `limit` undefined means 0 (Forgejo). */
export interface InlineRule {
  name: string;
  limit?: Bytes;
  subjects: string[];
}

export interface Page<T> {
  total: number;
  items: T[];
}

export interface AttachmentRow {
  id: number;
  repo: string;
  name: string;
  size: number;
  issue: number | null;
  comment: number | null;
  release: string | null;
  /** The release's id when `release` (its tag) is set. */
  releaseId: number | null;
}

export interface PackageRow {
  id: number;
  owner: string;
  type: string;
  name: string;
  version: string;
  size: number;
}

export interface ArtifactRow {
  id: number;
  repo: string;
  name: string;
  size: number;
  runId: number;
}

export interface RepoRow {
  id: number;
  owner: string;
  name: string;
  is_private: number;
  git_size: number;
  lfs_size: number;
}

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

/** A rule as read by the statements below, which read `limit_bytes` with safeIntegers: exact, as a bigint. */
interface RuleRow {
  name: string;
  limit_bytes: bigint;
  subjects: string;
}

/** The columns of a rule; ids are left out so that only the limit comes back as a bigint. */
const RULE_COLUMNS = 'name, limit_bytes, subjects';

interface AccountRow {
  id: number;
  name: string;
  type: 'user' | 'org';
  is_admin: number;
  email: string;
  full_name: string;
}

function toRule(row: RuleRow): QuotaRule {
  return { name: row.name, limit: narrowBytes(row.limit_bytes), subjects: JSON.parse(row.subjects) as string[] };
}

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, type: row.type, isAdmin: row.is_admin === 1, email: row.email, fullName: row.full_name };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Runs an insert; a row that already exists becomes a 409 with `conflictMessage`. */
function insertUnique<T>(insert: () => T, conflictMessage: () => string): T {
  try {
    return insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(conflictMessage());
    throw error;
  }
}

/** `owner/name` → owner: whoever owns the repository pays. */
export function repoOwner(fullName: string): string {
  const slash = fullName.indexOf('/');
  return slash === -1 ? fullName : fullName.slice(0, slash);
}

const SETTING_KEYS = { enabled: 'quota.enabled', defaultGroups: 'quota.default_groups', defaultTotal: 'quota.default_total' };

export class QuotaStore {
  private usageCache: Map<string, LeafUsage> | undefined;
  private settingsCache: QuotaSettings | undefined;

  constructor(
    readonly db: Db,
    /** The Forgejo version the server answers as: its evaluation generation and `size:all`. */
    readonly forgejo: ForgejoProfile = DEFAULT_FORGEJO_PROFILE,
  ) {}

  close(): void {
    this.db.close();
  }

  // -------------------------------------------------------------------------------------------
  // Seeding

  /** True when nothing has been stored yet: the seed is loaded only into such a database. */
  isEmpty(): boolean {
    const tables = ['settings', 'accounts', 'quota_rules', 'quota_groups', 'repos', 'attachments', 'packages', 'artifacts'];
    return tables.every((table) => !this.db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get());
  }

  /** Loads a quota model and instance content into an empty database, in one transaction. */
  seed(model: QuotaModel, content: InstanceContent, tokens: Array<{ account: string; sha256: string }>): void {
    const db = this.db;
    db.transaction(() => {
      this.writeSettings({ enabled: model.enabled, defaultGroups: model.defaultGroups, defaultTotal: model.defaultTotal });
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
    }).immediate();
    this.usageCache = undefined;
    this.settingsCache = undefined;
  }

  private writeSettings(settings: QuotaSettings): void {
    const upsert = this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    upsert.run(SETTING_KEYS.enabled, JSON.stringify(settings.enabled));
    upsert.run(SETTING_KEYS.defaultGroups, JSON.stringify(settings.defaultGroups));
    upsert.run(SETTING_KEYS.defaultTotal, stringifyJsonExact(settings.defaultTotal));
  }

  /** Quota settings ([quota] ENABLED, DEFAULT_GROUPS, [quota.default] TOTAL); Forgejo's defaults when unset. */
  settings(): QuotaSettings {
    if (this.settingsCache) return this.settingsCache;
    const read = (key: string): unknown => {
      const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
      return row === undefined ? undefined : parseJsonExact(row);
    };
    const enabled = read(SETTING_KEYS.enabled);
    const defaultGroups = read(SETTING_KEYS.defaultGroups);
    const defaultTotal = read(SETTING_KEYS.defaultTotal);
    // An unseeded database serves an enabled quota engine: that is what the reference server is for.
    this.settingsCache = {
      enabled: typeof enabled === 'boolean' ? enabled : true,
      defaultGroups: Array.isArray(defaultGroups) ? (defaultGroups as string[]) : [],
      defaultTotal: typeof defaultTotal === 'number' || typeof defaultTotal === 'bigint' ? defaultTotal : -1,
    };
    return this.settingsCache;
  }

  // -------------------------------------------------------------------------------------------
  // Accounts and tokens

  findAccount(name: string): Account | undefined {
    // Account names compare without case, as Forgejo's lower_name does (its names are ASCII).
    const row = this.cached('SELECT * FROM accounts WHERE name = ? COLLATE NOCASE').get(name) as AccountRow | undefined;
    return row && toAccount(row);
  }

  accountById(id: number): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row && toAccount(row);
  }

  accountByTokenHash(sha256: string, generation = this.generation()): Account | undefined {
    const cached = this.tokenCache.get(sha256);
    if (cached && cached.generation === generation) return cached.account;
    const account = this.readAccountByTokenHash(sha256);
    this.remember(this.tokenCache, sha256, { generation, account });
    return account;
  }

  private readAccountByTokenHash(sha256: string): Account | undefined {
    const row = this.cached('SELECT a.* FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_sha256 = ?').get(sha256) as AccountRow | undefined;
    return row && toAccount(row);
  }

  isOrgOwner(org: Account, user: Account): boolean {
    return !!this.db.prepare('SELECT 1 FROM org_owners WHERE org_id = ? AND user_id = ?').get(org.id, user.id);
  }

  /**
   * Stores a token hash for a user, creating the user when it does not exist; `admin`
   * makes the user a site admin. Orgs cannot sign in, so they get no token.
   */
  addToken(accountName: string, sha256: string, options: { admin?: boolean } = {}): Account {
    return this.db
      .transaction(() => {
        // Looked up without case first: `ALICE` is alice's account, never a second one beside it.
        let account = this.findAccount(accountName);
        if (!account) {
          this.db.prepare("INSERT INTO accounts (name, type) VALUES (?, 'user')").run(accountName);
          account = this.findAccount(accountName)!;
        }
        if (account.type !== 'user') throw unprocessable(`${account.name} is an organization; only users can have tokens`);
        if (options.admin && !account.isAdmin) {
          this.db.prepare('UPDATE accounts SET is_admin = 1 WHERE id = ?').run(account.id);
          account = this.accountById(account.id)!;
        }
        this.db.prepare('INSERT INTO tokens (account_id, token_sha256, created_at) VALUES (?, ?, ?)').run(account.id, sha256, new Date().toISOString());
        return account;
      })
      .immediate();
  }

  // -------------------------------------------------------------------------------------------
  // Rules

  listRules(): QuotaRule[] {
    return (this.db.prepare(`SELECT ${RULE_COLUMNS} FROM quota_rules ORDER BY id`).safeIntegers(true).all() as RuleRow[]).map(toRule);
  }

  getRule(name: string): QuotaRule {
    const row = this.db.prepare(`SELECT ${RULE_COLUMNS} FROM quota_rules WHERE name = ?`).safeIntegers(true).get(name) as RuleRow | undefined;
    if (!row) throw notFound();
    return toRule(row);
  }

  /**
   * Inserts and reads back in one statement: a separate read could find the rule already
   * deleted by another process and answer 404 for a create that committed.
   */
  createRule(rule: QuotaRule): QuotaRule {
    const row = insertUnique(
      () =>
        this.db
          .prepare(`INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?) RETURNING ${RULE_COLUMNS}`)
          .safeIntegers(true)
          .get(rule.name, rule.limit, JSON.stringify(rule.subjects)) as RuleRow,
      () => messages.ruleExists(rule.name),
    );
    return toRule(row);
  }

  editRule(name: string, changes: { limit?: Bytes; subjects?: string[] }): QuotaRule {
    return this.db
      .transaction(() => {
        const current = this.getRule(name);
        const limit = changes.limit ?? current.limit;
        const subjects = changes.subjects ?? current.subjects;
        this.db.prepare('UPDATE quota_rules SET limit_bytes = ?, subjects = ? WHERE name = ?').run(limit, JSON.stringify(subjects), name);
        return this.getRule(name);
      })
      .immediate();
  }

  /** Deletes a rule and detaches it from every group (ON DELETE CASCADE), atomically. */
  deleteRule(name: string): void {
    const result = this.db.prepare('DELETE FROM quota_rules WHERE name = ?').run(name);
    if (result.changes === 0) throw notFound();
  }

  // -------------------------------------------------------------------------------------------
  // Groups

  private groupId(name: string): number {
    const id = this.db.prepare('SELECT id FROM quota_groups WHERE name = ?').pluck().get(name) as number | undefined;
    if (id === undefined) throw notFound();
    return id;
  }

  private ruleId(name: string): number {
    const id = this.db.prepare('SELECT id FROM quota_rules WHERE name = ?').pluck().get(name) as number | undefined;
    if (id === undefined) throw notFound();
    return id;
  }

  private rulesOfGroup(groupId: number): QuotaRule[] {
    return (
      this.db
        .prepare(
          `SELECT r.name, r.limit_bytes, r.subjects FROM quota_group_rules gr JOIN quota_rules r ON r.id = gr.rule_id
           WHERE gr.group_id = ? ORDER BY gr.rowid`,
        )
        .safeIntegers(true)
        .all(groupId) as RuleRow[]
    ).map(toRule);
  }

  listGroups(): StoredGroup[] {
    const groups = this.db.prepare('SELECT id, name FROM quota_groups ORDER BY id').all() as Array<{ id: number; name: string }>;
    return groups.map((g) => ({ name: g.name, rules: this.rulesOfGroup(g.id) }));
  }

  getGroup(name: string): StoredGroup {
    return { name, rules: this.rulesOfGroup(this.groupId(name)) };
  }

  /**
   * Creates a group with inline rules in one transaction: an existing rule of that name is
   * attached unchanged, a new one is created (limit 0 when absent) and attached.
   */
  createGroup(name: string, inlineRules: InlineRule[]): StoredGroup {
    return this.db
      .transaction(() => {
        const groupId = insertUnique(
          () => Number(this.db.prepare('INSERT INTO quota_groups (name) VALUES (?)').run(name).lastInsertRowid),
          () => messages.groupExists(name),
        );
        for (const rule of inlineRules) {
          this.db.prepare('INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING').run(rule.name, rule.limit ?? 0, JSON.stringify(rule.subjects));
          this.db.prepare('INSERT INTO quota_group_rules (group_id, rule_id) VALUES (?, ?)').run(groupId, this.ruleId(rule.name));
        }
        return this.getGroup(name);
      })
      .immediate();
  }

  /** Deletes a group with its rule and member mappings; the rules themselves stay. */
  deleteGroup(name: string): void {
    const result = this.db.prepare('DELETE FROM quota_groups WHERE name = ?').run(name);
    if (result.changes === 0) throw notFound();
  }

  addRuleToGroup(group: string, rule: string): void {
    this.db
      .transaction(() => {
        const groupId = this.groupId(group);
        const ruleId = this.ruleId(rule);
        insertUnique(
          () => this.db.prepare('INSERT INTO quota_group_rules (group_id, rule_id) VALUES (?, ?)').run(groupId, ruleId),
          () => messages.ruleInGroup(group, rule),
        );
      })
      .immediate();
  }

  removeRuleFromGroup(group: string, rule: string): void {
    this.db
      .transaction(() => {
        const groupId = this.groupId(group);
        const ruleId = this.ruleId(rule);
        const result = this.db.prepare('DELETE FROM quota_group_rules WHERE group_id = ? AND rule_id = ?').run(groupId, ruleId);
        if (result.changes === 0) throw notFound();
      })
      .immediate();
  }

  // -------------------------------------------------------------------------------------------
  // Group membership

  membersOf(group: string): Account[] {
    const groupId = this.groupId(group);
    return (
      this.db
        .prepare(
          `SELECT a.* FROM quota_group_accounts ga JOIN accounts a ON a.id = ga.account_id
           WHERE ga.group_id = ? ORDER BY ga.rowid`,
        )
        .all(groupId) as AccountRow[]
    ).map(toAccount);
  }

  private requireAccount(name: string): Account {
    const account = this.findAccount(name);
    if (!account) throw userNotFound(name);
    return account;
  }

  addAccountToGroup(group: string, accountName: string): void {
    this.db
      .transaction(() => {
        const groupId = this.groupId(group);
        const account = this.requireAccount(accountName);
        insertUnique(
          () => this.db.prepare('INSERT INTO quota_group_accounts (group_id, account_id) VALUES (?, ?)').run(groupId, account.id),
          () => messages.userInGroup(group, account.id),
        );
      })
      .immediate();
  }

  removeAccountFromGroup(group: string, accountName: string): void {
    this.db
      .transaction(() => {
        const groupId = this.groupId(group);
        const account = this.requireAccount(accountName);
        const result = this.db.prepare('DELETE FROM quota_group_accounts WHERE group_id = ? AND account_id = ?').run(groupId, account.id);
        if (result.changes === 0) throw notFound();
      })
      .immediate();
  }

  /**
   * Replaces an account's explicit groups, all or nothing: a group that does not exist
   * answers 422 and nothing changes. A name listed twice counts once.
   */
  setAccountGroups(accountName: string, groups: string[]): void {
    this.db
      .transaction(() => {
        const account = this.requireAccount(accountName);
        this.db.prepare('DELETE FROM quota_group_accounts WHERE account_id = ?').run(account.id);
        for (const group of new Set(groups.map(canonicalName))) {
          const groupId = this.db.prepare('SELECT id FROM quota_groups WHERE name = ?').pluck().get(group) as number | undefined;
          if (groupId === undefined) throw unprocessable(messages.groupNotFound(group));
          this.db.prepare('INSERT INTO quota_group_accounts (group_id, account_id) VALUES (?, ?)').run(groupId, account.id);
        }
      })
      .immediate();
  }

  // -------------------------------------------------------------------------------------------
  // Evaluation inputs

  /**
   * The quota model the engine evaluates for `account`, read in one snapshot: only the groups
   * that can apply to it (its explicit groups, else the default groups) and their rules, each
   * read through an index. A check then costs the same with 50 rules on the server or 50,000.
   */
  modelFor(account: Account, generation = this.generation()): QuotaModel {
    const cached = this.modelCache.get(account.id);
    if (cached && cached.generation === generation) return cached.model;
    const model = this.readModelFor(account);
    this.remember(this.modelCache, account.id, { generation, model });
    return model;
  }

  private readModelFor(account: Account): QuotaModel {
    return this.db.transaction(() => {
      const settings = this.settings();
      const assigned = this.cached(
        `SELECT g.id, g.name FROM quota_group_accounts ga JOIN quota_groups g ON g.id = ga.group_id
         WHERE ga.account_id = ? ORDER BY ga.rowid`,
      ).all(account.id) as Array<{ id: number; name: string }>;
      const groupByName = this.cached('SELECT id, name FROM quota_groups WHERE name = ?');
      const chosen =
        assigned.length > 0
          ? assigned
          : settings.defaultGroups.map((name) => groupByName.get(name) as { id: number; name: string } | undefined).filter((g): g is { id: number; name: string } => g !== undefined);
      const rulesOfGroup = this.cached(
        `SELECT r.name, r.limit_bytes, r.subjects FROM quota_group_rules gr JOIN quota_rules r ON r.id = gr.rule_id
         WHERE gr.group_id = ? ORDER BY gr.rowid`,
      ).safeIntegers(true);
      const rules = new Map<string, QuotaRule>();
      const groups = chosen.map((group) => {
        const groupRules = (rulesOfGroup.all(group.id) as RuleRow[]).map(toRule);
        for (const rule of groupRules) if (!rules.has(rule.name)) rules.set(rule.name, rule);
        return { name: group.name, rules: groupRules.map((rule) => rule.name) };
      });
      const assignments: Record<string, string[]> = assigned.length > 0 ? { [account.name]: assigned.map((g) => g.name) } : {};
      return { ...settings, rules: [...rules.values()], groups, assignments };
    })();
  }

  /**
   * Whether `account` is within its quota for `subject`, as Forgejo's check answers. Verdicts are
   * kept per account until the database changes (`generation`, read once by the caller for the
   * whole request), so a repeated check is a map look-up instead of an evaluation.
   */
  checkVerdict(account: Account, subject: string, generation: string): boolean {
    let entry = this.verdictCache.get(account.id);
    if (!entry || entry.generation !== generation) {
      entry = { generation, index: new QuotaIndex(this.modelFor(account, generation), this.forgejo), usage: this.usageOf(account), verdicts: new Map() };
      this.remember(this.verdictCache, account.id, entry);
    }
    let verdict = entry.verdicts.get(subject);
    if (verdict === undefined) {
      verdict = checkSubject(entry.index, account.name, subject, entry.usage);
      entry.verdicts.set(subject, verdict);
    }
    return verdict;
  }

  private readonly verdictCache = new Map<number, { generation: string; index: QuotaIndex; usage: LeafUsage; verdicts: Map<string, boolean> }>();
  private readonly statements = new Map<string, Statement>();
  private readonly modelCache = new Map<number, { generation: string; model: QuotaModel }>();
  private readonly tokenCache = new Map<string, { generation: string; account: Account | undefined }>();

  /**
   * Changes whenever anything is committed, by this connection (total_changes) or by another
   * process (data_version): cached reads are reused only while it stays the same.
   */
  generation(): string {
    const row = this.cached('SELECT total_changes() AS own, (SELECT data_version FROM pragma_data_version) AS others').get() as {
      own: number;
      others: number;
    };
    return `${row.own}:${row.others}`;
  }

  private remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
    // Bounded: a burst of distinct accounts or tokens cannot grow memory without limit.
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, value);
  }

  /** A prepared statement compiled once per store (the hot paths: sign-in and checks). */
  private cached(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Leaf usage of an account, computed by the shared engine from the stored content. */
  usageOf(account: Account): LeafUsage {
    if (!this.usageCache) this.usageCache = computeUsage(this.content());
    return this.usageCache.get(account.name) ?? zeroUsage();
  }

  /** The stored instance content (the seed's repos, attachments, packages and artifacts). */
  content(): InstanceContent {
    const db = this.db;
    return {
      accounts: [],
      repos: (
        db.prepare('SELECT owner, name, is_private, git_size, lfs_size FROM repos ORDER BY id').all() as Array<{
          owner: string;
          name: string;
          is_private: number;
          git_size: number;
          lfs_size: number;
        }>
      ).map((r) => ({ owner: r.owner, name: r.name, private: r.is_private === 1, gitSize: r.git_size, lfsSize: r.lfs_size })),
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

  // -------------------------------------------------------------------------------------------
  // Usage lists (largest first, as Forgejo sorts them)

  attachmentsOf(account: Account, offset: number, limit: number): Page<AttachmentRow> {
    return this.page('attachments', 'id, repo, name, size, issue, comment, release, release_id AS releaseId', '', account, offset, limit);
  }

  packagesOf(account: Account, offset: number, limit: number): Page<PackageRow> {
    return this.page('packages', 'id, owner, type, name, version, size', '', account, offset, limit);
  }

  artifactsOf(account: Account, offset: number, limit: number): Page<ArtifactRow> {
    return this.page('artifacts', 'id, repo, name, size, run_id AS runId', 'AND expired = 0', account, offset, limit);
  }

  /**
   * Repositories `viewer` may see, in a Forgejo order: with `ownedBy`, that account's own;
   * otherwise every public repository plus the viewer's private ones.
   */
  repositories(viewer: Account, options: { ownedBy?: Account; orderSql: string; offset: number; limit: number }): Page<RepoRow> {
    const where = options.ownedBy ? 'lower(owner) = lower(?)' : '(is_private = 0 OR lower(owner) = lower(?))';
    const param = options.ownedBy ? options.ownedBy.name : viewer.name;
    return this.db.transaction(() => {
      const total = this.db.prepare(`SELECT COUNT(*) FROM repos WHERE ${where}`).pluck().get(param) as number;
      const items = this.db.prepare(`SELECT * FROM repos WHERE ${where} ORDER BY ${options.orderSql}, id LIMIT ? OFFSET ?`).all(param, options.limit, options.offset) as RepoRow[];
      return { total, items };
    })();
  }

  private page<T>(table: string, columns: string, filter: string, account: Account, offset: number, limit: number): Page<T> {
    return this.db.transaction(() => {
      const total = this.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE charged_to = ? ${filter}`).pluck().get(account.name) as number;
      const items = this.db.prepare(`SELECT ${columns} FROM ${table} WHERE charged_to = ? ${filter} ORDER BY size DESC, id LIMIT ? OFFSET ?`).all(account.name, limit, offset) as T[];
      return { total, items };
    })();
  }
}
