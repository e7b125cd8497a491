/**
 * The reference server's database connection and what it caches. The reads and writes live beside
 * it, one module per resource: `rules.ts`, `groups.ts`, `users.ts` (accounts and group members),
 * `tokens.ts`, `repositories.ts`, `usage.ts` (content and usage lists), `settings.ts`,
 * `evaluation.ts` (the model and verdicts of an account) and `seeding.ts`. Each takes this object;
 * statements that belong together run through db.ts's one `transaction` helper. Uniqueness is
 * enforced by the schema, so concurrent creates of one name cannot both succeed even across
 * processes. Domain failures are thrown as `HttpError`s carrying Forgejo's messages.
 */
import type { Statement } from 'better-sqlite3';
import * as fs from 'node:fs';
import { type QuotaIndex, DEFAULT_FORGEJO_PROFILE, type ForgejoProfile, type LeafUsage, type QuotaModel } from '../../shared/quota';
import type { Db } from '../db';
import type { Account, QuotaSettings } from './rows';

/** Whatever a cache holds, tagged with the `generation` it was read at. */
interface Generational {
  generation: number;
}

/**
 * The two copies of the WAL-index header at the start of the `-shm` file (sqlite.org/walformat.html,
 * 2.1): every commit by any connection rewrites them (`iChange`, `mxFrame`, the salts), while reads
 * and checkpoints leave them alone.
 */
const WAL_INDEX_HEADERS_BYTES = 96;

/** Whether another connection (another process) committed since the last call, and how to let go of the file it reads. */
interface OtherCommits {
  since(): boolean;
  close(): void;
}

/**
 * Reads the WAL-index header: one pread, where `PRAGMA data_version` takes and drops a read lock,
 * which cost a third of a cached check. Without a `-shm` file to read it asks `data_version`; an
 * in-memory database has no other connection.
 */
function watchOtherCommits(db: Db): OtherCommits {
  if (db.memory) return { since: () => false, close: () => {} };
  const shm = db.pragma('journal_mode', { simple: true }) === 'wal' ? openShm(db.name) : undefined;
  if (shm !== undefined) {
    const seen = Buffer.alloc(WAL_INDEX_HEADERS_BYTES);
    const current = Buffer.alloc(WAL_INDEX_HEADERS_BYTES);
    return {
      since: () => {
        current.fill(0);
        fs.readSync(shm, current, 0, WAL_INDEX_HEADERS_BYTES, 0);
        if (current.equals(seen)) return false;
        current.copy(seen);
        return true;
      },
      close: () => fs.closeSync(shm),
    };
  }
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen: unknown;
  return {
    since: () => {
      const current = dataVersion.get();
      if (current === seen) return false;
      seen = current;
      return true;
    },
    close: () => {},
  };
}

/** The database's `-shm` file, named as SQLite names it (beside the file a link points to); undefined when absent. */
function openShm(databaseFile: string): number | undefined {
  try {
    return fs.openSync(`${fs.realpathSync(databaseFile)}-shm`, 'r');
  } catch {
    return undefined;
  }
}

export class QuotaStore {
  /** app.ini's settings (`quota-api --config`), answered over the database's while this process runs. */
  settingsOverrides: Partial<QuotaSettings> = {};
  /** Valid while `generation()` stays the same: the database's settings, the leaf usage of every account, and per account or token. */
  settingsCache: (Generational & { settings: QuotaSettings }) | undefined;
  usageCache: (Generational & { usage: Map<string, LeafUsage> }) | undefined;
  readonly modelCache = new Map<number, Generational & { model: QuotaModel }>();
  readonly verdictCache = new Map<number, Generational & { index: QuotaIndex; usage: LeafUsage; verdicts: Map<string, boolean> }>();
  readonly tokenCache = new Map<string, Generational & { account: Account | undefined }>();
  private readonly statements = new Map<string, Statement>();
  private readonly ownChanges: Statement;
  private readonly otherCommits: OtherCommits;
  private currentGeneration = 0;
  private ownChangesSeen = -1;

  constructor(
    readonly db: Db,
    /** The Forgejo version the server answers as: its evaluation generation and `size:all`. */
    readonly forgejo: ForgejoProfile = DEFAULT_FORGEJO_PROFILE,
  ) {
    this.ownChanges = db.prepare('SELECT total_changes()').pluck();
    this.otherCommits = watchOtherCommits(db);
  }

  close(): void {
    this.otherCommits.close();
    this.db.close();
  }

  /** A prepared statement compiled once per store (the hot paths: sign-in and checks). */
  cached(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Changes whenever anything is committed: every write of this process goes through this one
   * connection, whose `total_changes()` counts each row it inserts, updates or deletes, and another
   * process's commit shows in the WAL-index header. Cached reads are reused only while it stays the same.
   */
  generation(): number {
    // Inside a transaction what is read may still roll back: a generation no later call returns.
    if (this.db.inTransaction) {
      this.ownChangesSeen = -1;
      return ++this.currentGeneration;
    }
    const own = this.ownChanges.get() as number;
    const others = this.otherCommits.since();
    if (own !== this.ownChangesSeen || others) {
      this.ownChangesSeen = own;
      this.currentGeneration++;
    }
    return this.currentGeneration;
  }

  /** The cached value of `key` when it was read at `generation`; else `read()`, remembered. */
  throughCache<K, V extends Generational>(cache: Map<K, V>, key: K, generation: number, read: () => V): V {
    const cached = cache.get(key);
    if (cached && cached.generation === generation) return cached;
    const value = read();
    // Bounded: a burst of distinct accounts or tokens cannot grow memory without limit.
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, value);
    return value;
  }
}
