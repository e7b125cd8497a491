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
import { type QuotaIndex, DEFAULT_FORGEJO_PROFILE, type ForgejoProfile, type LeafUsage, type QuotaModel } from '../../shared/quota';
import type { Db } from '../db';
import type { Account, QuotaSettings } from './rows';

/** Whatever a cache holds, tagged with the `generation` it was read at. */
interface Generational {
  generation: string;
}

export class QuotaStore {
  /** app.ini's settings (`quota-api --config`), answered over the database's while this process runs. */
  settingsOverrides: Partial<QuotaSettings> = {};
  /** The database's settings and the leaf usage of every account: only seeding changes them. */
  settingsCache: QuotaSettings | undefined;
  usageCache: Map<string, LeafUsage> | undefined;
  /** Per account or token, valid while `generation()` stays the same. */
  readonly modelCache = new Map<number, Generational & { model: QuotaModel }>();
  readonly verdictCache = new Map<number, Generational & { index: QuotaIndex; usage: LeafUsage; verdicts: Map<string, boolean> }>();
  readonly tokenCache = new Map<string, Generational & { account: Account | undefined }>();
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly db: Db,
    /** The Forgejo version the server answers as: its evaluation generation and `size:all`. */
    readonly forgejo: ForgejoProfile = DEFAULT_FORGEJO_PROFILE,
  ) {}

  close(): void {
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

  /** The cached value of `key` when it was read at `generation`; else `read()`, remembered. */
  throughCache<K, V extends Generational>(cache: Map<K, V>, key: K, generation: string, read: () => V): V {
    const cached = cache.get(key);
    if (cached && cached.generation === generation) return cached;
    const value = read();
    // Bounded: a burst of distinct accounts or tokens cannot grow memory without limit.
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, value);
    return value;
  }
}
