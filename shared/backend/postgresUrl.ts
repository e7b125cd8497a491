/**
 * A Pulumi DIY backend in PostgreSQL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB?…`), read as Pulumi
 * v3.274.1 reads it, step by step:
 *  1. Go's `net/url.Parse` (shared/text/goUrl.ts) and `IsDIYBackendURL`: the scheme is lowercased, and
 *     only `postgres` is registered (pkg/backend/diy/postgres/backend.go; `postgresql://` is not a
 *     Pulumi backend);
 *  2. `NewPostgresBucket` (diy/postgres/bucket.go): `table=` (first value, default `pulumi_state`) is
 *     taken out of the query, the rest of the URL goes to lib/pq v1.12.3;
 *  3. lib/pq `NewConfig` (connector.go): its defaults, then the PG* environment (some variables are
 *     refused outright), then the URL as `convertURL` turns it into `key='value'` pairs (empty values
 *     dropped, the pairs sorted, so of two values for one key the greater wins); a key lib/pq does not
 *     know is a run-time parameter sent at startup (`search_path=…`). `sslmode` defaults to `require`,
 *     not libpq's `prefer` and not node-postgres's plain connection;
 *     A URL without a host, a path and a user (`postgres://`, `postgres://?…`) never reaches lib/pq as a
 *     URL: Go's `URL.String` writes it `postgres:`, so Pulumi fails on it (refused here too).
 *  4. `newDIYBackend` (diy/backend.go): the URL's path, without its leading slashes and with a trailing
 *     one, prefixes every key (`…/dbg` keeps `dbg/.pulumi/meta.yaml`), although lib/pq reads the same
 *     path as the database name.
 * Pure: no I/O, no Node built-ins; the environment is given.
 */
import * as l10n from '@vscode/l10n';
import { goParseQuery, goParseUrl, GoUrlError, NotUtf8Error, type GoValues } from '../text/goUrl';

export class PostgresUrlError extends Error {}

/** lib/pq's `sslModes`, its own order. */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-full', 'verify-ca'] as const;
type PostgresSslMode = (typeof SSL_MODES)[number];

interface PostgresConnection {
  /** A host name, an IP address, or an absolute folder holding the server's Unix socket. */
  host: string;
  port: number;
  /** `hostaddr`: the address dialed instead of resolving `host` (which TLS still names). */
  hostaddr?: string;
  /** Absent: the server takes the user's name, as libpq. */
  database?: string;
  /** Absent: the operating system's user, as lib/pq ($USER, then the current user). */
  user?: string;
  /** A function, so that a serialized or logged connection never holds the password. */
  password?: () => string;
  passfile?: string;
  sslMode: PostgresSslMode;
  sslCert?: string;
  sslKey?: string;
  /** A file, or `system` (the platform's roots; the mode then defaults to verify-full). */
  sslRootCert?: string;
  /** `sslinline`: sslcert and sslkey hold the PEM text itself. */
  sslInline: boolean;
  sslSni: boolean;
  sslMinProtocolVersion?: string;
  sslMaxProtocolVersion?: string;
  connectTimeoutSeconds?: number;
  applicationName?: string;
  /** `options`, with the run-time parameters lib/pq sends at startup appended as `-c name=value`. */
  options?: string;
}

export interface PostgresBackendUrl {
  /** The URL as messages name it: never a password (the user info keeps the user, `password=` is dropped). */
  shown: string;
  /** Same as `shown` (the store's `url`). */
  url: string;
  /** The table of one row per key (`table=`, else `pulumi_state`), as Pulumi puts it into its SQL. */
  table: string;
  /** Every key's prefix: '' or `DB/` (the URL's path), as newDIYBackend wraps the bucket. */
  prefix: string;
  connection: PostgresConnection;
  /** lib/pq settings Pulumi accepts that change nothing node-postgres does here (named so the caller can say so). */
  ignored: string[];
}

/** lib/pq's connection settings (`postgres:` tags of Config) and their environment variables (`env:` tags). */
const SETTINGS: Record<string, string | undefined> = {
  host: 'PGHOST',
  hostaddr: 'PGHOSTADDR',
  port: 'PGPORT',
  dbname: 'PGDATABASE',
  user: 'PGUSER',
  password: 'PGPASSWORD',
  passfile: 'PGPASSFILE',
  options: 'PGOPTIONS',
  application_name: 'PGAPPNAME',
  fallback_application_name: undefined,
  sslmode: 'PGSSLMODE',
  sslnegotiation: 'PGSSLNEGOTIATION',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  sslrootcert: 'PGSSLROOTCERT',
  sslsni: 'PGSSLSNI',
  // lib/pq v1.12.3's tags spell these two SSLPG..., not PGSSL...
  ssl_min_protocol_version: 'SSLPGMINPROTOCOLVERSION',
  ssl_max_protocol_version: 'SSLPGMAXPROTOCOLVERSION',
  sslinline: undefined,
  krbsrvname: 'PGKRBSRVNAME',
  krbspn: undefined,
  connect_timeout: 'PGCONNECT_TIMEOUT',
  binary_parameters: undefined,
  disable_prepared_binary_result: undefined,
  client_encoding: 'PGCLIENTENCODING',
  datestyle: 'PGDATESTYLE',
  tz: 'PGTZ',
  geqo: 'PGGEQO',
  target_session_attrs: 'PGTARGETSESSIONATTRS',
  load_balance_hosts: 'PGLOADBALANCEHOSTS',
  min_protocol_version: 'PGMINPROTOCOLVERSION',
  max_protocol_version: 'PGMAXPROTOCOLVERSION',
  service: 'PGSERVICE',
};

/** Variables lib/pq's `fromEnv` refuses: Pulumi fails on any of them being set. */
const REFUSED_ENV = [
  'PGREQUIRESSL',
  'PGSSLCOMPRESSION',
  'PGREALM',
  'PGGSSENCMODE',
  'PGGSSDELEGATION',
  'PGGSSLIB',
  'PGREQUIREAUTH',
  'PGCHANNELBINDING',
  'PGSSLCERTMODE',
  'PGSSLCRL',
  'PGSSLCRLDIR',
  'PGREQUIREPEER',
  // Kerberos is not compiled into Pulumi's lib/pq (no `newGss`).
  'PGKRBSRVNAME',
];

/** Settings with a fixed set of values, lib/pq's lists. */
const CHOICES: Record<string, readonly string[]> = {
  sslmode: SSL_MODES,
  sslnegotiation: ['postgres', 'direct'],
  target_session_attrs: ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'],
  load_balance_hosts: ['disable', 'random'],
  min_protocol_version: ['3.0', '3.2', 'latest'],
  max_protocol_version: ['3.0', '3.2', 'latest'],
  ssl_min_protocol_version: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
  ssl_max_protocol_version: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
};

const BOOLEANS = new Set(['sslsni', 'sslinline', 'binary_parameters', 'disable_prepared_binary_result']);
const PQ_TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True', 'yes', 'on']);
const PQ_FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False', 'no', 'off']);

/** Accepted, and without effect on what this store does (a single host, protocol 3.0, no Kerberos, no prepared statements of lib/pq's). */
const WITHOUT_EFFECT = ['target_session_attrs', 'load_balance_hosts', 'min_protocol_version', 'max_protocol_version', 'krbspn', 'binary_parameters', 'disable_prepared_binary_result', 'tz', 'geqo'];

/**
 * A table name is spliced into Pulumi's SQL as written. The same text goes into this store's SQL, so it
 * is held to what cannot change a statement: an unquoted identifier, optionally schema-qualified.
 */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/;

/** True for `postgres://` (any case, as Go lowercases the scheme). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres:/i.test(url);
}

/** A query pair's decoded name (Go's queryComponent unescaping, loosely: enough to recognise a secret's name). */
function pairName(pair: string): string {
  const name = pair.split('=')[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** The URL without a password: the user info keeps only the user, a `password=` (or `sslkey=` with `sslinline`) pair is dropped. */
function withoutSecrets(url: string): string {
  const queryAt = url.indexOf('?');
  const beforeQuery = queryAt < 0 ? url : url.slice(0, queryAt);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(beforeQuery)?.[0] ?? '';
  const authorityEnd = beforeQuery.slice(scheme.length).search(/[/#]/);
  const authority = authorityEnd < 0 ? beforeQuery.slice(scheme.length) : beforeQuery.slice(scheme.length, scheme.length + authorityEnd);
  const rest = beforeQuery.slice(scheme.length + authority.length);
  // Go splits the user info off at the last '@' of the authority; the password is after its first ':'.
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  const user = userinfo.includes(':') ? userinfo.slice(0, userinfo.indexOf(':')) : userinfo;
  const shownBase = `${scheme}${at < 0 ? authority : `${user}@${authority.slice(at + 1)}`}${rest}`;
  if (queryAt < 0) return shownBase;
  const pairs = url.slice(queryAt + 1).split('&');
  const inline = pairs.some((pair) => pairName(pair) === 'sslinline');
  const kept = pairs.filter((pair) => !['password', 'sslpassword', ...(inline ? ['sslkey'] : [])].includes(pairName(pair)));
  return kept.length === 0 ? shownBase : `${shownBase}?${kept.join('&')}`;
}

/** Go's `unescape` of a user info part (already validated by goParseUrl): %XX bytes, '+' kept. */
function unescapeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The user info of the authority (goParseUrl checks it and returns the host alone). */
function userinfoOf(raw: string): { user?: string; password?: string } {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(raw);
  const authority = match?.[1] ?? '';
  const at = authority.lastIndexOf('@');
  if (at < 0) return {};
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: unescapeUserinfo(userinfo) };
  return { user: unescapeUserinfo(userinfo.slice(0, colon)), password: unescapeUserinfo(userinfo.slice(colon + 1)) };
}

/** Go's `net.SplitHostPort` as convertURL uses it: a host without a port is taken whole (brackets dropped here). */
function splitHostPort(host: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]*)\](?::([^:]*))?$/.exec(host);
  if (bracketed) return bracketed[2] !== undefined ? { host: bracketed[1], port: bracketed[2] } : { host: bracketed[1] };
  const colon = host.lastIndexOf(':');
  if (colon < 0 || host.indexOf(':') !== colon) return { host };
  return { host: host.slice(0, colon), port: host.slice(colon + 1) };
}

/**
 * lib/pq's `convertURL`: `key='value'` pairs of the user info, host, port, path and each query key's
 * first value, empty ones dropped, sorted as strings and read in that order, so of two values for a
 * key (`user` in the user info and in the query) the one whose pair sorts last wins.
 */
function convertUrl(host: string, path: string, raw: string, query: GoValues): Map<string, string> {
  const pairs: Array<[string, string]> = [];
  const accrue = (key: string, value: string | undefined) => {
    if (value) pairs.push([key, value]);
  };
  const { user, password } = userinfoOf(raw);
  accrue('user', user);
  accrue('password', password);
  const split = splitHostPort(host);
  accrue('host', split.host);
  accrue('port', split.port);
  if (path !== '') accrue('dbname', path.slice(1));
  for (const [key, values] of query) accrue(key, values[0]);
  const escaped = ([key, value]: [string, string]) => `${key}='${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  pairs.sort((a, b) => (escaped(a) < escaped(b) ? -1 : escaped(a) > escaped(b) ? 1 : 0));
  const settings = new Map<string, string>();
  for (const [key, value] of pairs) settings.set(key === 'database' ? 'dbname' : key, value);
  return settings;
}

/** lib/pq's `fromEnv`: the refused variables, then each setting's variable. */
function fromEnvironment(env: Readonly<Record<string, string | undefined>>, shown: string): Map<string, string> {
  for (const name of REFUSED_ENV) {
    if (env[name] !== undefined) throw new PostgresUrlError(l10n.t('{0}: the environment variable {1} is set, and Pulumi (lib/pq) refuses to connect with it: unset it', shown, name));
  }
  const settings = new Map<string, string>();
  for (const [setting, variable] of Object.entries(SETTINGS)) {
    const value = variable === undefined ? undefined : env[variable];
    if (value !== undefined) settings.set(setting, value);
  }
  return settings;
}

/** lib/pq's "wrong value" refusals, each a whole sentence. */
const WRONG_VALUE = {
  choice: (shown: string, key: string, value: string, choices: string) => l10n.t('{0}: wrong value for "{1}": "{2}" is not supported; supported values are {3}', shown, key, value, choices),
  boolean: (shown: string, key: string, value: string) => l10n.t('{0}: wrong value for "{1}": "{2}" is not a boolean', shown, key, value),
  seconds: (shown: string, key: string, value: string) => l10n.t('{0}: wrong value for "{1}": "{2}" is not a whole number of seconds', shown, key, value),
  port: (shown: string, key: string, value: string) => l10n.t('{0}: wrong value for "{1}": "{2}" is not a port number', shown, key, value),
  address: (shown: string, key: string, value: string) => l10n.t('{0}: wrong value for "{1}": "{2}" is not an IP address', shown, key, value),
};

/** lib/pq's checks of one setting's value (`setFromTag`). */
function checkValue(key: string, value: string, shown: string): void {
  const choices = Object.hasOwn(CHOICES, key) ? CHOICES[key] : undefined;
  if (choices && !choices.includes(value)) throw new PostgresUrlError(WRONG_VALUE.choice(shown, key, value, choices.join(', ')));
  if (BOOLEANS.has(key) && !PQ_TRUE.has(value) && !PQ_FALSE.has(value)) throw new PostgresUrlError(WRONG_VALUE.boolean(shown, key, value));
  if (key === 'connect_timeout' && !/^[+-]?[0-9]+$/.test(value)) throw new PostgresUrlError(WRONG_VALUE.seconds(shown, key, value));
  if (key === 'port') {
    for (const port of value.split(',')) {
      if (!/^[0-9]+$/.test(port || '5432') || Number(port || '5432') > 65535) throw new PostgresUrlError(WRONG_VALUE.port(shown, key, value));
    }
  }
  if (key === 'client_encoding' && !['utf8', 'unicode'].includes(value.toLowerCase().replace(/[^a-z0-9]/g, ''))) {
    throw new PostgresUrlError(l10n.t('{0}: unsupported client_encoding "{1}": must be absent or "UTF8"', shown, value));
  }
  if (key === 'hostaddr' && !value.split(',').every((address) => address === '' || /^[0-9.]+$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.%a-zA-Z]*$/.test(address))) {
    throw new PostgresUrlError(WRONG_VALUE.address(shown, key, value));
  }
  if (key === 'datestyle' && value !== 'ISO, MDY') throw new PostgresUrlError(l10n.t('{0}: unsupported datestyle "{1}": must be absent or "ISO, MDY"', shown, value));
}

/** What lib/pq accepts and node-postgres cannot do: refused with the reason, rather than connecting otherwise. */
function refuseUnsupported(settings: Map<string, string>, shown: string): void {
  const host = settings.get('host') ?? '';
  if (host.includes(',') || (settings.get('hostaddr') ?? '').includes(',') || (settings.get('port') ?? '').includes(',')) {
    throw new PostgresUrlError(l10n.t('{0}: several hosts or ports: quota-state connects to one server (give one host and port)', shown));
  }
  if (host.startsWith('@')) throw new PostgresUrlError(l10n.t('{0}: "{1}" is a socket in the abstract namespace, which quota-state cannot reach (give a host or a socket folder)', shown, host));
  if (settings.get('sslnegotiation') === 'direct') throw new PostgresUrlError(l10n.t('{0}: sslnegotiation=direct is not supported by quota-state (leave it out: TLS is negotiated)', shown));
  if (settings.has('service'))
    throw new PostgresUrlError(
      l10n.t('{0}: service "{1}": quota-state does not read ~/.pg_service.conf (give the connection settings in the URL or the PG* variables)', shown, settings.get('service') ?? ''),
    );
}

/** lib/pq's end of `newConfig`: the SSL mode's default and its checks. */
function sslModeOf(settings: Map<string, string>, host: string, shown: string): PostgresSslMode {
  let mode = (settings.get('sslmode') ?? 'require') as PostgresSslMode;
  // SSL is neither necessary nor supported over a Unix socket.
  if (host.startsWith('/') && !settings.has('hostaddr')) mode = 'disable';
  if (settings.get('sslrootcert') === 'system') {
    if (!settings.has('sslmode')) mode = 'verify-full';
    if (mode !== 'verify-full') throw new PostgresUrlError(l10n.t('{0}: weak sslmode "{1}" may not be used with sslrootcert=system (use "verify-full")', shown, mode));
  }
  return mode;
}

/** lib/pq's `options` plus its run-time parameters, as the server reads the startup `options` (`-c name=value`, spaces escaped). */
function optionsOf(settings: Map<string, string>, runtime: Map<string, string>): string | undefined {
  const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/ /g, '\\ ');
  const parts = [...(settings.get('options') ? [settings.get('options') as string] : []), ...[...runtime].map(([name, value]) => `-c ${escape(name)}=${escape(value)}`)];
  return parts.length ? parts.join(' ') : undefined;
}

function connectionOf(settings: Map<string, string>, runtime: Map<string, string>, shown: string): PostgresConnection {
  const host = settings.get('host') || 'localhost';
  const flag = (key: string, otherwise: boolean) => (settings.has(key) ? PQ_TRUE.has(settings.get(key) as string) : otherwise);
  const password = settings.get('password');
  const defined = <T>(key: string, value: T | undefined) => (value === undefined || value === '' ? {} : { [key]: value });
  return {
    host,
    port: Number(settings.get('port') || '5432'),
    ...defined('hostaddr', settings.get('hostaddr')),
    ...defined('database', settings.get('dbname')),
    ...defined('user', settings.get('user')),
    ...(password ? { password: () => password } : {}),
    ...defined('passfile', settings.get('passfile')),
    sslMode: sslModeOf(settings, host, shown),
    ...defined('sslCert', settings.get('sslcert')),
    ...defined('sslKey', settings.get('sslkey')),
    ...defined('sslRootCert', settings.get('sslrootcert')),
    sslInline: flag('sslinline', false),
    sslSni: flag('sslsni', true),
    ...defined('sslMinProtocolVersion', settings.get('ssl_min_protocol_version')),
    ...defined('sslMaxProtocolVersion', settings.get('ssl_max_protocol_version')),
    ...(Number(settings.get('connect_timeout')) > 0 ? { connectTimeoutSeconds: Number(settings.get('connect_timeout')) } : {}),
    ...defined('applicationName', settings.get('application_name') || settings.get('fallback_application_name')),
    ...defined('options', optionsOf(settings, runtime)),
  };
}

/** `newDIYBackend`: the path without its leading slashes, with a trailing one. */
function keyPrefix(path: string): string {
  const subDir = path.replace(/^\/+/, '');
  return subDir === '' || subDir.endsWith('/') ? subDir : `${subDir}/`;
}

/**
 * Reads a `postgres://` backend URL as Pulumi v3.274.1 and lib/pq v1.12.3 do, with the environment
 * given (PG* variables); refuses what they refuse, and what node-postgres cannot do as they would.
 */
export function parsePostgresBackendUrl(url: string, env: Readonly<Record<string, string | undefined>> = {}): PostgresBackendUrl {
  const shown = withoutSecrets(url);
  try {
    const parsed = goParseUrl(url);
    if (parsed.scheme !== 'postgres') throw new PostgresUrlError(l10n.t('{0}: not a postgres:// URL (Pulumi registers no other scheme for PostgreSQL)', shown));
    if (parsed.opaque !== '') throw new PostgresUrlError(l10n.t('{0}: not a URL Pulumi can read as a database (the form is postgres://USER@HOST:PORT/DB)', shown));
    // NewPostgresBucket hands lib/pq `u.String()`, and Go writes no "//" without a host, a path or a
    // user: `postgres://` becomes `postgres:`, which lib/pq reads as a key=value string and refuses.
    if (parsed.host === '' && parsed.path === '' && !/^[^:]*:\/\/[^/?#]*@/.test(url)) {
      throw new PostgresUrlError(
        l10n.t(
          '{0}: Pulumi cannot open a postgres:// URL without a host, a database or a user (lib/pq gets "postgres:" and fails with: missing "=" after "postgres:"); write postgres:///DB to take the host from PGHOST',
          shown,
        ),
      );
    }
    const query = goParseQuery(parsed.rawQuery);
    const table = query.get('table')?.[0] || 'pulumi_state';
    query.delete('table');
    if (!TABLE_NAME.test(table)) throw new PostgresUrlError(l10n.t('{0}: table "{1}" is not a plain table name (letters, digits, _ and $, optionally schema.table)', shown, table));
    const settings = fromEnvironment(env, shown);
    const runtime = new Map<string, string>();
    for (const [key, value] of convertUrl(parsed.host, parsed.path, url, query)) {
      if (Object.hasOwn(SETTINGS, key)) settings.set(key, value);
      else runtime.set(key, value);
    }
    for (const [key, value] of settings) checkValue(key, value, shown);
    refuseUnsupported(settings, shown);
    const ignored = WITHOUT_EFFECT.filter((key) => settings.has(key));
    return { shown, url: shown, table, prefix: keyPrefix(parsed.path), connection: connectionOf(settings, runtime, shown), ignored };
  } catch (error) {
    if (error instanceof GoUrlError) throw new PostgresUrlError(l10n.t('{0}: not a URL Pulumi can read: {1}', shown, error.message));
    if (error instanceof NotUtf8Error) throw new PostgresUrlError(l10n.t('{0}: "{1}" percent-decodes to bytes that are not UTF-8', shown, error.message));
    throw error;
  }
}
