import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeExtension } from './helpers';

describe('activation', () => {
  it('the real VS Code host loads the extension and activates it', async () => {
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

  // The runner says where it installed the .vsix; run from the source folder, there is nothing to check.
  const installedInto = process.env.QUOTA_STATE_INSTALLED_EXTENSIONS_DIR;
  (installedInto ? it : it.skip)('runs the extension installed from the .vsix, not the source folder', async () => {
    const { extension } = await activeExtension();
    const relative = path.relative(installedInto!, extension.extensionPath);
    assert.ok(relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative), `${extension.extensionPath} is not inside ${installedInto}`);
    // What a package holds and a checkout has besides: sources stay out, every bundle goes in.
    assert.equal(existsSync(path.join(extension.extensionPath, 'client', 'extension.ts')), false);
    for (const bundle of ['dist/client/extension.js', 'dist/server/server.js', 'dist/server/languageServer.js', 'dist/server/stateWorker.js']) {
      assert.ok(existsSync(path.join(extension.extensionPath, bundle)), `${bundle} is not in the installed extension`);
    }
  });
});
