/**
 * Helpers for the extension-host tests that use only the `vscode` API, so both hosts share them:
 * Node's (test/extension/suite) and the browser's web worker (test/extension/webSuite).
 */
import * as vscode from 'vscode';
import type { TestHooks } from '../../client/extension';

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
