// Serves a full VS Code in the browser (VS Code's own server from the `code-server` npm package in
// test/vscode-host) with this extension installed and a folder open. Used by `npm start`.
// The server runs in its own process group; `stop()` ends the whole group.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { delimiter, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(repoRoot, 'test', 'vscode-host');
const serverMain = join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Debian packages the scripts rely on, each with a cheap probe for what it provides. */
const SYSTEM_PACKAGES = {
  chromium: { why: 'the browser the extension-host tests drive', present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
  ripgrep: { why: "rg, which VS Code's server needs for search", present: () => onPath('rg') },
  'libkrb5-dev': { why: "headers for the kerberos module of VS Code's server", present: () => existsSync('/usr/include/gssapi/gssapi.h') },
  'build-essential': { why: "g++ and make for the native modules of VS Code's server", present: () => onPath('g++') && onPath('make') },
  python3: { why: 'node-gyp, which builds those modules', present: () => onPath('python3') },
};

/** What installing test/vscode-host needs (it builds native modules and seeds rg from Debian's). */
export const VSCODE_HOST_PACKAGES = ['ripgrep', 'libkrb5-dev', 'build-essential', 'python3'];

export function vsCodeHostInstalled() {
  return existsSync(serverMain) && existsSync(join(hostDir, 'node_modules', 'playwright-core'));
}

/**
 * Makes sure the Debian packages `names` are present. Missing ones are installed with apt-get when this
 * runs as root on a machine that has it (as CI and a fresh container do); otherwise this throws one
 * message with the single `apt-get install` line for all of them, instead of failing half-way through.
 */
export function requireSystemPackages(names, { for: purpose }) {
  const missing = names.filter((name) => !SYSTEM_PACKAGES[name].present());
  if (missing.length === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && onPath('apt-get')) {
    console.error(`${purpose}: installing the missing Debian packages ${missing.join(', ')} with apt-get…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env }) : update;
    const still = missing.filter((name) => !SYSTEM_PACKAGES[name].present());
    if (install.status === 0 && still.length === 0) return;
    throw new Error(`${purpose}: apt-get could not install ${still.join(', ') || missing.join(', ')} (exit ${install.status})`);
  }
  throw new Error(
    [
      `${purpose} need${purpose.endsWith('s') ? '' : 's'} system packages that are missing:`,
      ...missing.map((name) => `  ${name}: ${SYSTEM_PACKAGES[name].why}`),
      'Install them with:',
      `  ${root ? '' : 'sudo '}apt-get install -y ${missing.join(' ')}`,
    ].join('\n'),
  );
}

/**
 * npm's environment for building native addons (better-sqlite3, the VS Code server's modules) against
 * the installed Node's own headers: where npm is not preset to, node-gyp would download them, and this
 * machine cannot reach that server.
 */
export function nativeBuildEnv(base = process.env) {
  if (base.npm_config_nodedir) return base;
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? { ...base, npm_config_nodedir: prefix } : base;
}

/** Installs test/vscode-host (code-server + playwright-core) from its lockfile when missing (about a minute, npm registry only). */
export function ensureVsCodeHost() {
  if (vsCodeHostInstalled()) return;
  requireSystemPackages(VSCODE_HOST_PACKAGES, { for: "Installing VS Code's server" });
  console.error('installing the VS Code server (test/vscode-host, about a minute)…');
  const seed = spawnSync(process.execPath, [join(hostDir, 'seed-ripgrep-cache.mjs')], { stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('could not seed the ripgrep cache (is the Debian package "ripgrep" installed?)');
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: hostDir,
    stdio: 'inherit',
    // code-server's postinstall fails as root without unsafe-perm; node-pty's runs `npx node-gyp`.
    env: { ...nativeBuildEnv(), npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
  });
  if (install.status !== 0) throw new Error(`npm ci in ${hostDir} failed (exit ${install.status})`);
}

/** `vsce package` (which runs `vscode:prepublish`, the production build) into `outFile`; returns it. */
export function packageVsix(outFile) {
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  if (!existsSync(vsce)) throw new Error('@vscode/vsce is not installed; run `npm ci` first');
  const result = spawnSync(vsce, ['package', '--no-dependencies', '--out', outFile], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0 || !existsSync(outFile)) throw new Error(`vsce package failed (exit ${result.status})`);
  return outFile;
}

/**
 * Installs a .vsix into `extensionsDir` with VS Code's own installer (`server-main.js
 * --install-extension`, what a user's "Install from VSIX…" runs) and returns the installed folder.
 */
export function installVsix(vsix, { extensionsDir, dataDir }) {
  ensureVsCodeHost();
  mkdirSync(extensionsDir, { recursive: true });
  const result = spawnSync(
    process.execPath,
    [
      serverMain,
      '--install-extension',
      vsix,
      '--force',
      '--extensions-dir',
      extensionsDir,
      '--accept-server-license-terms',
      '--server-data-dir',
      join(dataDir, 'server-data'),
      '--user-data-dir',
      join(dataDir, 'user-data'),
    ],
    { encoding: 'utf8', env: { ...process.env, EXTENSIONS_GALLERY: '{}' } },
  );
  if (result.status !== 0) throw new Error(`installing ${vsix} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  const { publisher, name } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const id = `${publisher}.${name}`.toLowerCase();
  const installed = JSON.parse(readFileSync(join(extensionsDir, 'extensions.json'), 'utf8'));
  const entry = installed.find((extension) => extension.identifier?.id?.toLowerCase() === id);
  if (!entry) throw new Error(`${vsix} installed, but ${id} is not in ${extensionsDir}/extensions.json`);
  return join(extensionsDir, entry.relativeLocation);
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
  writeFileSync(join(userDir, 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoUpdate': false, ...settings }, null, 2));
  const child = spawn(
    process.execPath,
    [
      serverMain,
      '--host',
      host,
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--telemetry-level',
      'off',
      '--server-data-dir',
      dirs['server-data'],
      '--user-data-dir',
      dirs['user-data'],
      '--extensions-dir',
      dirs.extensions,
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
 * The `npm start` service: VS Code in the browser on `folder` (npm start passes a scratch copy of
 * examples/), with the extension installed and `quotaState.api.baseUrl` pointing at the local quota API.
 * Environment: QUOTA_VSCODE_PORT (default 8080; 0 = any free port).
 * @returns {Promise<{ describe(): string[], stop(): Promise<void> }>}
 */
export async function startVsCodeWeb(apiBaseUrl, { folder, port = Number(process.env.QUOTA_VSCODE_PORT ?? 8080) }) {
  const { url, stop } = await serveVsCode({
    folder,
    dataDir: join(repoRoot, '.data', 'vscode'),
    port,
    settings: { 'quotaState.api.baseUrl': apiBaseUrl, 'security.workspace.trust.enabled': false, 'git.openRepositoryInParentFolders': 'never' },
  });
  return {
    describe: () => [
      `VS Code:     ${url}`,
      `  on ${folder}, a fresh copy of examples/ (edits there never touch the checkout)`,
      '  open it in a browser; run "Quota: Sign In" (Ctrl+Shift+P) with one of the tokens above',
    ],
    stop,
  };
}
