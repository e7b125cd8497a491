import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'quota-state.quota-state';

describe('activation', () => {
  it('the real VS Code host loads the extension under development and activates it', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });
});
