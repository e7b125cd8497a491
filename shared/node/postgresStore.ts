/**
 * A DIY backend in PostgreSQL (`postgres://…`) as the backend model's writable store, through
 * node-postgres (`pg`), on the table Pulumi's driver keeps (pkg/backend/diy/postgres at v3.274.1): one
 * row per key (`key TEXT PRIMARY KEY, data JSON, updated_at TIMESTAMPTZ`), `data` holding
 * `{"data":"<base64 of the bytes>"}`, every key prefixed with the URL's path. The table and its index
 * are created as Pulumi creates them, when `to_regclass` does not find the table.
 *
 * A version is the row's `updated_at` (microseconds) and the SHA-256 of its `data` text. Neither alone
 * is safe: two transactions can start in the same microsecond (`now()` is the transaction's start), and
 * equal bytes can come back after a change (A, B, A). Together they can only be equal when the bytes
 * are equal, so a write made on a version that matches loses nothing: the row holds exactly what was
 * read. (`xmin` was not chosen: it wraps around, and a dump and reload changes it without a write.)
 * A conditional write is one UPDATE whose WHERE compares that version: PostgreSQL locks the row and,
 * when another transaction changed it meanwhile, evaluates the WHERE again on the new row (READ
 * COMMITTED's re-check), so no writer can come between the comparison and the write. Absent-only is
 * INSERT … ON CONFLICT DO NOTHING: no row inserted means the key exists.
 *
 * Listings page by key in byte order (text_pattern_ops' `~<~`, which Pulumi's index serves), from the
 * last key of the previous page, never by OFFSET. TLS follows lib/pq's `sslmode` (default `require`).
 * Credentials come from the URL, the PG* variables and ~/.pgpass; none is ever written or shown.
 * Its own esbuild entry, loaded only when a `postgres://` URL is used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { DatabaseError, Pool, type PoolConfig } from 'pg';
import { StoreConflict, StoreError, StoreMissing, type PostgresBackendUrl, type StoredObject, type StoreObject, type WritableBackendStore } from '../backend/vocabulary';

export interface PostgresStoreOptions {
  /** How long connecting or one query may take (a stalled server ends in an error, not a hang). */
  timeoutMs: number;
}

/** Rows per listing page: a page's memory stays small however many keys the table holds. */
const PAGE_SIZE = 1000;
/** Connections at once: reads run concurrently up to this, the rest wait in the pool's queue. */
const MAX_CONNECTIONS = 4;

/** lib/pq's schema.sql, verbatim but for the placeholders: the table as Pulumi creates it. */
const schemaSql = (table: string) => `CREATE TABLE IF NOT EXISTS ${table} (
    key TEXT PRIMARY KEY,
    data JSON NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS ${table}_key_prefix_idx ON ${table} (key text_pattern_ops);`;

/** The version of a row, computed by the server (no bytes travel for it). */
const VERSION_SQL = `(extract(epoch from updated_at) * 1000000)::bigint::text || ':' || encode(sha256(convert_to(data::text, 'UTF8')), 'hex')`;

/** A LIKE pattern matching names that start with `prefix` (its own % and _ escaped). */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What a failed query means, in words that name the backend and the object, never a secret. */
function explain(error: unknown, target: PostgresBackendUrl, what: string, timeoutMs: number): StoreError {
  const where = target.shown;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? '';
  if (error instanceof StoreError) return error;
  if (error instanceof DatabaseError) {
    if (code === '28P01' || code === '28000') {
      return new StoreError(`${what}: ${where} refused the credentials (${message}); they come from the URL's user, PGUSER and PGPASSWORD, or ~/.pgpass (PGPASSFILE)`);
    }
    if (code === '3D000') return new StoreError(`${what}: ${where}: there is no database "${target.connection.database ?? target.connection.user ?? ''}" (${message})`);
    if (code === '42501') return new StoreError(`${what}: ${where}: not allowed on table ${target.table} (${message})`);
    return new StoreError(`${what}: ${where} (table ${target.table}) answered ${code} ${message}`);
  }
  if (/does not support SSL/i.test(message)) {
    return new StoreError(
      `${what}: ${where}: the server does not support TLS, and sslmode defaults to "require" (as lib/pq, which Pulumi uses); add sslmode=disable to the URL (or set PGSSLMODE=disable) for a server without TLS`,
    );
  }
  if (/timeout|timed out/i.test(message)) return new StoreError(`${what}: ${where} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENOENT'].includes(code)) {
    return new StoreError(`${what}: ${where}: cannot reach the server at ${target.connection.hostaddr ?? target.connection.host}:${target.connection.port} (${code})`);
  }
  if (/terminated|ECONNRESET|EPIPE|shutting down/i.test(`${message} ${code}`)) return new StoreError(`${what}: ${where}: the connection to the server was lost (${message})`);
  return new StoreError(`${what}: ${where}: ${message}`);
}

/** A PEM file's text (or the text itself with sslinline), undefined when a default file is absent. */
function pem(value: string | undefined, inline: boolean, fallback: string): string | undefined {
  if (value !== undefined) return inline ? value : readFileSync(value, 'utf8');
  return existsSync(fallback) ? readFileSync(fallback, 'utf8') : undefined;
}

/** lib/pq's ssl.go: `require` checks nothing unless a root certificate is there (then as verify-ca); verify-ca checks the chain, verify-full the host too. */
function tlsOptions(target: PostgresBackendUrl): ConnectionOptions | false {
  const c = target.connection;
  if (c.sslMode === 'disable' || c.sslMode === 'allow') return false;
  const folder = join(homedir(), '.postgresql');
  const rootCert = c.sslRootCert === 'system' ? undefined : pem(c.sslRootCert, false, join(folder, 'root.crt'));
  const cert = pem(c.sslCert, c.sslInline, join(folder, 'postgresql.crt'));
  const key = cert === undefined ? undefined : pem(c.sslKey, c.sslInline, join(folder, 'postgresql.key'));
  const verify = c.sslMode === 'verify-ca' || c.sslMode === 'verify-full' || rootCert !== undefined;
  return {
    rejectUnauthorized: verify,
    ...(rootCert !== undefined ? { ca: rootCert } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(c.sslMode !== 'verify-full' ? { checkServerIdentity: () => undefined } : {}),
    ...(c.sslSni && !/^[0-9.]+$|:/.test(c.host) ? { servername: c.host } : {}),
    ...(c.sslMinProtocolVersion ? { minVersion: c.sslMinProtocolVersion as ConnectionOptions['minVersion'] } : {}),
    ...(c.sslMaxProtocolVersion ? { maxVersion: c.sslMaxProtocolVersion as ConnectionOptions['maxVersion'] } : {}),
  };
}

function poolConfig(target: PostgresBackendUrl, options: PostgresStoreOptions, ssl: ConnectionOptions | false): PoolConfig {
  const c = target.connection;
  const user = c.user ?? process.env.USER ?? userInfo().username;
  // node-postgres reads ~/.pgpass (or PGPASSFILE) when no password is given, as lib/pq does.
  if (c.passfile && !c.password) process.env.PGPASSFILE = c.passfile;
  const connectMs = c.connectTimeoutSeconds !== undefined ? Math.min(c.connectTimeoutSeconds * 1000, options.timeoutMs) : options.timeoutMs;
  return {
    host: c.hostaddr ?? c.host,
    port: c.port,
    user,
    database: c.database ?? user,
    ...(c.password ? { password: c.password } : {}),
    ssl,
    ...(c.applicationName ? { application_name: c.applicationName } : {}),
    ...(c.options ? { options: c.options } : {}),
    max: MAX_CONNECTIONS,
    connectionTimeoutMillis: connectMs,
    query_timeout: options.timeoutMs,
    // An idle pool does not keep the CLI's process alive.
    allowExitOnIdle: true,
    idleTimeoutMillis: 5_000,
  };
}

/** A pool with lib/pq's TLS choice: `prefer` tries TLS, then a plain connection; `allow` the other way round. */
async function openPool(target: PostgresBackendUrl, options: PostgresStoreOptions): Promise<Pool> {
  const first = tlsOptions(target);
  const pool = new Pool(poolConfig(target, options, first));
  pool.on('error', () => undefined);
  const mode = target.connection.sslMode;
  if (mode !== 'prefer' && mode !== 'allow') return pool;
  try {
    (await pool.connect()).release();
    return pool;
  } catch (error) {
    const refusedTls = mode === 'prefer' && /does not support SSL/i.test(String((error as Error).message));
    const refusedPlain = mode === 'allow' && error instanceof DatabaseError && error.code === '28000';
    if (!refusedTls && !refusedPlain) return pool;
    await pool.end().catch(() => undefined);
    const other = new Pool(poolConfig(target, options, mode === 'prefer' ? false : { ...tlsOptionsFor(target, 'require') }));
    other.on('error', () => undefined);
    return other;
  }
}

const tlsOptionsFor = (target: PostgresBackendUrl, sslMode: 'require') => tlsOptions({ ...target, connection: { ...target.connection, sslMode } }) as ConnectionOptions;

/** One page of the keys under `prefix`, after `cursor`: byte order (text_pattern_ops' `~<~`), sizes from the base64 length. */
async function listPage(pool: Pool, target: PostgresBackendUrl, prefix: string, cursor: string | undefined): Promise<{ objects: StoreObject[]; next?: string }> {
  const from = cursor === undefined ? { op: '~>=~', key: `${target.prefix}${prefix}` } : { op: '~>~', key: `${target.prefix}${cursor}` };
  const result = await pool.query<{ key: string; modified_ms: number; size: number }>(
    `SELECT key, modified_ms, octet_length(d) / 4 * 3 - CASE WHEN right(d, 2) = '==' THEN 2 WHEN right(d, 1) = '=' THEN 1 ELSE 0 END AS size
       FROM (SELECT key, (extract(epoch from updated_at) * 1000)::float8 AS modified_ms, data->>'data' AS d FROM ${target.table}
              WHERE key LIKE $1 ESCAPE '\\' AND key ${from.op} $2 ORDER BY key USING ~<~ LIMIT ${PAGE_SIZE + 1}) page
      ORDER BY key USING ~<~`,
    [likePrefix(`${target.prefix}${prefix}`), from.key],
  );
  const objects: StoreObject[] = result.rows
    .slice(0, PAGE_SIZE)
    .map((row) => ({ name: row.key.slice(target.prefix.length), size: Math.max(0, Number(row.size ?? 0)), modifiedMs: Number(row.modified_ms) }));
  return { objects, ...(result.rows.length > PAGE_SIZE ? { next: objects[objects.length - 1].name } : {}) };
}

export function postgresBackendStore(target: PostgresBackendUrl, options: PostgresStoreOptions): WritableBackendStore & { destroy(): void } {
  const table = target.table;
  const keyOf = (name: string) => `${target.prefix}${name}`;
  let opened: Promise<Pool> | undefined;
  let destroyed = false;

  /** The pool, once the table is known to exist (created as Pulumi creates it when it does not). */
  const ready = (): Promise<Pool> => {
    opened ??= (async () => {
      const pool = await openPool(target, options);
      try {
        const found = await pool.query<{ name: string | null }>('SELECT to_regclass($1)::text AS name', [table]);
        if (found.rows[0]?.name == null) await pool.query(schemaSql(table));
        return pool;
      } catch (error) {
        await pool.end().catch(() => undefined);
        throw error;
      }
    })();
    // A failed start (a server down, a wrong password) is tried again by the next call.
    opened.catch(() => (opened = undefined));
    return opened;
  };
  const run = async <T>(what: string, body: (pool: Pool) => Promise<T>): Promise<T> => {
    if (destroyed) throw new StoreError(`${what}: ${target.shown}: the store was closed`);
    try {
      return await body(await ready());
    } catch (error) {
      throw explain(error, target, what, options.timeoutMs);
    }
  };

  const read = (name: string, length?: number): Promise<StoredObject> =>
    run(name, async (pool) => {
      // Base64 turns each 3 bytes into 4 characters: the first `length` bytes need ceil(length/3)*4 of them.
      const data = length === undefined ? `data->>'data'` : `left(data->>'data', ${Math.ceil(Math.max(length, 1) / 3) * 4})`;
      const result = await pool.query<{ version: string; data: string | null }>(`SELECT ${VERSION_SQL} AS version, ${data} AS data FROM ${table} WHERE key = $1`, [keyOf(name)]);
      const row = result.rows[0];
      if (!row) throw new StoreMissing(`${target.shown}: no object ${name} (no row "${keyOf(name)}" in table ${table})`);
      return { bytes: new Uint8Array(Buffer.from(row.data ?? '', 'base64')), version: row.version };
    });

  const write = (name: string, bytes: Uint8Array, ifVersion: string | null | undefined): Promise<void> =>
    run(name, async (pool) => {
      // The JSON text Pulumi's driver writes (Go's json.Marshal of {"data": base64}): base64 needs no escaping.
      const data = `{"data":"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}"}`;
      const key = keyOf(name);
      let written: number | null;
      if (ifVersion === undefined) {
        written = (await pool.query(`INSERT INTO ${table} (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = $2, updated_at = now()`, [key, data])).rowCount;
      } else if (ifVersion === null) {
        written = (await pool.query(`INSERT INTO ${table} (key, data) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, data])).rowCount;
      } else {
        written = (await pool.query(`UPDATE ${table} SET data = $2, updated_at = now() WHERE key = $1 AND ${VERSION_SQL} = $3`, [key, data, ifVersion])).rowCount;
      }
      if (written !== 1) {
        throw new StoreConflict(
          ifVersion === null ? `${name} already exists in ${target.shown} (another writer); nothing was written` : `${name} changed since it was read (another writer); nothing was written`,
        );
      }
    });

  return {
    url: target.shown,
    listPage: (prefix, cursor) => run(`listing ${prefix || '/'}`, (pool) => listPage(pool, target, prefix, cursor)),
    read: (name, readOptions) => read(name, readOptions?.length),
    write: (name, bytes, condition = {}) => write(name, bytes, condition.ifVersion),
    delete: (name) => run(name, async (pool) => void (await pool.query(`DELETE FROM ${table} WHERE key = $1`, [keyOf(name)]))),
    destroy: () => {
      destroyed = true;
      const pending = opened;
      opened = undefined;
      void pending?.then((pool) => pool.end()).catch(() => undefined);
    },
  };
}
