import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeOf, connectToQuotaApi, disconnectFromQuotaApi, revertAndCloseAll, waitFor, type QuotaApiServer } from './helpers';

const ROOT_TOKEN = 'demo-root-token';

describe('app.ini: DEFAULT_GROUPS checked against the live server of a signed-in site admin', function () {
  let server: QuotaApiServer;
  let folder: string;

  before(async function () {
    server = await connectToQuotaApi();
    // Outside the workspace and away from any quota file: only the live groups can decide.
    folder = mkdtempSync(path.join(tmpdir(), 'app-ini-ext-'));
  });

  after(async () => {
    await disconnectFromQuotaApi(server);
    rmSync(folder, { recursive: true, force: true });
  });

  afterEach(revertAndCloseAll);

  it('flags a group the server lacks, and clears it after the group is created and the view refreshed', async () => {
    const account = await vscode.commands.executeCommand<string | undefined>('quotaState.signIn', { token: ROOT_TOKEN });
    assert.equal(account, 'root');
    const file = path.join(folder, 'app.ini');
    writeFileSync(file, '[quota]\nENABLED = true\nDEFAULT_GROUPS = free, enterprise\n');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(document.languageId, 'ini');
    await vscode.window.showTextDocument(document);

    const flagged = await waitFor('unknown-default-group for "enterprise"', () => vscode.languages.getDiagnostics(document.uri).find((d) => codeOf(d) === 'unknown-default-group'), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
    assert.match(flagged.message, /No group "enterprise" in the server/);

    const created = await fetch(`${server.baseUrl}/admin/quota/groups`, {
      method: 'POST',
      headers: { authorization: `token ${ROOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'enterprise' }),
    });
    assert.equal(created.status, 201);
    await vscode.commands.executeCommand('quotaState.refreshView');
    await waitFor('the diagnostic to go away', () => (vscode.languages.getDiagnostics(document.uri).some((d) => codeOf(d) === 'unknown-default-group') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
  });
});
