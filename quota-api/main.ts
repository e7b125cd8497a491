/**
 * `quota-api`: the reference quota API server.
 *
 *   quota-api [--host 127.0.0.1] [--port 3000] [--db PATH|:memory:] [--seed FILE] [--config app.ini] [--log-level LEVEL] [--public-url URL]
 *             [--forgejo-version X.Y.Z] [--cors ORIGINS]
 *   quota-api token create <account> [--admin] [--db PATH]
 *
 * Prints `http://HOST:PORT/api/v1` on stdout once listening (`--port 0` picks a free port);
 * the request log goes to stderr as JSON lines. Exit codes: 0 ok, 1 runtime failure,
 * 2 usage error, or a seed or config file with errors.
 */
import { parseArgs } from 'node:util';
import { API_BASE_PATH } from '../shared/api/types';
import { buildApp } from './app';
import { parseCorsOrigins, type CorsConfig } from './cors';
import { applyServerConfig, loadServerConfig, ServerConfigError } from './appIni';
import { openDatabase } from './db';
import { SeedError, seedFromFile } from './seed';
import { QuotaStore } from './store/quotaStore';
import { addToken } from './store/tokens';
import { generateToken, hashToken } from './tokens';
import { parsePublicUrl } from './urls';
import { validateName } from '../shared/names';
import { DEFAULT_FORGEJO_VERSION, forgejoProfile } from '../shared/quota';

export const DEFAULT_DB = '.data/quota-api.sqlite';

const USAGE = `usage:
  quota-api [--host 127.0.0.1] [--port 3000] [--db PATH|:memory:] [--seed FILE] [--config app.ini] [--log-level info|warn|error|silent]
            [--public-url URL] [--forgejo-version X.Y.Z] [--cors ORIGINS]
      Serves the quota API at http://HOST:PORT${API_BASE_PATH}. The seed file (a quota instance
      file) is loaded only into an empty database. Default database: ${DEFAULT_DB}.
      --config: a Forgejo app.ini read at every start; the [quota] ENABLED, DEFAULT_GROUPS and
      [quota.default] TOTAL it sets override the database's (seeded) values while the server runs.
      --public-url is the address clients reach the server at (e.g. behind a proxy); absolute
      URLs in answers start with it. Default: the listening address.
      --forgejo-version: the Forgejo version to answer as (GET /version reports it with +gitea-1.22.0);
      the quota checks follow its rules, e.g. 11.0.3 evaluates as Forgejo 11 does. Default: ${DEFAULT_FORGEJO_VERSION}.
      --cors answers browsers from these origins (comma-separated; * for any, one * inside an
      origin such as https://*.vscode-cdn.net), as Forgejo's [cors] ENABLED=true, ALLOW_DOMAIN=ORIGINS.
  quota-api token create <account> [--admin] [--db PATH]
      Prints a new access token for a user (created when missing); --admin makes the user a site admin.`;

class UsageError extends Error {}

function fail(error: unknown): never {
  if (error instanceof UsageError) {
    process.stderr.write(`quota-api: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof SeedError || error instanceof ServerConfigError) {
    process.stderr.write(`quota-api: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`quota-api: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '3000' },
        db: { type: 'string', default: DEFAULT_DB },
        seed: { type: 'string' },
        config: { type: 'string' },
        'log-level': { type: 'string', default: 'info' },
        'public-url': { type: 'string' },
        'forgejo-version': { type: 'string' },
        cors: { type: 'string' },
        admin: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function createToken(account: string | undefined, db: string, admin: boolean): void {
  if (!account) throw new UsageError('token create needs an account name');
  // The name rule every other way of naming an account follows, so no token owner is unaddressable.
  const name = validateName('user', account);
  if (!name.ok) throw new UsageError(`invalid account name ${JSON.stringify(account)}: ${name.reason}`);
  const store = new QuotaStore(openDatabase(db));
  try {
    const token = generateToken();
    addToken(store, name.name, hashToken(token), { admin });
    process.stdout.write(`${token}\n`);
  } finally {
    store.close();
  }
}

async function serve(options: { host: string; port: string; db: string; seed?: string; config?: string; logLevel: string; publicUrl?: string; forgejoVersion?: string; cors?: string }): Promise<void> {
  const forgejo = forgejoProfile(options.forgejoVersion ?? DEFAULT_FORGEJO_VERSION);
  if (!forgejo.ok) throw new UsageError(`--forgejo-version: ${forgejo.message}`);
  if (!/^\d{1,5}$/.test(options.port) || Number(options.port) > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not "${options.port}"`);
  }
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(options.logLevel)) throw new UsageError(`--log-level must be one of ${levels.join(', ')}`);

  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    try {
      publicUrl = parsePublicUrl(options.publicUrl);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }

  let cors: CorsConfig | undefined;
  if (options.cors !== undefined) {
    try {
      cors = parseCorsOrigins(options.cors);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }

  // Read before the database is opened: a config file Forgejo would refuse stops the start cleanly.
  const serverConfig = options.config ? loadServerConfig(options.config, forgejo.profile) : undefined;
  const store = new QuotaStore(openDatabase(options.db), forgejo.profile);
  if (options.seed) {
    const outcome = seedFromFile(store, options.seed);
    if (outcome === 'kept-existing') {
      process.stderr.write(`quota-api: ${options.db} already holds data; the seed ${options.seed} was not loaded\n`);
    }
  }
  if (serverConfig) {
    for (const line of applyServerConfig(store, serverConfig)) process.stderr.write(`quota-api: ${line}\n`);
  }
  let listeningUrl = 'http://localhost/';
  const app = buildApp({ store, log: { level: options.logLevel, stream: process.stderr }, publicUrl: () => publicUrl ?? listeningUrl, cors });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1); // a second signal: stop waiting for requests in flight
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => {
        store.close();
        process.exit(0);
      })
      .catch((error: unknown) => fail(error));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  // Signal handlers are in place before the URL is printed: whoever read it may stop us at once.
  await app.listen({ host: options.host, port: Number(options.port) });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : Number(options.port);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  listeningUrl = `http://${host}:${port}/`;
  process.stdout.write(`http://${host}:${port}${API_BASE_PATH}\n`);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals[0] === 'token') {
    if (positionals[1] !== 'create') throw new UsageError(`unknown token command "${positionals[1] ?? ''}"`);
    if (positionals.length > 3) throw new UsageError(`unexpected argument "${positionals[3]}"`);
    createToken(positionals[2], values.db, values.admin);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`unknown command "${positionals[0]}"`);
  await serve({
    host: values.host,
    port: values.port,
    db: values.db,
    seed: values.seed,
    config: values.config,
    logLevel: values['log-level'],
    publicUrl: values['public-url'],
    forgejoVersion: values['forgejo-version'],
    cors: values.cors,
  });
}

main(process.argv.slice(2)).catch(fail);
