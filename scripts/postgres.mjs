#!/usr/bin/env node
// A real PostgreSQL server for tests only: Debian's `postgresql` package (installed with apt-get when
// missing and this runs as root), one throwaway cluster per start on a free 127.0.0.1 port in a
// temporary folder. The postmaster is this process's child (not daemonized by pg_ctl), so that it
// dies with the process even on SIGKILL (setpriv's parent-death signal) and never outlives a test.
// As root it runs as the `postgres` user, which owns the temporary folder: PostgreSQL refuses root.
//
// Authentication (pg_hba.conf): the cluster's superuser (`quota` by default) needs no password over
// TCP; every other role signs in with SCRAM (createRole() makes one with a password). No TLS.
//
// `npm run postgres` (or `node scripts/postgres.mjs`) starts a server, creates a database, prints the
// URL and environment to use, and stays up until Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endChild, freePort, runAsScript, serveUntilInterrupted, sleep, tailCollector } from './testServer.mjs';

export const POSTGRES_TEST_SUPERUSER = 'quota';
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_CHARS = 8_000;
const DEBIAN_PACKAGE = 'postgresql';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The newest /usr/lib/postgresql/<major>/bin holding initdb and postgres, if any. */
function installedBinDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^[0-9]+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return majors.map((major) => join(root, major, 'bin')).find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')) && existsSync(join(dir, 'psql')));
}

/**
 * The folder of PostgreSQL's server binaries (initdb, postgres, psql). Missing, it is installed with
 * apt-get when this runs as root on a machine that has apt-get (as CI and a fresh container do);
 * otherwise this throws with the one line that installs it.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {string}
 */
export function ensurePostgres(options = {}) {
  const found = installedBinDir();
  if (found) return found;
  if (isRoot() && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
    options.log?.(`installing the Debian package ${DEBIAN_PACKAGE} with apt-get (the test PostgreSQL server)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', DEBIAN_PACKAGE], { stdio: 'inherit', env }) : update;
    const installed = installedBinDir();
    if (install.status === 0 && installed) return installed;
    throw new Error(`apt-get could not install ${DEBIAN_PACKAGE} (exit ${install.status})`);
  }
  throw new Error(`The PostgreSQL tests need PostgreSQL's server (initdb, postgres) under /usr/lib/postgresql. Install it with:\n  ${isRoot() ? '' : 'sudo '}apt-get install -y ${DEBIAN_PACKAGE}`);
}

/** Who runs the server: the `postgres` user when this is root (PostgreSQL refuses root), else this user. */
function serverAccount() {
  if (!isRoot()) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('Running as root, the test PostgreSQL server needs the `postgres` user (created by the Debian package) to run as.');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A command run as the server's account: setpriv drops root (and, for the postmaster, asks for SIGKILL when this process dies). */
function asServerAccount(account, command, args, { dieWithParent = false } = {}) {
  const setpriv = '/usr/bin/setpriv';
  if (!existsSync(setpriv)) {
    if (account) return ['runuser', ['-u', 'postgres', '--', command, ...args]];
    return [command, args];
  }
  const identity = account ? ['--reuid', String(account.uid), '--regid', String(account.gid), '--init-groups'] : [];
  const death = dieWithParent && process.platform === 'linux' ? ['--pdeathsig', 'KILL'] : [];
  if (identity.length === 0 && death.length === 0) return [command, args];
  return [setpriv, [...identity, ...death, '--', command, ...args]];
}

function runChecked(account, command, args, what) {
  const [bin, argv] = asServerAccount(account, command, args);
  const result = spawnSync(bin, argv, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  if (result.status !== 0) throw new Error(`${what} failed (${result.status ?? result.error?.message}):\n${(result.stderr || result.stdout || '').slice(-OUTPUT_TAIL_CHARS)}`);
  return result.stdout;
}

/** The cluster: initdb, then pg_hba.conf (the superuser trusted over TCP, any other role by SCRAM password). */
function initCluster(bin, account, dataDir, superuser) {
  runChecked(account, join(bin, 'initdb'), ['-D', dataDir, '-U', superuser, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'], 'initdb');
  const hba = [
    'local all all trust',
    `host all ${superuser} 127.0.0.1/32 trust`,
    'host all all 127.0.0.1/32 scram-sha-256',
    `host all ${superuser} ::1/128 trust`,
    'host all all ::1/128 scram-sha-256',
    '',
  ].join('\n');
  writeFileSync(join(dataDir, 'pg_hba.conf'), hba);
  if (account) chownSync(join(dataDir, 'pg_hba.conf'), account.uid, account.gid);
}

/** Waits until the server accepts a query over TCP (pg_isready would accept a server still starting up). */
async function waitForReady(server, child, logTail) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let problem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PostgreSQL exited during startup (${child.exitCode ?? child.signalCode}):\n${logTail()}`);
    const result = spawnSync(join(server.bin, 'psql'), psqlArgs(server, 'postgres', 'SELECT 1'), { encoding: 'utf8', env: psqlEnv() });
    if (result.status === 0) return;
    problem = (result.stderr || '').trim();
    await sleep(100);
  }
  throw new Error(`PostgreSQL on 127.0.0.1:${server.port} was not ready after ${READY_TIMEOUT_MS} ms (${problem}):\n${logTail()}`);
}

const psqlArgs = (server, database, sql) => ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(server.port), '-U', server.superuser, '-d', database, '-At', '-c', sql];
/** psql without the caller's PG* variables (a test's PGPASSWORD or PGSSLMODE is not this connection's). */
const psqlEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PG')));

/** Runs SQL as the superuser (psql over TCP), returning its unaligned output. */
function runSql(server, sql, database = 'postgres') {
  const result = spawnSync(join(server.bin, 'psql'), psqlArgs(server, database, sql), { encoding: 'utf8', env: psqlEnv() });
  if (result.status !== 0) throw new Error(`psql on 127.0.0.1:${server.port}/${database} failed: ${(result.stderr || result.error?.message || '').trim()}`);
  return result.stdout;
}

/** The postmaster as a child process; `stop()` is a fast shutdown (SIGINT), then SIGKILL after a grace period. */
function startPostmaster(server, account, scratch) {
  const args = ['-D', server.dataDir, '-p', String(server.port), '-k', scratch, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100'];
  const [command, argv] = asServerAccount(account, join(server.bin, 'postgres'), args, { dieWithParent: true });
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  tailCollector(child.stdout);
  const logTail = tailCollector(child.stderr);
  const exited = new Promise((resolveExit) => {
    child.once('exit', () => resolveExit());
    child.once('error', () => resolveExit());
  });
  return { child, exited, logTail };
}

/** A fast shutdown (SIGINT), then SIGKILL after a grace period. */
const stopPostmaster = ({ child, exited }) => endChild(child, exited, { signal: 'SIGINT', graceMs: STOP_GRACE_MS });

/**
 * Starts a throwaway PostgreSQL on a free 127.0.0.1 port with its cluster in a temporary folder.
 * `stop()` ends it and removes the folder; `restart()` stops the server and starts it again on the same
 * port and data (for faults: a server gone in the middle of a write).
 * @param {{ log?: (line: string) => void, superuser?: string }} [options]
 */
export async function startPostgres(options = {}) {
  const bin = ensurePostgres({ log: options.log });
  const account = serverAccount();
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-postgres-'));
  if (account) chownSync(scratch, account.uid, account.gid);
  const server = { bin, port: await freePort(), superuser: options.superuser ?? POSTGRES_TEST_SUPERUSER, dataDir: join(scratch, 'data') };
  let running;
  const killOnExit = () => {
    running?.child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const boot = async () => {
    running = startPostmaster(server, account, scratch);
    try {
      await waitForReady(server, running.child, running.logTail);
    } catch (error) {
      await stopPostmaster(running);
      throw error;
    }
  };
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      if (running) await stopPostmaster(running);
      process.removeListener('exit', killOnExit);
      rmSync(scratch, { recursive: true, force: true });
    })());
  try {
    initCluster(bin, account, server.dataDir, server.superuser);
    await boot();
  } catch (error) {
    await stop();
    throw error;
  }
  options.log?.(`PostgreSQL listening on 127.0.0.1:${server.port} (cluster in ${server.dataDir})`);
  return {
    host: '127.0.0.1',
    port: server.port,
    superuser: server.superuser,
    dataDir: server.dataDir,
    /** Runs SQL as the superuser; returns psql's unaligned output. */
    sql: (text, database) => runSql(server, text, database),
    createDatabase: (name) => void runSql(server, `CREATE DATABASE "${name.replace(/"/g, '""')}"`),
    /** A role that signs in with a password (SCRAM), allowed to create tables in `database`'s public schema. */
    createRole: (name, password, database) => {
      runSql(server, `CREATE ROLE "${name}" LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
      if (database) runSql(server, `GRANT ALL ON SCHEMA public TO "${name}"`, database);
    },
    /** Stops the server (fast shutdown) and starts it again on the same port and data. */
    restart: async () => {
      if (running) await stopPostmaster(running);
      await boot();
    },
    /** Stops the server without removing its data (restart() brings it back). */
    halt: async () => {
      if (running) await stopPostmaster(running);
    },
    start: () => boot(),
    stop,
  };
}

/** `node scripts/postgres.mjs`: a server for manual tries, up until Ctrl-C. */
async function main() {
  const log = (line) => process.stderr.write(`${line}\n`);
  const server = await startPostgres({ log });
  const database = 'quota_state';
  server.createDatabase(database);
  const lines = [
    `PostgreSQL (test server) on ${server.host}:${server.port}`,
    `  superuser:  ${server.superuser} (no password over TCP; other roles sign in with SCRAM)`,
    `  cluster:    ${server.dataDir}`,
    `  database:   ${database} (created)`,
    '',
    'Environment (for psql and the PG* defaults):',
    `  PGHOST=${server.host}`,
    `  PGPORT=${server.port}`,
    `  PGUSER=${server.superuser}`,
    `  PGDATABASE=${database}`,
    '  PGSSLMODE=disable',
    '',
    // The server has no TLS, and lib/pq (Pulumi) defaults to sslmode=require.
    `Pulumi backend URL: postgres://${server.superuser}@${server.host}:${server.port}/${database}?sslmode=disable`,
    '',
    'Ctrl-C stops the server and deletes its data.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  serveUntilInterrupted(server, 'PostgreSQL', log);
}

runAsScript(import.meta.url, main);
