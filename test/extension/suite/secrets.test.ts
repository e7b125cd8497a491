/**
 * Pulumi's passphrase secrets in a real VS Code, on the installed extension: a state with real
 * Pulumi ciphertexts (test/fixtures/state/secrets.state.json, from test/fixtures/secrets/pulumi-vectors.json)
 * gets `secret-in-plaintext` at once and `secret-undecryptable` only once its passphrase is entered
 * (kept in SecretStorage); Reveal shows a value in the hover; Forget Secrets Passphrases takes it all
 * back. No log the editor wrote holds a revealed value or the passphrase.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeExtension, codeOf, diagnosticsWith, repositoryRoot, waitFor, workspaceUri } from './helpers';

const PASSPHRASE = 'correct horse battery staple';
const COMMANDS = { enter: 'quotaState.secrets.enterPassphrase', reveal: 'quotaState.secrets.reveal', forget: 'quotaState.secrets.forgetPassphrases' };

function readTree(folder: string): string {
  let text = '';
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    text += statSync(full).isDirectory() ? readTree(full) : readFileSync(full, 'utf8');
  }
  return text;
}

const hoverText = async (uri: vscode.Uri, position: vscode.Position) => {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
};

describe('secrets of a state file (passphrase in SecretStorage, Reveal, Forget)', () => {
  const folder = workspaceUri('secrets');
  const uri = vscode.Uri.joinPath(folder, 'dev.state.json');
  let text: string;
  before(async () => {
    mkdirSync(folder.fsPath, { recursive: true });
    text = readFileSync(path.join(repositoryRoot(), 'test', 'fixtures', 'state', 'secrets.state.json'), 'utf8');
    writeFileSync(uri.fsPath, text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder.fsPath, { recursive: true, force: true });
  });

  it('without a passphrase: secret-in-plaintext (Information), and no secret-undecryptable', async () => {
    const diagnostics = await diagnosticsWith(uri, ['secret-in-plaintext']);
    assert.deepEqual(
      diagnostics.map((d) => [codeOf(d), d.severity]),
      [['secret-in-plaintext', vscode.DiagnosticSeverity.Information]],
    );
  });

  it('a wrong passphrase is refused and said so; the right one brings secret-undecryptable and the encrypt fix', async () => {
    const { hooks } = await activeExtension();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.enter, uri.toString(), { passphrase: 'wrong' }), false);
    assert.match(hooks.shownMessages().at(-1)?.text ?? '', /^Incorrect passphrase/);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.enter, uri.toString(), { passphrase: PASSPHRASE }), true);
    const diagnostics = await diagnosticsWith(uri, ['secret-undecryptable', 'secret-in-plaintext']);
    const warning = diagnostics.find((d) => codeOf(d) === 'secret-undecryptable')!;
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(warning.range.start.line, 15);
    const plaintext = diagnostics.find((d) => codeOf(d) === 'secret-in-plaintext')!;
    const actions = await waitFor(
      'the encrypt fix',
      async () => {
        const offered = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, plaintext.range);
        return offered.some((a) => a.title === 'Encrypt this secret') ? offered : undefined;
      },
      [vscode.languages.onDidChangeDiagnostics],
    );
    assert.ok(actions.length > 0);
  });

  it('Reveal shows the value in the hover', async () => {
    const offset = text.indexOf('"v1:', text.indexOf('"dbPassword"'));
    const document = await vscode.workspace.openTextDocument(uri);
    const position = document.positionAt(offset + 5);
    assert.doesNotMatch(await hoverText(uri, position), /hunter2/);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.reveal, { uri: uri.toString(), version: document.version, offset }), true);
    assert.match(await hoverText(uri, position), /\bhunter2\b/);
  });

  it('Forget Secrets Passphrases: no secret-undecryptable, no revealed value; no log holds a value or the passphrase', async () => {
    await vscode.commands.executeCommand(COMMANDS.forget);
    await waitFor('secret-undecryptable gone', () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'secret-undecryptable') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
    const document = await vscode.workspace.openTextDocument(uri);
    const position = document.positionAt(text.indexOf('"v1:', text.indexOf('"dbPassword"')) + 5);
    assert.doesNotMatch(await hoverText(uri, position), /hunter2/);
    const { hooks } = await activeExtension();
    const logText = readTree(path.dirname(path.dirname(hooks.logUri.fsPath)));
    const messages = JSON.stringify(hooks.shownMessages());
    for (const secret of ['hunter2', PASSPHRASE]) {
      assert.ok(!logText.includes(secret), `a log contains "${secret}"`);
      assert.ok(!messages.includes(secret), `a message contains "${secret}"`);
    }
  });
});
