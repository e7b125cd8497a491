#!/usr/bin/env node
// Runs the extension-host test suites (test/extension) inside a real VS Code, offline:
// VS Code's own server from the `code-server` npm package, its web workbench opened in Debian's
// Chromium through playwright-core, and the compiled mocha suites loaded into the server's Node
// extension host (see spec/extension-tests.md).
//
// By default the extension under test is the one users get: `vsce package` builds the .vsix, and
// the VS Code server installs it into its extensions folder (`--install-extension`), exactly as a
// user installs a .vsix. The workbench then runs that installed folder in test mode, so a file
// missing from the package fails the suites. `--dev` runs the source folder instead (faster).
//
// Suites, one VS Code window (and one workspace folder) each:
//   main     test/extension/suite        on test/extension/fixtures/workspace
//   content  test/extension/contentSuite on test/extension/fixtures/content-only (no file name
//            matches a pattern, so only opening a JSON document can activate the extension)
//   web      test/extension/webSuite     on test/extension/fixtures/workspace, in the browser's
//            web worker extension host (the user setting `remote.extensionKind` asks for `web`):
//            the `browser` build, as on vscode.dev. That host has no file system, so this runner starts the reference quota
//            API (with --cors) itself, passes addresses in the workspace settings, and takes the
//            suite's report over HTTP.
//
// Usage: node scripts/test-extension.mjs [--vsix FILE | --dev] [--suite NAME] [--results FILE]
//          [--timeout SECONDS] [--grep PATTERN] [--keep] [--verbose] [--build-only]
// Prints mocha's output and a closing `N passed, M failed` line (also written as JSON to
// --results). Exit code: 0 when every test passed (and there was at least one), 1 when any
// failed, 2 on timeout or setup failure. Everything it starts (server process groups, browsers)
// is killed on every way out.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVsCodeHost, installVsix, packageVsix, requireSystemPackages, VSCODE_HOST_PACKAGES, vsCodeHostInstalled } from './vscode-web.mjs';
import { undoAll, undoOnSignals } from './cleanups.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(repoRoot, 'test', 'vscode-host');
const serverMain = join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Each suite runs in its own VS Code window on its own copy of its fixture folder. */
const SUITES = [
  { name: 'main', sources: 'test/extension/suite', fixture: 'test/extension/fixtures/workspace', out: 'dist/test/extension', realBackend: true, realBucket: true },
  { name: 'content', sources: 'test/extension/contentSuite', fixture: 'test/extension/fixtures/content-only', out: 'dist/test/extension-content' },
  { name: 'web', web: true, sources: 'test/extension/webSuite', fixture: 'test/extension/fixtures/workspace', out: 'dist/test/extension-web', realBackend: true },
];

const SETUP_FAILURE = 2;

/** The workbench and its extension worker are served from the VS Code server's own address. */
const WEB_SUITE_CORS_ORIGINS = 'http://127.0.0.1:*';

const options = parseArguments(process.argv.slice(2));

/** Everything to undo on the way out, newest first. */
const cleanups = [];
const cleanup = () => undoAll(cleanups);
undoOnSignals(cleanups, SETUP_FAILURE, 'stopping the VS Code server and the browser');

main().then(
  async (code) => {
    await cleanup();
    process.exit(code === 'built' ? 0 : code);
  },
  async (error) => {
    console.error(`extension tests: setup failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    console.log('0 passed, 0 failed');
    await cleanup();
    process.exit(SETUP_FAILURE);
  },
);

async function main() {
  const suites = options.suite ? SUITES.filter((suite) => suite.name === options.suite) : SUITES;
  if (suites.length === 0) throw new Error(`no suite named ${options.suite}; known: ${SUITES.map((suite) => suite.name).join(', ')}`);
  if (options.buildOnly) {
    await buildTests(suites);
    return 'built';
  }
  requireSystemPackages(['chromium', ...(vsCodeHostInstalled() ? [] : VSCODE_HOST_PACKAGES)], { for: 'the extension-host tests' });
  ensureVsCodeHost();
  if (!existsSync(chromiumPath)) {
    throw new Error(`no browser at ${chromiumPath}; install the Debian package "chromium" (or set CHROMIUM_PATH)`);
  }
  let vsix;
  if (options.dev) {
    if (!existsSync(join(repoRoot, 'dist/client/extension.js'))) throw new Error('dist/client/extension.js is missing; run `node esbuild.mjs` first');
  } else if (options.vsix) {
    vsix = resolve(options.vsix);
    if (!existsSync(vsix)) throw new Error(`${vsix} does not exist`);
  } else {
    const packaged = mkdtempSync(join(tmpdir(), 'quota-state-vsix-'));
    cleanups.push(() => rmSync(packaged, { recursive: true, force: true }));
    vsix = packageVsix(join(packaged, 'quota-state.vsix'));
  }
  await buildTests(suites);
  console.log(vsix ? `extension under test: installed from ${vsix}` : `extension under test: the source folder ${repoRoot}`);

  const totals = { passed: 0, failed: 0, failing: [] };
  let exitCode = 0;
  for (const suite of suites) {
    console.log(`\n=== extension-host suite "${suite.name}" (${suite.fixture}) ===`);
    const outcome = await runSuite(suite, vsix);
    totals.passed += outcome.passed;
    totals.failed += outcome.failed;
    totals.failing.push(...(outcome.failing ?? []).map((title) => `${suite.name}: ${title}`));
    // The suites' startup figures (test/extension/startupFigure.ts), for `npm run bench`.
    if (outcome.figures) totals.figures = { ...totals.figures, ...outcome.figures };
    exitCode = Math.max(exitCode, outcome.exitCode);
  }
  if (options.results) writeFileSync(options.results, JSON.stringify(totals));
  for (const title of totals.failing) console.log(`failed: ${title}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  if (exitCode === 0 && totals.passed + totals.failed === 0) {
    console.error('extension tests: no test ran');
    return 1;
  }
  return exitCode;
}

/**
 * Azurite with a container `hist` holding a history real Pulumi wrote there, stopped with the suite's
 * own cleanups: its URL joins `remotes`, its credentials `env`.
 */
async function addAzuriteRemote(ownCleanups, env, remotes) {
  const { azuriteBackend, createContainer, startAzurite } = await import('./azurite.mjs');
  const { generateHistoryInBucket } = await import('./pulumi-histories.mjs');
  const azurite = await startAzurite({ log: (line) => console.log(line) });
  ownCleanups.unshift(() => azurite.stop());
  await createContainer(azurite, 'hist');
  const backend = azuriteBackend(azurite, 'hist');
  generateHistoryInBucket(backend.url, { env: backend.env, layout: 'project', compression: 'plain', log: (line) => console.log(line) });
  Object.assign(env, backend.env);
  remotes.push({ scheme: 'azblob', url: backend.url });
}

/** fake-gcs-server with a bucket `hist` holding a history real Pulumi wrote there (Pulumi insists on some Google credential). */
async function addGcsRemote(ownCleanups, env, remotes) {
  const { startFakeGcs, createGcsBucket } = await import('./fake-gcs.mjs');
  const { generateHistoryInBucket } = await import('./pulumi-histories.mjs');
  const server = await startFakeGcs({ log: (line) => console.log(line) });
  ownCleanups.unshift(() => server.stop());
  await createGcsBucket(server, 'hist');
  const gcsEnv = { STORAGE_EMULATOR_HOST: server.host, GOOGLE_OAUTH_ACCESS_TOKEN: 'x' };
  generateHistoryInBucket('gs://hist', { env: gcsEnv, layout: 'project', compression: 'plain', log: (line) => console.log(line) });
  Object.assign(env, gcsEnv);
  remotes.push({ scheme: 'gs', url: 'gs://hist' });
}

/** A throwaway PostgreSQL with a database `hist` holding a history real Pulumi wrote there. */
async function addPostgresRemote(ownCleanups, remotes) {
  const { startPostgres } = await import('./postgres.mjs');
  const { generateHistoryInBucket } = await import('./pulumi-histories.mjs');
  const server = await startPostgres({ log: (line) => console.log(line) });
  ownCleanups.unshift(() => server.stop());
  server.createDatabase('hist');
  const url = `postgres://${server.superuser}@127.0.0.1:${server.port}/hist?sslmode=disable`;
  generateHistoryInBucket(url, { env: {}, layout: 'project', compression: 'plain', log: (line) => console.log(line) });
  remotes.push({ scheme: 'postgres', url });
}

/** A bucket on a real S3 server (MinIO), then each other remote scheme's server, each holding a history real Pulumi wrote there. */
async function addRemotes(ownCleanups, env, remotes) {
  const { startMinio, createBucket } = await import('./minio.mjs');
  const { generateHistoryInBucket } = await import('./pulumi-histories.mjs');
  const minio = await startMinio({ log: (line) => console.log(line) });
  ownCleanups.unshift(() => minio.stop());
  await createBucket(minio, 'hist');
  const credentials = { AWS_ACCESS_KEY_ID: minio.accessKey, AWS_SECRET_ACCESS_KEY: minio.secretKey, AWS_REGION: minio.region };
  const url = `s3://hist?endpoint=${minio.endpoint}&s3ForcePathStyle=true&region=${minio.region}`;
  generateHistoryInBucket(url, { env: credentials, layout: 'project', compression: 'plain', log: (line) => console.log(line) });
  Object.assign(env, credentials, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  remotes.push({ scheme: 's3', url });
  await addAzuriteRemote(ownCleanups, env, remotes);
  await addGcsRemote(ownCleanups, env, remotes);
  await addPostgresRemote(ownCleanups, remotes);
}

/** One suite in its own scratch folder, VS Code server and browser; all stopped before it returns. */
async function runSuite(suite, vsix) {
  const scratch = mkdtempSync(join(tmpdir(), `quota-state-ext-${suite.name}-`));
  const ownCleanups = [];
  ownCleanups.push(() => {
    if (options.keep) console.error(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  });
  const before = cleanups.length;
  try {
    const workspace = join(scratch, 'workspace');
    cpSync(join(repoRoot, suite.fixture), workspace, { recursive: true });
    // A DIY backend real Pulumi made (scripts/pulumi-histories.mjs, gzip-compressed), for the Pulumi Backends view's tests.
    // The Pulumi that made it judges what the suites write (the extension host's own cache folder is the scratch's).
    const pulumiEnv = {};
    if (suite.realBackend) {
      const { ensureHistories } = await import('./pulumi-histories.mjs');
      const histories = ensureHistories({ log: (line) => console.log(line) });
      const backend = histories.backends.find((b) => b.layout === 'project' && b.compression === 'gzip');
      cpSync(join(backend.folder, '.pulumi'), join(workspace, 'state-backend', '.pulumi'), { recursive: true });
      pulumiEnv.QUOTA_STATE_TEST_PULUMI = histories.pulumi;
    }
    // Each remote backend on its real server (MinIO, Azurite, fake-gcs-server, PostgreSQL), with a history real Pulumi wrote there.
    const bucketEnv = {};
    const remotes = [];
    if (suite.realBucket) await addRemotes(ownCleanups, bucketEnv, remotes);
    const resultsFile = join(scratch, 'results.json');
    const reportFile = join(scratch, 'mocha.txt');
    const extensionsDir = join(scratch, 'extensions');
    writeUserSettings(scratch, suite.web);
    if (suite.web) await prepareWebSuite(workspace, resultsFile, reportFile);
    // Installed the way a user installs a .vsix; the workbench then runs that folder in test mode.
    const extensionPath = vsix ? installVsix(vsix, { extensionsDir, dataDir: scratch }) : repoRoot;

    const server = await startVsCodeServer(scratch, {
      QUOTA_STATE_TEST_RESULTS: resultsFile,
      QUOTA_STATE_TEST_REPORT: reportFile,
      QUOTA_STATE_TEST_GREP: options.grep ?? '',
      // The tests start the reference quota API from the repository (it is not in the .vsix).
      QUOTA_STATE_REPO_ROOT: repoRoot,
      ...bucketEnv,
      QUOTA_STATE_TEST_REMOTES: JSON.stringify(remotes),
      ...pulumiEnv,
      ...(vsix ? { QUOTA_STATE_INSTALLED_EXTENSIONS_DIR: extensionsDir } : {}),
    });
    let testsDir = join(repoRoot, suite.out);
    if (suite.web && vsix) {
      // VS Code runs the tests in the host of the extension whose folder holds them; elsewhere, in the
      // remote (Node) host. So the browser suite goes inside the installed copy (the package is unchanged).
      const inside = join(extensionPath, 'browser-tests');
      cpSync(testsDir, inside, { recursive: true });
      testsDir = inside;
    }
    const exitCode = await runInBrowser(server.port, workspace, scratch, extensionPath, testsDir, suite.web);

    printSuiteReport(reportFile);
    const results = readResults(resultsFile);
    if (exitCode === 'timeout') {
      console.error(`extension tests (${suite.name}): no result after ${options.timeoutSeconds} s`);
      printServerLogTail(server.logFile);
      return { passed: results?.passed ?? 0, failed: results?.failed ?? 0, exitCode: SETUP_FAILURE };
    }
    if (!results) {
      console.error(`extension tests (${suite.name}): the suite did not report its results (did it load?)`);
      printServerLogTail(server.logFile);
      return { passed: 0, failed: 0, exitCode: SETUP_FAILURE };
    }
    console.log(`suite "${suite.name}": ${results.passed} passed, ${results.failed} failed`);
    if (results.passed + results.failed === 0) return { passed: 0, failed: 0, exitCode: 1 };
    return { passed: results.passed, failed: results.failed, failing: results.failing ?? [], figures: results.figures, exitCode: results.failed === 0 && exitCode === 0 ? 0 : 1 };
  } finally {
    // Stop this suite's server and browser before the next suite starts.
    const mine = cleanups.splice(before).reverse();
    for (const undo of [...mine, ...ownCleanups]) {
      try {
        await undo();
      } catch (error) {
        console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}

function parseArguments(args) {
  const parsed = { timeoutSeconds: 900, grep: undefined, keep: false, verbose: false, buildOnly: false, dev: false, vsix: undefined, suite: undefined, results: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--timeout') parsed.timeoutSeconds = Number(args[++i]);
    else if (arg === '--grep') parsed.grep = args[++i];
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--verbose') parsed.verbose = true;
    else if (arg === '--build-only') parsed.buildOnly = true;
    else if (arg === '--dev') parsed.dev = true;
    else if (arg === '--vsix') parsed.vsix = args[++i];
    else if (arg === '--suite') parsed.suite = args[++i];
    else if (arg === '--results') parsed.results = args[++i];
    else {
      console.error(`unknown argument ${arg}`);
      process.exit(SETUP_FAILURE);
    }
  }
  if (parsed.dev && parsed.vsix) {
    console.error('--dev and --vsix exclude each other');
    process.exit(SETUP_FAILURE);
  }
  if (!Number.isFinite(parsed.timeoutSeconds) || parsed.timeoutSeconds <= 0) {
    console.error('--timeout needs a positive number of seconds');
    process.exit(SETUP_FAILURE);
  }
  return parsed;
}

/** Bundles, per suite, the mocha index and every *.test.ts into its out folder (mocha and vscode stay runtime requires). */
async function buildTests(suites) {
  const esbuild = await import('esbuild');
  for (const suite of suites) {
    const suiteDir = join(repoRoot, suite.sources);
    const outDir = join(repoRoot, suite.out);
    if (suite.web) {
      await buildWebTests(esbuild, suiteDir, outDir);
      continue;
    }
    const entryPoints = { index: join(repoRoot, 'test', 'extension', 'index.ts') };
    for (const name of readdirSync(suiteDir)) {
      if (name.endsWith('.test.ts')) entryPoints[name.replace(/\.ts$/, '')] = join(suiteDir, name);
    }
    rmSync(outDir, { recursive: true, force: true });
    await esbuild.build({
      entryPoints,
      outdir: outDir,
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
}

/** The web worker host loads one CommonJS script that may require only `vscode`: index and suites in one bundle. */
async function buildWebTests(esbuild, suiteDir, outDir) {
  const tests = readdirSync(suiteDir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
  rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    stdin: {
      contents: [
        `import { runSuites } from ${JSON.stringify(join(repoRoot, 'test', 'extension', 'webIndex.ts'))};`,
        `export function run() { return runSuites(() => { ${tests.map((name) => `require(${JSON.stringify(join(suiteDir, name))});`).join(' ')} }); }`,
      ].join('\n'),
      resolveDir: suiteDir,
      sourcefile: 'web-tests.js',
      loader: 'ts',
    },
    outfile: join(outDir, 'index.js'),
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    sourcemap: 'inline',
    external: ['vscode'],
    logLevel: 'warning',
    plugins: [mochaBrowserScript],
  });
}

/**
 * mocha's browser build is a UMD script: bundled as a module it would see the bundle's own
 * `module` and replace its exports with mocha's. Run as a plain script it sets `globalThis.mocha`.
 */
const mochaBrowserScript = {
  name: 'mocha-browser-script',
  setup(build) {
    build.onLoad({ filter: /[\\/]mocha[\\/]mocha\.js$/ }, (args) => ({
      contents: `new Function(${JSON.stringify(readFileSync(args.path, 'utf8'))}).call(globalThis);`,
      loader: 'js',
    }));
  },
};

/**
 * The browser suite's outside world: a results endpoint (the suite POSTs its report and counts;
 * written to the files the Node suites write) and the reference quota API, started with --cors as
 * a Forgejo with [cors] would be. Both addresses reach the suite through the workspace settings.
 */
async function prepareWebSuite(workspace, resultsFile, reportFile) {
  const results = createServer((request, response) => {
    const headers = { 'Access-Control-Allow-Origin': '*' };
    if (request.method !== 'POST') {
      response.writeHead(204, headers).end();
      return;
    }
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      try {
        const { passed, failed, failing, report, figures } = JSON.parse(body);
        writeFileSync(reportFile, report);
        writeFileSync(resultsFile, JSON.stringify({ passed, failed, failing, figures }));
        if (options.verbose) console.error(`web suite results from origin ${request.headers.origin}`);
      } catch (error) {
        console.error(`extension tests (web): unreadable results: ${error}`);
      }
      response.writeHead(204, headers).end();
    });
  });
  await new Promise((done) => results.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => results.close(() => done())));
  const api = await startCorsQuotaApi();
  const settingsDir = join(workspace, '.vscode');
  mkdirSync(settingsDir, { recursive: true });
  writeFileSync(
    join(settingsDir, 'settings.json'),
    JSON.stringify(
      {
        'quotaStateTest.resultsUrl': `http://127.0.0.1:${results.address().port}/results`,
        'quotaStateTest.apiBaseUrl': api,
        'quotaStateTest.grep': options.grep ?? '',
      },
      null,
      2,
    ),
  );
}

/** The reference API (dist/quota-api/main.js from the build) on the demo instance, answering any origin of this machine. */
function startCorsQuotaApi() {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'dist', 'quota-api', 'main.js'),
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      join(repoRoot, 'examples', 'demo.quota.jsonc'),
      '--log-level',
      'warn',
      '--cors',
      WEB_SUITE_CORS_ORIGINS,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  cleanups.push(() => killProcessGroup(child));
  return new Promise((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the quota API did not start: ${output}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /(http:\/\/\S+\/api\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the quota API exited (code ${code}): ${output}`));
    });
  });
}

function writeUserSettings(scratch, web = false) {
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
    // The browser suite: VS Code 1.100's web workbench ignores the payload's extensionDevelopmentKind
    // (its environment service names it extensionDevelopmentLocationKind), so the user setting that
    // overrides an extension's kind puts it in the web worker extension host.
    ...(web ? { 'remote.extensionKind': { 'quota-state.quota-state': ['web'] } } : {}),
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
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--telemetry-level',
      'off',
      '--server-data-dir',
      dirs['server-data'],
      '--user-data-dir',
      dirs['user-data'],
      '--extensions-dir',
      dirs.extensions,
      '--log',
      'info',
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
async function runInBrowser(port, workspace, scratch, extensionPath, testsDir, web = false) {
  const requireFromHost = createRequire(join(hostDir, 'package.json'));
  const { chromium } = requireFromHost('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    env: { ...process.env, TMPDIR: join(scratch, 'tmp'), XDG_CONFIG_HOME: join(scratch, 'xdg-config'), XDG_CACHE_HOME: join(scratch, 'xdg-cache') },
  });
  cleanups.push(() => Promise.race([browser.close(), new Promise((done) => setTimeout(done, 5_000))]));
  // English, whatever the machine's language: the suites compare messages with the CLI's, which is always English.
  const page = await browser.newPage({ locale: 'en-US' });
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
    ['extensionDevelopmentPath', `vscode-remote://${authority}${extensionPath}`],
    ['extensionTestsPath', `vscode-remote://${authority}${testsDir}${web ? '/index.js' : ''}`],
    // The browser's web worker extension host instead of the server's Node one.
    ...(web ? [['extensionDevelopmentKind', 'web']] : []),
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
