#!/usr/bin/env node
// Runs the extension-host test suite (test/extension) inside a real VS Code, offline:
// VS Code's own server from the `code-server` npm package, its web workbench opened in Debian's
// Chromium through playwright-core, and the extension + compiled mocha suite loaded into the
// server's Node extension host (see spec/extension-tests.md).
//
// Usage: node scripts/test-extension.mjs [--timeout SECONDS] [--grep PATTERN] [--keep] [--verbose] [--build-only]
// Prints mocha's output and a closing `N passed, M failed` line. Exit code: 0 when every test
// passed (and there was at least one), 1 when any failed, 2 on timeout or setup failure.
// Everything it starts (server process group, browser) is killed on every way out.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVsCodeHost } from './vscode-web.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(repoRoot, 'test', 'vscode-host');
const serverMain = join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const testsOutDir = join(repoRoot, 'dist', 'test', 'extension');
const fixtureWorkspace = join(repoRoot, 'test', 'extension', 'fixtures', 'workspace');

const SETUP_FAILURE = 2;

const options = parseArguments(process.argv.slice(2));

/** Everything to undo on the way out, newest first. */
const cleanups = [];
let cleaningUp = false;

async function cleanup() {
  if (cleaningUp) return;
  cleaningUp = true;
  for (const undo of cleanups.reverse()) {
    try {
      await undo();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\nreceived ${signal}; stopping the VS Code server and the browser`);
    cleanup().finally(() => process.exit(SETUP_FAILURE));
  });
}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code === 'built' ? 0 : code);
  },
  async (error) => {
    console.error(`extension tests: setup failed: ${error instanceof Error ? error.stack ?? error.message : error}`);
    console.log('0 passed, 0 failed');
    await cleanup();
    process.exit(SETUP_FAILURE);
  },
);

async function main() {
  if (options.buildOnly) {
    await buildTests();
    return 'built';
  }
  ensureVsCodeHost();
  if (!existsSync(chromiumPath)) {
    throw new Error(`no browser at ${chromiumPath}; install the Debian package "chromium" (or set CHROMIUM_PATH)`);
  }
  for (const built of ['dist/client/extension.js']) {
    if (!existsSync(join(repoRoot, built))) throw new Error(`${built} is missing; run \`node esbuild.mjs\` first`);
  }
  await buildTests();

  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-ext-'));
  cleanups.push(() => {
    if (options.keep) console.error(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  });
  const workspace = join(scratch, 'workspace');
  cpSync(fixtureWorkspace, workspace, { recursive: true });
  const resultsFile = join(scratch, 'results.json');
  const reportFile = join(scratch, 'mocha.txt');
  writeUserSettings(scratch);

  const server = await startVsCodeServer(scratch, { QUOTA_STATE_TEST_RESULTS: resultsFile, QUOTA_STATE_TEST_REPORT: reportFile, QUOTA_STATE_TEST_GREP: options.grep ?? '' });
  const exitCode = await runInBrowser(server.port, workspace, scratch);

  printSuiteReport(reportFile);
  const results = readResults(resultsFile);
  if (exitCode === 'timeout') {
    console.error(`extension tests: no result after ${options.timeoutSeconds} s`);
    printServerLogTail(server.logFile);
    console.log(`${results?.passed ?? 0} passed, ${results?.failed ?? 0} failed`);
    return SETUP_FAILURE;
  }
  if (!results) {
    console.error('extension tests: the suite did not report its results (did it load?)');
    printServerLogTail(server.logFile);
    console.log('0 passed, 0 failed');
    return SETUP_FAILURE;
  }
  console.log(`${results.passed} passed, ${results.failed} failed`);
  if (results.passed + results.failed === 0) {
    console.error('extension tests: no test ran');
    return 1;
  }
  return results.failed === 0 && exitCode === 0 ? 0 : 1;
}

function parseArguments(args) {
  const parsed = { timeoutSeconds: 900, grep: undefined, keep: false, verbose: false, buildOnly: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--timeout') parsed.timeoutSeconds = Number(args[++i]);
    else if (arg === '--grep') parsed.grep = args[++i];
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--verbose') parsed.verbose = true;
    else if (arg === '--build-only') parsed.buildOnly = true;
    else {
      console.error(`unknown argument ${arg}`);
      process.exit(SETUP_FAILURE);
    }
  }
  if (!Number.isFinite(parsed.timeoutSeconds) || parsed.timeoutSeconds <= 0) {
    console.error('--timeout needs a positive number of seconds');
    process.exit(SETUP_FAILURE);
  }
  return parsed;
}

/** Bundles the mocha index and every *.test.ts into dist/test/extension (mocha and vscode stay runtime requires). */
async function buildTests() {
  const esbuild = await import('esbuild');
  const { readdirSync } = await import('node:fs');
  const suiteDir = join(repoRoot, 'test', 'extension', 'suite');
  const entryPoints = { index: join(repoRoot, 'test', 'extension', 'index.ts') };
  for (const name of readdirSync(suiteDir)) {
    if (name.endsWith('.test.ts')) entryPoints[name.replace(/\.ts$/, '')] = join(suiteDir, name);
  }
  rmSync(testsOutDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: testsOutDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  });
}

function writeUserSettings(scratch) {
  const userDir = join(scratch, 'user-data', 'User');
  mkdirSync(userDir, { recursive: true });
  const settings = {
    // Otherwise the workspace opens in Restricted Mode and the extension's untrusted limits apply.
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
    'git.enabled': false,
  };
  writeFileSync(join(userDir, 'settings.json'), JSON.stringify(settings, null, 2));
}

/** Starts VS Code's server in its own process group and resolves with the port it listens on. */
function startVsCodeServer(scratch, extraEnv) {
  const dirs = Object.fromEntries(
    ['tmp', 'server-data', 'user-data', 'extensions', 'xdg-config', 'xdg-data', 'xdg-cache', 'xdg-runtime'].map((name) => {
      const dir = join(scratch, name);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return [name, dir];
    }),
  );
  const logFile = join(scratch, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    [
      serverMain,
      '--host', '127.0.0.1',
      '--port', '0',
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--telemetry-level', 'off',
      '--server-data-dir', dirs['server-data'],
      '--user-data-dir', dirs['user-data'],
      '--extensions-dir', dirs.extensions,
      '--log', 'info',
    ],
    {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        EXTENSIONS_GALLERY: '{}',
        TMPDIR: dirs.tmp,
        XDG_CONFIG_HOME: dirs['xdg-config'],
        XDG_DATA_HOME: dirs['xdg-data'],
        XDG_CACHE_HOME: dirs['xdg-cache'],
        XDG_RUNTIME_DIR: dirs['xdg-runtime'],
        ...extraEnv,
      },
    },
  );
  cleanups.push(() => killProcessGroup(child));
  return new Promise((resolvePort, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the VS Code server did not report its port within 60 s (log: ${logFile})`)), 60_000);
    const onData = (chunk) => {
      log.write(chunk);
      if (options.verbose) process.stderr.write(chunk);
      buffered += chunk.toString();
      const match = /Extension host agent listening on (\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        buffered = '';
        child.stdout.off('data', onData);
        child.stdout.on('data', (more) => log.write(more));
        resolvePort({ port: Number(match[1]), logFile });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      log.write(chunk);
      if (options.verbose) process.stderr.write(chunk);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the VS Code server exited early (code ${code}, signal ${signal}); log: ${logFile}`));
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function killProcessGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
  await Promise.race([exited, new Promise((done) => setTimeout(done, 7_000))]);
  clearTimeout(timer);
  // Extension hosts and language servers live in the same group; make sure none outlives us.
  signalGroup('SIGKILL');
}

/** Opens the workbench with the test payload; resolves with the suite's exit code or 'timeout'. */
async function runInBrowser(port, workspace, scratch) {
  const requireFromHost = createRequire(join(hostDir, 'package.json'));
  const { chromium } = requireFromHost('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    env: { ...process.env, TMPDIR: join(scratch, 'tmp'), XDG_CONFIG_HOME: join(scratch, 'xdg-config'), XDG_CACHE_HOME: join(scratch, 'xdg-cache') },
  });
  cleanups.push(() => Promise.race([browser.close(), new Promise((done) => setTimeout(done, 5_000))]));
  const page = await browser.newPage();
  const browserLog = createWriteStream(join(scratch, 'workbench.log'));

  let finish;
  const finished = new Promise((done) => (finish = done));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = formatLogArguments(args);
    browserLog.write(`[${type}] ${text}\n`);
    printSuiteOutput(text);
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(code));

  const authority = `127.0.0.1:${port}`;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${repoRoot}`],
    ['extensionTestsPath', `vscode-remote://${authority}${testsOutDir}`],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url);

  let timer;
  const timedOut = new Promise((done) => (timer = setTimeout(() => done('timeout'), options.timeoutSeconds * 1000)));
  const outcome = await Promise.race([finished, timedOut]);
  clearTimeout(timer);
  return outcome;
}

function formatLogArguments(args) {
  if (typeof args === 'string') return args;
  if (Array.isArray(args)) return args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  return JSON.stringify(args);
}

function printSuiteOutput(text) {
  if (options.verbose) process.stderr.write(`${text}\n`);
}

/** mocha's own report, written by the suite's index to a file (the console is too noisy to filter). */
function printSuiteReport(file) {
  try {
    process.stdout.write(readFileSync(file, 'utf8'));
  } catch {
    // The suite never started; the caller says so.
  }
}

function readResults(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function printServerLogTail(logFile) {
  try {
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    console.error(`--- last lines of ${logFile} ---\n${lines.slice(-40).join('\n')}`);
  } catch {
    // No log to show.
  }
}
