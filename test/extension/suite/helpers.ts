/** Helpers for the Node extension-host tests: the shared ones (../common.ts) and those that need node. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeExtension, EXTENSION_ID, setSetting } from '../common';

export * from '../common';

/**
 * The repository checkout, for what the .vsix does not ship (the reference quota API, examples/).
 * The runner names it; run from the source folder, it is the extension's own folder.
 */
export function repositoryRoot(): string {
  if (process.env.QUOTA_STATE_REPO_ROOT) return process.env.QUOTA_STATE_REPO_ROOT;
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error('extension not loaded');
  return extension.extensionPath;
}

export interface QuotaApiServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The real reference API (built dist/quota-api/main.js), in-memory database, seeded with the demo
 * instance or `seed`; `args` go to quota-api as they are (e.g. `--forgejo-version 11.0.3`).
 */
export function startQuotaApi(seed?: string, args: string[] = []): Promise<QuotaApiServer> {
  const root = repositoryRoot();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, 'dist', 'quota-api', 'main.js'), '--port', '0', '--db', ':memory:', '--seed', seed ?? path.join(root, 'examples', 'demo.quota.jsonc'), ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the quota API did not start: ${output}`));
    }, 20_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /(https?:\/\/\S+\/api\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ baseUrl: match[1], stop });
      }
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the quota API exited (code ${code}): ${output}`));
    });
  });
}

/** Starts the reference API and points the extension at it, as a user's settings would. */
export async function connectToQuotaApi(seed?: string, args: string[] = []): Promise<QuotaApiServer> {
  await activeExtension();
  const server = await startQuotaApi(seed, args);
  await setSetting('api.baseUrl', server.baseUrl);
  await setSetting('api.timeout', 10_000);
  return server;
}

/** Undoes `connectToQuotaApi`: signs out, clears the settings and stops the server. */
export async function disconnectFromQuotaApi(server: QuotaApiServer | undefined): Promise<void> {
  await vscode.commands.executeCommand('quotaState.signOut');
  await setSetting('api.baseUrl', undefined);
  await setSetting('api.timeout', undefined);
  await server?.stop();
}

/** Direct HTTP to the API, to assert what a command changed on the server. */
export async function apiGet(baseUrl: string, token: string, apiPath: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${apiPath}`, { headers: { authorization: `token ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
