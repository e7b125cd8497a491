/** Helpers for the extension-host tests; they use only the `vscode` API and node. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestHooks } from '../../../client/extension';

export const EXTENSION_ID = 'quota-state.quota-state';

export async function activeExtension(): Promise<{ extension: vscode.Extension<TestHooks | undefined>; hooks: TestHooks }> {
  const extension = vscode.extensions.getExtension<TestHooks | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const hooks = await extension.activate();
  if (!hooks) throw new Error('the extension did not expose its test hooks (is it running in test mode?)');
  return { extension, hooks };
}

export function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need the fixture workspace folder open');
  return vscode.Uri.joinPath(folder.uri, name);
}

/** Resolves when `check` returns a value; re-checks on each event and gives up with `what` after a generous limit. */
export function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, events: vscode.Event<unknown>[], limitMs = 150_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const subscriptions: vscode.Disposable[] = [];
    let settled = false;
    const finish = (error: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const s of subscriptions) s.dispose();
      if (error) reject(error);
      else resolve(value as T);
    };
    const attempt = async () => {
      try {
        const value = await check();
        if (value !== undefined) finish(undefined, value);
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const timer = setTimeout(() => finish(new Error(`gave up waiting for ${what}`)), limitMs);
    // Events make this prompt; the slow poll only covers anything without an event.
    const poll = setInterval(() => void attempt(), 500);
    for (const event of events) subscriptions.push(event(() => void attempt()));
    void attempt();
  });
}

export function diagnosticsWith(uri: vscode.Uri, codes: string[]): Promise<vscode.Diagnostic[]> {
  return waitFor(
    `diagnostics ${codes.join(', ')} on ${uri.fsPath}`,
    () => {
      const diagnostics = vscode.languages.getDiagnostics(uri);
      const present = new Set(diagnostics.map(codeOf));
      return codes.every((code) => present.has(code)) ? diagnostics : undefined;
    },
    [vscode.languages.onDidChangeDiagnostics],
  );
}

export function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' && code !== null ? String(code.value) : String(code);
}

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

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('quotaState').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Reverts every edited document and closes every editor, so each test starts from the fixture files. */
export async function revertAndCloseAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.isUntitled) continue;
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || !document.isUntitled) continue;
    // Untitled documents (reports, previews) are emptied so closing them asks nothing.
    const edit = new vscode.WorkspaceEdit();
    edit.delete(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)));
    await vscode.workspace.applyEdit(edit);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
