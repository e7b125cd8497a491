/**
 * Runs in a window whose only folder holds `stack.json` (a Pulumi export) and an ordinary JSON
 * file: no file name matches a pattern, so nothing but opening a JSON document activates the
 * extension, and only the content tells the server that `stack.json` is a state file.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension, codeOf, diagnosticsWith, EXTENSION_ID, waitFor, workspaceUri } from '../suite/helpers';

describe('a state file recognised by its content alone', () => {
  it('activates on a JSON document, and the state file gets diagnostics; the ordinary JSON file gets none', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    const activation = extension.packageJSON.activationEvents as string[];
    assert.ok(activation.includes('onLanguage:json') && activation.includes('onLanguage:jsonc'), activation.join(', '));

    // Nothing in this folder matches a workspaceContains pattern. The extension is usually active
    // already here: VS Code itself opens JSONC models (its settings) at start, which is onLanguage:jsonc.

    const ordinary = workspaceUri('app-config.json');
    const stack = workspaceUri('stack.json');
    // The ordinary file first: the server handles documents in order, so once the state file's
    // diagnostics are in, anything it would have said about the ordinary file is in too.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(ordinary));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(stack));

    const diagnostics = await diagnosticsWith(stack, ['missing-reference']);
    assert.deepEqual(diagnostics.map(codeOf), ['missing-reference']);
    assert.equal(extension.isActive, true);

    const { hooks } = await activeExtension();
    const status = await waitFor("the state file's status", () => hooks.documentStatus(stack.toString()), [hooks.onDocumentStatus]);
    assert.equal(status.kind, 'state');
    assert.deepEqual(vscode.languages.getDiagnostics(ordinary), []);
    assert.equal(hooks.documentStatus(ordinary.toString()), undefined, 'no status for an ordinary JSON file');
  });
});
