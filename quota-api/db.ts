/**
 * Opens the SQLite database with the settings durability needs, and applies migrations.
 *
 * - WAL journal with `synchronous = FULL`: every commit is fsynced before the statement
 *   returns, so a write the API has acknowledged survives SIGKILL or power loss.
 * - `busy_timeout`: a second process (e.g. `quota-api token create`) waits instead of failing.
 * - Migrations run in order, each in its own transaction, recorded in `schema_migrations`.
 * - `transaction` is the one way anything here or in `store/` runs statements together.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

const IN_MEMORY = ':memory:';

export function openDatabase(file: string): Db {
  if (file !== IN_MEMORY) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  if (file !== IN_MEMORY) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * Runs `body` in one transaction (better-sqlite3's `db.transaction`; a nested call is a savepoint).
 * `write` begins IMMEDIATE: the write lock is taken first, so two processes writing at once queue
 * at busy_timeout instead of one failing at commit. `read` is deferred: one consistent snapshot.
 * A throw rolls everything back.
 */
export function transaction<T>(db: Db, mode: 'read' | 'write', body: () => T): T {
  const run = db.transaction(body);
  return mode === 'write' ? run.immediate() : run();
}

/** Applies every migration not yet recorded; returns the versions applied now. */
function migrate(db: Db): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  const newlyApplied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE: two processes opening a fresh file at once must not both apply a migration.
    transaction(db, 'write', () => {
      const again = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
      if (again) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
      newlyApplied.push(migration.version);
    });
  }
  return newlyApplied;
}
