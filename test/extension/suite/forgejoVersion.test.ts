/**
 * The previews follow the Forgejo version of the server the editor is signed in to: the same quota
 * file shows a rule at its limit failing against a 15.0.9 server and standing against an 11.0.3 one.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension, connectToQuotaApi, disconnectFromQuotaApi, revertAndCloseAll, setSetting, startQuotaApi, waitFor, workspaceUri, type QuotaApiServer } from './helpers';

const ALICE_TOKEN = 'demo-alice-token';

describe('the Forgejo version of the connected server', () => {
  let newest: QuotaApiServer | undefined;
  let lts: QuotaApiServer | undefined;
  after(async () => {
    await disconnectFromQuotaApi(newest);
    await lts?.stop();
    await revertAndCloseAll();
  });

  async function hints(uri: vscode.Uri): Promise<string[]> {
    const document = await vscode.workspace.openTextDocument(uri);
    const range = new vscode.Range(0, 0, document.lineCount, 0);
    const found = (await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, range)) ?? [];
    return found.map((hint) => (typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('')));
  }

  it('changes the preview and the language status when the server changes from 15.0.9 to 11.0.3', async () => {
    const { hooks } = await activeExtension();
    newest = await connectToQuotaApi(undefined, ['--forgejo-version', '15.0.9']);
    await vscode.commands.executeCommand('quotaState.signIn', { token: ALICE_TOKEN });
    await waitFor('the live version 15.0.9', () => (hooks.liveUsage()?.version === '15.0.9+gitea-1.22.0' ? true : undefined), []);
    const uri = workspaceUri('version.quota.jsonc');
    await vscode.window.showTextDocument(uri);
    const failing = await waitFor('the 15.0 preview', async () => ((await hints(uri)).includes('✗ planner 1 KiB/1 KiB') ? true : undefined), [hooks.onDocumentStatus]);
    assert.ok(failing);
    const status15 = await waitFor('the 15.0 status', () => (hooks.documentStatus(uri.toString())?.forgejo?.rules === 'Forgejo 15.0 rules' ? hooks.documentStatus(uri.toString()) : undefined), [
      hooks.onDocumentStatus,
    ]);
    assert.equal(status15.forgejo?.source, 'server');

    lts = await startQuotaApi(undefined, ['--forgejo-version', '11.0.3']);
    await setSetting('api.baseUrl', lts.baseUrl);
    await vscode.commands.executeCommand('quotaState.signIn', { token: ALICE_TOKEN });
    await waitFor('the live version 11.0.3', () => (hooks.liveUsage()?.version === '11.0.3+gitea-1.22.0' ? true : undefined), []);
    await waitFor('the 11.0 preview', async () => ((await hints(uri)).includes('✓ planner 1 KiB/1 KiB') ? true : undefined), [hooks.onDocumentStatus]);
    const status11 = await waitFor('the 11.0 status', () => (hooks.documentStatus(uri.toString())?.forgejo?.rules === 'Forgejo 11.0 rules' ? hooks.documentStatus(uri.toString()) : undefined), [
      hooks.onDocumentStatus,
    ]);
    assert.match(status11.forgejo!.description, /the connected server, 11\.0\.3\+gitea-1\.22\.0/);
  });
});
