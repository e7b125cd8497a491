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
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, goServerBuild, runAsScript, serveUntilInterrupted, sleep, stopper, tailCollector, withParentDeathSignal } from './testServer.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FAKE_GCS_MODULE = join(repoRoot, 'tools', 'fake-gcs-server');
const fakeGcsBuild = goServerBuild({
  label: 'fake-gcs-server',
  moduleDir: FAKE_GCS_MODULE,
  modulePath: 'github.com/fsouza/fake-gcs-server',
  binaryName: 'fake-gcs-server',
  cacheVariable: 'QUOTA_STATE_FAKE_GCS_CACHE',
  cacheFolder: 'fake-gcs-server',
  note: 'the test Google Cloud Storage server',
});
export const FAKE_GCS_VERSION = fakeGcsBuild.version;
export const fakeGcsCacheRoot = fakeGcsBuild.cacheRoot;
/**
 * Builds (once) and returns the absolute path of the pinned fake-gcs-server binary.
 * @type {(options?: { log?: (line: string) => void }) => string}
 */
export const ensureFakeGcs = fakeGcsBuild.ensure;

const HEALTH_TIMEOUT_MS = 30_000;

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
  serveUntilInterrupted(server, 'fake-gcs-server', log);
}

runAsScript(import.meta.url, main);
