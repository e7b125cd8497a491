// Serves a full VS Code in the browser (VS Code's own server from the `code-server` npm package in
// test/vscode-host) with this extension installed and a folder open. Used by `npm start`.
// The server runs in its own process group; `stop()` ends the whole group.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(repoRoot, 'test', 'vscode-host');
const serverMain = join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');

/** Installs test/vscode-host (code-server + playwright-core) from its lockfile when missing (about a minute, npm registry only). */
export function ensureVsCodeHost() {
  if (existsSync(serverMain) && existsSync(join(hostDir, 'node_modules', 'playwright-core'))) return;
  console.error('installing the VS Code server (test/vscode-host, about a minute)…');
  const seed = spawnSync(process.execPath, [join(hostDir, 'seed-ripgrep-cache.mjs')], { stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('could not seed the ripgrep cache (is the Debian package "ripgrep" installed?)');
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: hostDir,
    stdio: 'inherit',
    // code-server's postinstall fails as root without unsafe-perm; node-pty's runs `npx node-gyp`.
    env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
  });
  if (install.status !== 0) throw new Error(`npm ci in ${hostDir} failed (exit ${install.status})`);
}

/**
 * @param {{ folder: string, dataDir: string, settings: Record<string, unknown>, host?: string, port?: number }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function serveVsCode({ folder, dataDir, settings, host = '127.0.0.1', port = 0 }) {
  ensureVsCodeHost();
  const dirs = {};
  for (const name of ['server-data', 'user-data', 'extensions']) {
    dirs[name] = join(dataDir, name);
    mkdirSync(dirs[name], { recursive: true });
  }
  // The extension under development, installed by link: edits + `npm run build` show after a window reload.
  const { version, publisher, name } = JSON.parse((await import('node:fs')).readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const link = join(dirs.extensions, `${publisher}.${name}-${version}`);
  rmSync(link, { recursive: true, force: true });
  symlinkSync(repoRoot, link, 'dir');
  const userDir = join(dirs['user-data'], 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(
    join(userDir, 'settings.json'),
    JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoUpdate': false, ...settings }, null, 2),
  );
  const child = spawn(
    process.execPath,
    [
      serverMain, '--host', host, '--port', String(port), '--without-connection-token', '--accept-server-license-terms',
      '--telemetry-level', 'off', '--server-data-dir', dirs['server-data'], '--user-data-dir', dirs['user-data'],
      '--extensions-dir', dirs.extensions,
    ],
    { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EXTENSIONS_GALLERY: '{}' } },
  );
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return done();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 3000).unref();
    });
  const listeningPort = await new Promise((resolvePort, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Extension host agent listening on (\d+)/.exec(output);
      if (match) resolvePort(Number(match[1]));
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`the VS Code server exited (code ${code}):\n${output}`)));
  });
  const url = `http://${host}:${listeningPort}/?folder=${encodeURIComponent(resolve(folder))}`;
  return { url, stop };
}

/**
 * The `npm start` service: VS Code in the browser on examples/, with the extension installed and
 * `quotaState.api.baseUrl` pointing at the local quota API.
 * Environment: QUOTA_VSCODE_PORT (default 8080; 0 = any free port).
 * @returns {Promise<{ describe(): string[], stop(): Promise<void> }>}
 */
export async function startVsCodeWeb(apiBaseUrl, { port = Number(process.env.QUOTA_VSCODE_PORT ?? 8080) } = {}) {
  const { url, stop } = await serveVsCode({
    folder: join(repoRoot, 'examples'),
    dataDir: join(repoRoot, '.data', 'vscode'),
    port,
    settings: { 'quotaState.api.baseUrl': apiBaseUrl, 'security.workspace.trust.enabled': false, 'git.openRepositoryInParentFolders': 'never' },
  });
  return {
    describe: () => [
      `VS Code:     ${url}`,
      '  open it in a browser; run "Quota: Sign In" (Ctrl+Shift+P) with one of the tokens above',
    ],
    stop,
  };
}
