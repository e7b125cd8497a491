#!/usr/bin/env node
// Runs the same extension-host suite (dist/test/extension) in desktop VS Code through
// @vscode/test-electron. It downloads VS Code, so it needs a machine with internet access and is
// not part of `npm test` (which uses scripts/test-extension.mjs, offline).
// Usage: npm run test:electron   (installs @vscode/test-electron without saving it, if missing)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repoRoot, 'package.json'));

function load() {
  try {
    return require('@vscode/test-electron');
  } catch {
    console.error('installing @vscode/test-electron (not saved to package.json)…');
    const install = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '@vscode/test-electron@^2'], { cwd: repoRoot, stdio: 'inherit' });
    if (install.status !== 0) process.exit(2);
    return require('@vscode/test-electron');
  }
}

const { runTests } = load();
// The suite bundles are built by the offline runner; build them without starting a browser.
const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'test-extension.mjs'), '--build-only'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(2);
if (!existsSync(join(repoRoot, 'dist', 'test', 'extension', 'index.js'))) {
  console.error('the extension-host suite was not built');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-electron-'));
const workspace = join(scratch, 'workspace');
cpSync(join(repoRoot, 'test', 'extension', 'fixtures', 'workspace'), workspace, { recursive: true });
try {
  await runTests({
    version: process.env.VSCODE_VERSION ?? '1.100.3',
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(repoRoot, 'dist', 'test', 'extension'),
    // English, whatever the machine's language: the suites compare messages with the CLI's, which is always English.
    launchArgs: [workspace, '--locale=en', '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(scratch, 'user-data')],
  });
  console.log('extension tests passed in desktop VS Code');
} catch (error) {
  console.error(`extension tests failed in desktop VS Code: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
