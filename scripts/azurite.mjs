#!/usr/bin/env node
// A real Azure Blob Storage server for tests only: Azurite, Microsoft's emulator, from node_modules
// (a dev dependency; 3.35.0 is the last release that runs on Node 20). Nothing to build: it runs
// on this Node. `startAzurite()` runs one throwaway blob service on a free 127.0.0.1 port with its
// data in a temporary folder; `stop()` ends it and removes the folder. It knows one account,
// devstoreaccount1, with the well-known key Microsoft documents for the emulator (not a secret).
//
// `npm run azurite` (or `node scripts/azurite.mjs`) starts a server, creates a container, prints the
// endpoint, the environment and the backend URL to use, and stays up until Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, runAsScript, serveUntilInterrupted, sleep, stopper, tailCollector, withParentDeathSignal } from './testServer.mjs';

const require = createRequire(import.meta.url);
const AZURITE_PACKAGE = dirname(require.resolve('azurite/package.json'));
export const AZURITE_VERSION = JSON.parse(readFileSync(join(AZURITE_PACKAGE, 'package.json'), 'utf8')).version;
/** The emulator's one account and its documented key (https://learn.microsoft.com/azure/storage/common/storage-use-azurite). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const READY_TIMEOUT_MS = 30_000;

/** The blob service's entry point in node_modules (nothing to build: it runs on this Node); throws when it is not installed. */
export function ensureAzurite() {
  const main = join(AZURITE_PACKAGE, 'dist', 'src', 'blob', 'main.js');
  if (!existsSync(main)) throw new Error(`Azurite's blob service is missing (${main}): run npm ci`);
  return main;
}

/** Any HTTP answer from the blob service (an unsigned listing is refused with 403): it serves requests. */
function answers(endpoint) {
  return new Promise((resolveAnswer) => {
    const req = httpRequest(`${endpoint}/${AZURITE_ACCOUNT}?comp=list`, { timeout: 2_000 }, (res) => {
      res.resume();
      resolveAnswer(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveAnswer(false));
    req.end();
  });
}

async function waitForReady(endpoint, child, outputTail, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Azurite exited during startup (${child.exitCode ?? child.signalCode}):\n${outputTail()}`);
    if (await answers(endpoint)) return;
    await sleep(100);
  }
  throw new Error(`Azurite at ${endpoint} did not answer after ${timeoutMs} ms; its output:\n${outputTail()}`);
}

/**
 * Starts a throwaway Azurite blob service on a free 127.0.0.1 port, its data in a temporary folder.
 * @param {{ log?: (line: string) => void, timeoutMs?: number, inMemory?: boolean }} [options]
 */
export async function startAzurite(options = {}) {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const endpoint = `http://${host}`;
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-azurite-'));
  // The SDK's API version is newer than 3.35.0 knows (--skipApiVersionCheck); no telemetry leaves the machine.
  // A bench's tens of thousands of blobs: Azurite's on-disk database (one JSON file rewritten as it grows) slows every write, so it may keep them in memory.
  // (Azurite refuses --inMemoryPersistence beside --location.)
  const persistence = options.inMemory ? ['--inMemoryPersistence'] : ['--location', scratch];
  const serverArgs = [ensureAzurite(), '--blobHost', '127.0.0.1', '--blobPort', String(port), ...persistence, '--skipApiVersionCheck', '--disableTelemetry', '--silent'];
  const [command, args] = withParentDeathSignal(process.execPath, serverArgs);
  const child = spawn(command, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  const spawnFailed = new Promise((_, reject) => child.once('error', (error) => reject(new Error(`could not run Azurite: ${error.message}`))));
  const stdoutTail = tailCollector(child.stdout);
  const stderrTail = tailCollector(child.stderr);
  const outputTail = () => `${stdoutTail()}\n${stderrTail()}`;
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const stop = stopper(child, Promise.race([exited, spawnFailed.catch(() => undefined)]), scratch, killOnExit);
  try {
    await Promise.race([waitForReady(endpoint, child, outputTail, options.timeoutMs ?? READY_TIMEOUT_MS), spawnFailed]);
  } catch (error) {
    await stop();
    throw error;
  }
  options.log?.(`Azurite ${AZURITE_VERSION} blob service listening on ${endpoint} (data in ${scratch})`);
  return {
    endpoint,
    host,
    port,
    account: AZURITE_ACCOUNT,
    accountKey: AZURITE_ACCOUNT_KEY,
    /** The container client URL's base: the emulator puts the account in the path. */
    serviceUrl: `${endpoint}/${AZURITE_ACCOUNT}`,
    dataDir: scratch,
    stop,
  };
}

/**
 * What Pulumi and quota-state need to reach a container on this server: the backend URL (gocloud's
 * emulator form) and the shared-key environment.
 * @param {{ host: string, account: string, accountKey: string }} server
 * @param {string} container
 */
export function azuriteBackend(server, container) {
  return {
    url: `azblob://${container}?localemu=true&domain=${server.host}&protocol=http`,
    env: { AZURE_STORAGE_ACCOUNT: server.account, AZURE_STORAGE_KEY: server.accountKey },
  };
}

/**
 * Creates a container on the server with the emulator's key, through the Azure SDK (loaded only here).
 * @param {{ serviceUrl: string, account: string, accountKey: string }} server
 * @param {string} name
 */
export async function createContainer(server, name) {
  const { ContainerClient, StorageSharedKeyCredential } = await import('@azure/storage-blob');
  await new ContainerClient(`${server.serviceUrl}/${name}`, new StorageSharedKeyCredential(server.account, server.accountKey)).create();
}

/** `node scripts/azurite.mjs`: a server for manual tries, up until Ctrl-C. */
async function main() {
  const log = (line) => process.stderr.write(`${line}\n`);
  const server = await startAzurite({ log });
  const container = 'quota-state';
  await createContainer(server, container);
  const backend = azuriteBackend(server, container);
  const lines = [
    `Azurite ${AZURITE_VERSION} (test Azure Blob server) at ${server.serviceUrl}`,
    `  data:      ${server.dataDir}`,
    `  container: ${container} (created)`,
    '',
    'Environment (the emulator documented account and key):',
    ...Object.entries(backend.env).map(([name, value]) => `  ${name}=${value}`),
    '',
    `Pulumi backend URL: ${backend.url}`,
    '',
    'Ctrl-C stops the server and deletes its data.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  serveUntilInterrupted(server, 'Azurite', log);
}

runAsScript(import.meta.url, main);
