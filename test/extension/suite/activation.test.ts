import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension } from './helpers';

describe('activation', () => {
  it('the real VS Code host loads the extension under development and activates it', async () => {
    const { extension } = await activeExtension();
    assert.equal(extension.isActive, true);
  });

  it('registers every command the manifest contributes', async () => {
    const { extension } = await activeExtension();
    const contributed = (extension.packageJSON.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, []);
    assert.ok(contributed.length >= 20, `only ${contributed.length} commands contributed`);
  });
});
