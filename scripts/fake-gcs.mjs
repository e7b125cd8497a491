#!/usr/bin/env node
// A real Google Cloud Storage JSON API server for tests only: fake-gcs-server, built from its Go module
// (tools/fake-gcs-server) like MinIO (minio.mjs). It is BSD-2-Clause test tooling, never shipped.
// `ensureFakeGcs()` builds it on first use and caches it outside the work tree, keyed by its version and
// a hash of go.mod/go.sum; `startFakeGcs()` runs one throwaway server on a free local port, its objects
// in memory and its preloaded buckets in a temporary folder.
//
// `npm run fake-gcs` (or `node scripts/fake-gcs.mjs`) starts a server with a bucket, prints the
// environment and the backend URL to use, and stays up until Ctrl-C.
import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goCommand, withLock } from './pulumi-cli.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FAKE_GCS_MODULE = join(repoRoot, 'tools', 'fake-gcs-server');
export const FAKE_GCS_VERSION = readPinnedVersion();

const HEALTH_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_CHARS = 8_000;

function readPinnedVersion() {
  const goModPath = join(FAKE_GCS_MODULE, 'go.mod');
  const match = /github\.com\/fsouza\/fake-gcs-server (v[0-9][^\s]*)/.exec(readFileSync(goModPath, 'utf8'));
  if (!match) throw new Error(`${goModPath} does not require github.com/fsouza/fake-gcs-server`);
  return match[1];
}

/** go.mod and go.sum decide the build, so an edit to either rebuilds the server. */
function sourceKey() {
  const hash = createHash('sha256');
  for (const name of ['go.mod', 'go.sum']) hash.update(name).update(readFileSync(join(FAKE_GCS_MODULE, name)));
  return hash.digest('hex').slice(0, 16);
}

export function fakeGcsCacheRoot() {
  return process.env.QUOTA_STATE_FAKE_GCS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'quota-state', 'fake-gcs-server');
}

function buildFakeGcs(go, output, log) {
  const env = {
    ...process.env,
    // The machine's Go lives in /usr/local/go/bin, which a non-login shell may not have on PATH.
    PATH: [process.env.PATH, '/usr/local/go/bin'].filter(Boolean).join(delimiter),
    // Never download a toolchain, never change go.mod/go.sum: the committed module decides.
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=readonly -buildvcs=false',
  };
  const args = ['build', '-trimpath', '-ldflags', '-s -w', '-o', output, 'github.com/fsouza/fake-gcs-server'];
  const started = Date.now();
  const result = spawnSync(go, args, { cwd: FAKE_GCS_MODULE, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const detail = (result.stderr || result.error?.message || `exit status ${result.status}`).slice(-OUTPUT_TAIL_CHARS);
    throw new Error(`go ${args.join(' ')} failed in ${FAKE_GCS_MODULE}:\n${detail}`.trim());
  }
  log?.(`built fake-gcs-server in ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * Builds (once) and returns the absolute path of the pinned fake-gcs-server binary.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {string}
 */
export function ensureFakeGcs(options = {}) {
  const key = `${FAKE_GCS_VERSION}-${sourceKey()}`;
  const root = fakeGcsCacheRoot();
  const binary = join(root, key, 'fake-gcs-server');
  if (existsSync(binary)) return binary;
  mkdirSync(join(root, key), { recursive: true });
  // Tests may start servers from several processes at once: one builds, the others wait for it.
  return withLock(join(root, `${key}.lock`), () => {
    if (existsSync(binary)) return binary;
    const go = goCommand();
    if (!go) throw new Error('Building fake-gcs-server (the test Google Cloud Storage server) needs Go: go on PATH or /usr/local/go/bin/go.');
    // Built under a temporary name and renamed into place, so an interrupted build never leaves a broken binary.
    const staging = `${binary}.building-${process.pid}`;
    try {
      options.log?.(`building fake-gcs-server ${FAKE_GCS_VERSION} from its Go module (first use, a few minutes; cached in ${root})`);
      buildFakeGcs(go, staging, options.log);
      renameSync(staging, binary);
    } finally {
      rmSync(staging, { force: true });
    }
    return binary;
  });
}

/** A free local port (the listener closes before the server takes it). */
async function freePort() {
  const server = createServer();
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const { port } = server.address();
  await new Promise((resolveClose) => server.close(() => resolveClose()));
  return port;
}

/** Keeps the last few thousand characters of a stream, for error messages. */
function tailCollector(stream) {
  let tail = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARS);
  });
  return () => tail.trim() || '(nothing)';
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Waits until the JSON API answers a bucket listing. */
async function waitForHealthy(endpoint, child, outputTail, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`fake-gcs-server exited during startup (${child.exitCode ?? child.signalCode}):\n${outputTail()}`);
    try {
      const response = await fetch(`${endpoint}/storage/v1/b`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      lastProblem = `status ${response.status}`;
    } catch (error) {
      lastProblem = error.message;
    }
    await sleep(100);
  }
  throw new Error(`fake-gcs-server at ${endpoint} did not answer after ${timeoutMs} ms (${lastProblem}); its output:\n${outputTail()}`);
}

/** Runs the binary so that, on Linux, the kernel kills it if this process dies without running its 'exit' handlers (a signal, SIGKILL). */
function withParentDeathSignal(binary, args) {
  if (process.platform === 'linux' && existsSync('/usr/bin/setpriv')) return ['/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args]];
  return [binary, args];
}

/** stop(): SIGTERM, then SIGKILL after a grace period, then the scratch folder goes; safe to call twice. */
function stopper(child, exited, scratch, killOnExit) {
  let stopping;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const graceOver = Symbol('grace over');
        let graceTimer;
        const outcome = await Promise.race([exited, new Promise((resolveGrace) => (graceTimer = setTimeout(() => resolveGrace(graceOver), STOP_GRACE_MS)))]);
        clearTimeout(graceTimer);
        if (outcome === graceOver) child.kill('SIGKILL');
      }
      await exited;
      process.removeListener('exit', killOnExit);
      rmSync(scratch, { recursive: true, force: true });
    })();
    return stopping;
  };
}

/**
 * Starts a throwaway fake-gcs-server on a free 127.0.0.1 port; objects live in memory, `buckets` exist from the start.
 * `host` is what STORAGE_EMULATOR_HOST takes (`127.0.0.1:PORT`), `endpoint` the same with http://.
 * @param {{ log?: (line: string) => void, buckets?: string[], timeoutMs?: number }} [options]
 */
export async function startFakeGcs(options = {}) {
  const binary = ensureFakeGcs({ log: options.log });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const endpoint = `http://${host}`;
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-fake-gcs-'));
  const dataDir = join(scratch, 'data');
  // Each folder of the data folder is a bucket the server starts with.
  mkdirSync(dataDir);
  for (const bucket of options.buckets ?? []) mkdirSync(join(dataDir, bucket));
  const serverArgs = ['-scheme', 'http', '-host', '127.0.0.1', '-port', String(port), '-data', dataDir, '-backend', 'memory', '-public-host', host, '-log-level', 'warn'];
  const [command, args] = withParentDeathSignal(binary, serverArgs);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  const spawnFailed = new Promise((_, reject) => child.once('error', (error) => reject(new Error(`could not run ${binary}: ${error.message}`))));
  tailCollector(child.stdout);
  const outputTail = tailCollector(child.stderr);
  // The server must not outlive this process, even when the caller never calls stop().
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const stop = stopper(child, Promise.race([exited, spawnFailed.catch(() => undefined)]), scratch, killOnExit);
  try {
    await Promise.race([waitForHealthy(endpoint, child, outputTail, options.timeoutMs ?? HEALTH_TIMEOUT_MS), spawnFailed]);
  } catch (error) {
    await stop();
    throw error;
  }
  options.log?.(`fake-gcs-server listening on ${endpoint}`);
  return { endpoint, host, port, stop };
}

/**
 * Creates a bucket through the JSON API (buckets.insert); throws with the server's answer unless it succeeds.
 * @param {{ endpoint: string }} server
 * @param {string} name
 */
export async function createGcsBucket(server, name) {
  const response = await fetch(`${server.endpoint}/storage/v1/b?project=quota-state-test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`creating bucket ${name} at ${server.endpoint} failed with status ${response.status}:\n${await response.text()}`);
}

/** `node scripts/fake-gcs.mjs`: a server for manual tries, up until Ctrl-C. */
async function main() {
  const log = (line) => process.stderr.write(`${line}\n`);
  const bucket = 'quota-state';
  const server = await startFakeGcs({ log, buckets: [bucket] });
  const lines = [
    `fake-gcs-server (test Google Cloud Storage server) at ${server.endpoint}`,
    `  bucket: ${bucket} (created; objects in memory)`,
    '',
    'Environment:',
    `  STORAGE_EMULATOR_HOST=${server.host}`,
    // Pulumi insists on finding credentials even for an emulator, which then ignores them.
    '  GOOGLE_OAUTH_ACCESS_TOKEN=x',
    '',
    `Pulumi backend URL: gs://${bucket}`,
    '',
    'Ctrl-C stops the server and forgets its objects.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const shutdown = (signal) => {
    // A second Ctrl-C while stopping exits at once; the 'exit' handler still kills the server.
    if (stopping) process.exit(130);
    stopping = true;
    log(`${signal}: stopping fake-gcs-server`);
    server.stop().then(
      () => process.exit(0),
      (error) => {
        log(error.message);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

// Run as a script (not imported): argv[1] is this file, possibly through a symlink.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main().catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
}
