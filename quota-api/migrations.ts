/**
 * The database schema, as an ordered list of migrations. Never edit a released migration:
 * append a new one.
 *
 * Names of rules and groups compare exactly (case-sensitive, like Forgejo's string keys);
 * account names too, so the API agrees with `quota-state evaluate`, which keys accounts by name as written.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL CHECK (type IN ('user', 'org')),
        is_admin INTEGER NOT NULL DEFAULT 0,
        email TEXT NOT NULL DEFAULT '',
        full_name TEXT NOT NULL DEFAULT ''
      );

      CREATE TABLE org_owners (
        org_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (org_id, user_id)
      );

      -- Only the SHA-256 of a token is stored; the token itself is shown once, at creation.
      CREATE TABLE tokens (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_sha256 TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );

      -- subjects: JSON array of the strings exactly as given (aliases kept).
      CREATE TABLE quota_rules (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        limit_bytes INTEGER NOT NULL,
        subjects TEXT NOT NULL
      );

      CREATE TABLE quota_groups (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
      );

      CREATE TABLE quota_group_rules (
        group_id INTEGER NOT NULL REFERENCES quota_groups(id) ON DELETE CASCADE,
        rule_id INTEGER NOT NULL REFERENCES quota_rules(id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, rule_id)
      );

      CREATE TABLE quota_group_accounts (
        group_id INTEGER NOT NULL REFERENCES quota_groups(id) ON DELETE CASCADE,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, account_id)
      );
      CREATE INDEX quota_group_accounts_by_account ON quota_group_accounts(account_id);

      -- Instance content. charged_to is the repository owner that pays.
      CREATE TABLE repos (
        id INTEGER PRIMARY KEY,
        owner TEXT NOT NULL,
        name TEXT NOT NULL,
        is_private INTEGER NOT NULL,
        git_size INTEGER NOT NULL,
        lfs_size INTEGER NOT NULL
      );

      CREATE TABLE attachments (
        id INTEGER PRIMARY KEY,
        repo TEXT NOT NULL,
        charged_to TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        issue INTEGER,
        comment INTEGER,
        release TEXT,
        uploader TEXT
      );
      CREATE INDEX attachments_by_owner ON attachments(charged_to, size DESC);

      CREATE TABLE packages (
        id INTEGER PRIMARY KEY,
        owner TEXT NOT NULL,
        repo TEXT,
        charged_to TEXT NOT NULL,
        type TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        size INTEGER NOT NULL
      );
      CREATE INDEX packages_by_owner ON packages(charged_to, size DESC);

      CREATE TABLE artifacts (
        id INTEGER PRIMARY KEY,
        repo TEXT NOT NULL,
        charged_to TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        run_id INTEGER NOT NULL,
        expired INTEGER NOT NULL
      );
      CREATE INDEX artifacts_by_owner ON artifacts(charged_to, size DESC);
    `,
  },
  {
    version: 2,
    name: 'account names looked up without case',
    sql: `CREATE INDEX accounts_by_name_nocase ON accounts(name COLLATE NOCASE);`,
  },
  {
    version: 3,
    name: 'releases with ids, for attachment URLs',
    // A release attachment's container URL names the release by id, as Forgejo's does. Existing
    // attachments keep their tag; each (repo, tag) becomes one release, numbered in the order
    // its first attachment was stored.
    sql: `
      CREATE TABLE releases (
        id INTEGER PRIMARY KEY,
        repo TEXT NOT NULL,
        tag TEXT NOT NULL,
        UNIQUE (repo, tag)
      );
      INSERT INTO releases (repo, tag)
        SELECT repo, release FROM attachments WHERE release IS NOT NULL GROUP BY repo, release ORDER BY MIN(id);
      ALTER TABLE attachments ADD COLUMN release_id INTEGER REFERENCES releases(id);
      UPDATE attachments SET release_id = (SELECT r.id FROM releases r WHERE r.repo = attachments.repo AND r.tag = attachments.release)
        WHERE release IS NOT NULL;
    `,
  },
];
