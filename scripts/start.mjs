// `npm start`: checks the system packages it needs, builds, then runs the product on the embedded
// default — the reference quota API server with the demo instance (examples/demo.quota.jsonc) on a
// persistent database under .data/, and VS Code in the browser on a scratch copy of examples/
// (.data/demo-workspace, fresh on every start, so nothing done in the demo touches the checkout)
// — and prints the URL and the demo tokens. Ctrl+C stops everything.
//
// Each service is a `start…()` returning `{ describe(): string[], stop(): Promise<void> }`;
// more services are added to `services` in main().
// Environment: QUOTA_API_PORT (default 3000; 0 = any free port), QUOTA_API_DB (default .data/quota-api.sqlite),
// QUOTA_API_FORGEJO_VERSION (the Forgejo version the API answers as, e.g. 11.0.3; default: quota-api's, 15.0.9).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonc from 'jsonc-parser';

const { parse: parseJsonc } = jsonc;
import { nativeBuildEnv, requireSystemPackages, startVsCodeWeb, VSCODE_HOST_PACKAGES, vsCodeHostInstalled } from './vscode-web.mjs';

// The VS Code server's native modules build against this Node's headers (node-gyp would download them).
const nodedir = nativeBuildEnv().npm_config_nodedir;
if (nodedir) process.env.npm_config_nodedir = nodedir;

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const demoInstance = join(repoRoot, 'examples', 'demo.quota.jsonc');
/** The demo's Forgejo server configuration: its [quota] settings apply over the instance file's. */
export const demoConfig = join(repoRoot, 'examples', 'app.ini');
export const demoWorkspace = join(repoRoot, '.data', 'demo-workspace');

/**
 * A fresh copy of examples/ for the demo: VS Code in the browser auto-saves, so trying a quick fix
 * would otherwise rewrite the tracked examples.
 */
export function prepareDemoWorkspace(target = demoWorkspace) {
  rmSync(target, { recursive: true, force: true });
  cpSync(join(repoRoot, 'examples'), target, { recursive: true });
  // The demo quota file's "$schema" is "../schemas/…", so the schemas sit beside the copy as they sit beside examples/.
  const schemasBeside = join(dirname(target), 'schemas');
  rmSync(schemasBeside, { recursive: true, force: true });
  cpSync(join(repoRoot, 'schemas'), schemasBeside, { recursive: true });
  return target;
}

export function build() {
  const result = spawnSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`build failed (exit ${result.status})`);
}

/** The demo accounts that have tokens, read from the instance file (JSONC: comments are stripped first). */
export function demoTokens(file = demoInstance) {
  // The instance file is JSONC: parse it with the same parser the product uses.
  const instance = parseJsonc(readFileSync(file, 'utf8')) ?? {};
  return (Array.isArray(instance.accounts) ? instance.accounts : [])
    .filter((account) => typeof account?.name === 'string' && typeof account?.token === 'string')
    .map((account) => ({ account: account.name, token: account.token, admin: account.admin === true }));
}

/**
 * Starts `quota-api` on the demo instance; resolves once it printed its base URL.
 * @returns {Promise<{ baseUrl: string, describe(): string[], stop(): Promise<void> }>}
 */
export function startQuotaApi({
  host = '127.0.0.1',
  port = Number(process.env.QUOTA_API_PORT ?? 3000),
  db = process.env.QUOTA_API_DB ?? join(repoRoot, '.data', 'quota-api.sqlite'),
  seed = demoInstance,
  config = demoConfig,
  forgejoVersion = process.env.QUOTA_API_FORGEJO_VERSION || undefined,
} = {}) {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'dist', 'quota-api', 'main.js'),
      '--host',
      host,
      '--port',
      String(port),
      '--db',
      db,
      '--seed',
      seed,
      '--config',
      config,
      '--log-level',
      'warn',
      ...(forgejoVersion ? ['--forgejo-version', forgejoVersion] : []),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolveExit) => child.on('exit', (code, signal) => resolveExit(code ?? signal)));
  return new Promise((resolveStart, rejectStart) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline === -1) return;
      const baseUrl = out.slice(0, newline).trim();
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolveStart({
        baseUrl,
        describe: () => [
          `quota API:   ${baseUrl}   (database ${db}, settings from ${config}, answering as Forgejo ${forgejoVersion ?? '15.0.9'})`,
          ...demoTokens(seed).map(({ account, token, admin }) => `  token for ${account}${admin ? ' (site admin)' : ''}: ${token}`),
          `  try: curl -H 'Authorization: token ${demoTokens(seed)[0]?.token ?? '<token>'}' ${baseUrl}/admin/quota/rules`,
        ],
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    exited.then((code) => rejectStart(new Error(`quota-api exited (${code}) before listening`)));
  });
}

async function main() {
  // Before anything slow: on a fresh machine the first run installs VS Code's server, which needs these.
  try {
    requireSystemPackages(vsCodeHostInstalled() ? [] : VSCODE_HOST_PACKAGES, { for: 'npm start' });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
    return;
  }
  build();
  const services = [];
  const stopAll = async () => {
    await Promise.allSettled(services.map((service) => service.stop()));
    process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  try {
    const api = await startQuotaApi();
    services.push(api);
    services.push(await startVsCodeWeb(api.baseUrl, { folder: prepareDemoWorkspace() }));
  } catch (error) {
    console.error(`npm start: ${error instanceof Error ? error.message : error}`);
    await stopAll();
    process.exitCode = 1;
    return;
  }
  console.log('');
  for (const service of services) for (const line of service.describe()) console.log(line);
  console.log('\nCtrl+C to stop.');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
