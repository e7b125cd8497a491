#!/usr/bin/env node
// `npm test`: build, type-check, package the .vsix, run every mocha test (the .vsix's own server
// included), then the extension-host suites against that .vsix installed in a real VS Code.
// Ends with one line counting every test that ran, mocha and extension host together:
//   N passed, M failed
// Exit code: 0 only when every step succeeded and no test failed.
// Environment: QUOTA_STATE_SKIP_EXTENSION_HOST=1 runs everything but the VS Code suites.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureFakeGcs } from './fake-gcs.mjs';
import { ensureMinio } from './minio.mjs';
import { ensurePostgres } from './postgres.mjs';
import { ensurePulumi } from './pulumi-cli.mjs';
import { nativeBuildEnv, packageVsix } from './vscode-web.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Every npm install below (the VS Code server's native modules) builds against this Node's headers.
const nodedir = nativeBuildEnv().npm_config_nodedir;
if (nodedir) process.env.npm_config_nodedir = nodedir;
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-test-'));
const totals = { passed: 0, failed: 0 };
const failing = [];
const summary = [];
let ok = true;

function step(title, command, args, env = {}) {
  console.log(`\n> ${title}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) console.error(`${title}: ${result.error.message}`);
  return result.status === 0;
}

function readCounts(file) {
  try {
    const counts = JSON.parse(readFileSync(file, 'utf8'));
    return { passed: Number(counts.passed) || 0, failed: Number(counts.failed) || 0, pending: Number(counts.pending) || 0, failing: Array.isArray(counts.failing) ? counts.failing : [] };
  } catch {
    return undefined;
  }
}

function finish() {
  rmSync(scratch, { recursive: true, force: true });
  console.log('');
  for (const line of summary) console.log(line);
  // The last line counts; the lines above it name every failing test, so a flaky one can be found.
  for (const title of failing) console.log(`failed: ${title}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(ok && totals.failed === 0 && totals.passed > 0 ? 0 : 1);
}

try {
  if (!step('type-check', 'npx', ['--no-install', 'tsc', '--noEmit', '-p', '.'])) {
    ok = false;
    summary.push('type-check failed: no tests ran');
    finish();
  }
  console.log('\n> package the .vsix (vsce package, which runs the production build)');
  const vsix = packageVsix(join(scratch, 'quota-state.vsix'));
  // The mocha suites drive the built programs in dist/; give them the development build (source maps).
  if (!step('build', process.execPath, ['esbuild.mjs'])) {
    ok = false;
    summary.push('build failed: no tests ran');
    finish();
  }

  // State verdicts and edits are judged by the real Pulumi: build the pinned CLI once (cached by version).
  console.log('\n> the real Pulumi CLI (tools/pulumi; built on first use, then cached)');
  const pulumi = ensurePulumi({ log: (line) => console.log(line) });
  console.log(`pulumi ${pulumi.version}: ${pulumi.pulumi}`);
  // The s3:// tests run against a real S3 server, MinIO, built from its Go module the same way (test-only: AGPL).
  console.log('\n> MinIO, the S3 server of the object-storage tests (tools/minio; built on first use, then cached)');
  console.log(`minio: ${ensureMinio({ log: (line) => console.log(line) })}`);
  // The gs:// tests run against a real Google Cloud Storage JSON API server, fake-gcs-server, built the same way (test-only).
  console.log('\n> fake-gcs-server, the GCS server of the gs:// tests (tools/fake-gcs-server; built on first use, then cached)');
  console.log(`fake-gcs-server: ${ensureFakeGcs({ log: (line) => console.log(line) })}`);
  // The postgres:// tests run against a real PostgreSQL, Debian's package (installed with apt-get when missing and root).
  console.log("\n> PostgreSQL, the server of the postgres:// tests (Debian's postgresql; a throwaway cluster per test file)");
  console.log(`postgres: ${ensurePostgres({ log: (line) => console.log(line) })}`);

  const mochaResults = join(scratch, 'mocha.json');
  const mochaOk = step('mocha', join(repoRoot, 'node_modules', '.bin', 'mocha'), ['--reporter', join(repoRoot, 'scripts', 'mocha-counting-reporter.cjs')], {
    QUOTA_STATE_MOCHA_RESULTS: mochaResults,
    QUOTA_STATE_VSIX: vsix,
  });
  const mocha = readCounts(mochaResults);
  if (mocha) {
    totals.passed += mocha.passed;
    totals.failed += mocha.failed;
    failing.push(...mocha.failing.map((title) => `mocha: ${title}`));
    summary.push(`mocha: ${mocha.passed} passed, ${mocha.failed} failed${mocha.pending ? `, ${mocha.pending} pending` : ''}`);
  } else summary.push('mocha: did not report its results');
  if (!mochaOk || !mocha) ok = false;

  if (process.env.QUOTA_STATE_SKIP_EXTENSION_HOST === '1') {
    summary.push('extension host: skipped (QUOTA_STATE_SKIP_EXTENSION_HOST=1)');
  } else {
    const hostResults = join(scratch, 'extension-host.json');
    const hostOk = step('extension host (the .vsix installed in VS Code)', process.execPath, [join(repoRoot, 'scripts', 'test-extension.mjs'), '--vsix', vsix, '--results', hostResults]);
    const host = readCounts(hostResults);
    if (host) {
      totals.passed += host.passed;
      totals.failed += host.failed;
      failing.push(...host.failing.map((title) => `extension host: ${title}`));
      summary.push(`extension host: ${host.passed} passed, ${host.failed} failed`);
    } else summary.push('extension host: did not report its results');
    if (!hostOk || !host) ok = false;
  }
} catch (error) {
  ok = false;
  summary.push(`npm test: ${error instanceof Error ? error.message : error}`);
}
finish();
