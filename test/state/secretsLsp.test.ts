/**
 * Pulumi's passphrase secrets through the real built server (dist/server/server.js --stdio), driven
 * as the editor drives it: the client answers `quotaState/storedPassphrase` from its SecretStorage
 * (here a map), a person's passphrase arrives by `quotaState/unlockSecrets`, a hover's Reveal link by
 * `quotaState/revealSecret`. The state holds ciphertexts the real Pulumi v3.274.1 made
 * (test/fixtures/secrets/pulumi-vectors.json): two under its own salt, one under another stack's.
 * Every notification, log line and diagnostic the server sent is searched for the revealed values
 * and the passphrase at the end.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeAction, Diagnostic, Hover, MarkupContent, PublishDiagnosticsParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LogMessageNotification, ShowMessageNotification } from 'vscode-languageserver-protocol';
import { passphraseCrypter } from '../../shared/backend/secrets/crypter';
import {
  ForgetPassphrasesNotification,
  RevealSecretRequest,
  SECRETS_COMMANDS,
  StoredPassphraseRequest,
  UnlockSecretsRequest,
  type RevealSecretParams,
  type RevealSecretResult,
  type UnlockSecretsResult,
} from '../../shared/protocol';
import pulumiVectors from '../fixtures/secrets/pulumi-vectors.json';
import { LspTestClient, positionAt } from '../lsp/client';
import { FIXTURES } from './fixtures';

const [phrase] = pulumiVectors.stacks;
const PASSPHRASE = phrase.passphrase;
const TEXT = readFileSync(join(FIXTURES, 'secrets.state.json'), 'utf8');
/** What the ciphertexts and the plaintext secret of the fixture hold: none may reach a log, a notification or a diagnostic. */
const REVEALED = ['hunter2', 'exported-in-the-clear'];
const offsetIn = (text: string, member: string) => text.indexOf('"v1:', text.indexOf(`"${member}"`)) + 5;

function applyLspEdits(text: string, edits: TextEdit[]): string {
  const offsetAt = (p: { line: number; character: number }) =>
    text
      .split('\n')
      .slice(0, p.line)
      .reduce((n, l) => n + l.length + 1, 0) + p.character;
  for (const edit of [...edits].sort((a, b) => offsetAt(b.range.start) - offsetAt(a.range.start)))
    text = text.slice(0, offsetAt(edit.range.start)) + edit.newText + text.slice(offsetAt(edit.range.end));
  return text;
}

/** A server whose client keeps `stored` (salt state → passphrase) and records everything the server says. */
async function startServer(stored: Map<string, string>) {
  const client = await LspTestClient.start();
  const heard: string[] = [];
  const asked: string[] = [];
  client.connection.onRequest(StoredPassphraseRequest, ({ saltState }) => (asked.push(saltState), stored.get(saltState) ?? null));
  client.connection.onNotification(LogMessageNotification.type, (params) => void heard.push(params.message));
  client.connection.onNotification(ShowMessageNotification.type, (params) => void heard.push(params.message));
  client.connection.onUnhandledNotification(({ method, params }) => void heard.push(`${method} ${JSON.stringify(params)}`));
  return { client, heard, asked };
}

/** Waits for diagnostics of `uri` at `version` that satisfy `done` (the secrets pass publishes a second time when it ends). */
async function publishedUntil(client: LspTestClient, uri: string, version: number, done: (diagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  for (;;) {
    const last = client.lastDiagnostics(uri);
    if (last && last.version === version && done(last.diagnostics)) return last.diagnostics;
    await client.waitForDiagnostics(uri, version);
  }
}

const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.code}:${d.severity}:${d.range.start.line + 1}`);

describe('secrets in a state document, through the language server (LSP over stdio)', function () {
  this.timeout(120_000);
  const uri = 'file:///work/test/secrets/dev.state.json';
  const said: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  let server: Awaited<ReturnType<typeof startServer>>;
  const stored = new Map<string, string>();

  before(async () => {
    server = await startServer(stored);
  });
  after(async () => {
    said.push(...server.heard, server.client.stderr);
    await server.client.stop();
  });

  it('without a passphrase: the plaintext secret is Information with no fix but asking for the passphrase; nothing is decrypted', async () => {
    const diagnostics = await server.client.open(uri, TEXT);
    published.push(server.client.lastDiagnostics(uri)!);
    assert.deepEqual(codes(diagnostics), ['secret-in-plaintext:3:17']);
    const plaintext = diagnostics[0];
    const actions = await server.client.request<unknown, CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: plaintext.range, context: { diagnostics: [plaintext] } });
    const quickFixes = actions.filter((a) => a.kind === 'quickfix');
    assert.deepEqual(
      quickFixes.map((a) => [a.title, a.command?.command, a.command?.arguments]),
      [["Enter the stack's passphrase to encrypt this secret…", SECRETS_COMMANDS.enterPassphrase, [uri]]],
    );
  });

  it('hover on a ciphertext offers Reveal, which needs the passphrase first', async () => {
    const hover = await server.client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: positionAt(TEXT, offsetIn(TEXT, 'dbPassword')) });
    const markdown = (hover.contents as MarkupContent).value;
    const link = /\(command:quotaState\.secrets\.reveal\?([^)]+)\)/.exec(markdown);
    assert.ok(link, markdown);
    const [params] = JSON.parse(decodeURIComponent(link[1])) as [RevealSecretParams];
    assert.deepEqual({ uri: params.uri, version: params.version }, { uri, version: 1 });
    const result = await server.client.request<RevealSecretParams, RevealSecretResult>(RevealSecretRequest, params);
    assert.deepEqual(result, { revealed: false, reason: 'needs-passphrase' });
  });

  it('a wrong passphrase is refused; the right one is kept, and the ciphertext of another salt is a Warning', async () => {
    const wrong = await server.client.request<unknown, UnlockSecretsResult>(UnlockSecretsRequest, { uri, passphrase: 'not the passphrase' });
    assert.deepEqual(wrong, { unlocked: false, reason: 'incorrect-passphrase' });
    const right = await server.client.request<unknown, UnlockSecretsResult>(UnlockSecretsRequest, { uri, passphrase: PASSPHRASE });
    assert.deepEqual(right, { unlocked: true, saltState: phrase.saltState });
    const diagnostics = await publishedUntil(server.client, uri, 1, (d) => d.some((x) => x.code === 'secret-undecryptable'));
    published.push(server.client.lastDiagnostics(uri)!);
    assert.deepEqual(codes(diagnostics), ['secret-undecryptable:2:16', 'secret-in-plaintext:3:17']);
    const warning = diagnostics.find((d) => d.code === 'secret-undecryptable')!;
    assert.match(String(warning.message), /another stack's salt/);
    assert.equal(TEXT.split('\n')[15].slice(warning.range.start.character, warning.range.end.character).startsWith('"v1:'), true, 'the ciphertext is underlined');
  });

  it('Reveal shows the value in the next hover only; a ciphertext under another salt does not reveal', async () => {
    const offset = offsetIn(TEXT, 'dbPassword');
    const revealed = await server.client.request<RevealSecretParams, RevealSecretResult>(RevealSecretRequest, { uri, version: 1, offset: TEXT.lastIndexOf('"', offset) });
    assert.equal(revealed.revealed, true);
    const hover = await server.client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: positionAt(TEXT, offset) });
    assert.match((hover.contents as MarkupContent).value, /\nhunter2\n/);
    const other = await server.client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: positionAt(TEXT, offsetIn(TEXT, 'port')) });
    assert.match((other.contents as MarkupContent).value, /Reveal/);
    const copied = offsetIn(TEXT, 'copied');
    assert.deepEqual(await server.client.request(RevealSecretRequest, { uri, version: 1, offset: copied }), { revealed: false, reason: 'undecryptable' });
    assert.deepEqual(await server.client.request(RevealSecretRequest, { uri, version: 7, offset }), { revealed: false, reason: 'stale' });
  });

  it('the quick fix encrypts the plaintext secret under the stack key, with a minimal edit that the stack key opens', async () => {
    const plaintext = server.client.lastDiagnostics(uri)!.diagnostics.find((d) => d.code === 'secret-in-plaintext')!;
    const actions = await server.client.request<unknown, CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: plaintext.range, context: { diagnostics: [plaintext] } });
    const encrypt = actions.find((a) => a.title === 'Encrypt this secret');
    assert.ok(encrypt, JSON.stringify(actions.map((a) => a.title)));
    const edits = (encrypt.edit as WorkspaceEdit).changes![uri];
    assert.equal(edits.length, 1);
    const fixed = applyLspEdits(TEXT, edits);
    const secret = (JSON.parse(fixed) as { deployment: { resources: Array<{ outputs: Record<string, Record<string, string>> }> } }).deployment.resources[1].outputs.exported;
    assert.deepEqual(Object.keys(secret), ['4dabf18193072939515e22adb298388d', 'ciphertext']);
    const crypter = await passphraseCrypter(PASSPHRASE, phrase.saltState);
    assert.equal(await crypter.decrypt(secret.ciphertext), '"exported-in-the-clear"');
    assert.equal(fixed.split('\n').length, TEXT.split('\n').length, 'only the object changed');
    await server.client.change(uri, fixed);
    const after = await publishedUntil(server.client, uri, 2, (d) => d.some((x) => x.code === 'secret-undecryptable'));
    published.push(server.client.lastDiagnostics(uri)!);
    assert.deepEqual(codes(after), ['secret-undecryptable:2:16']);
  });

  it('Forget Passphrases: no key, no revealed value, no secret-undecryptable', async () => {
    await server.client.notify(ForgetPassphrasesNotification, {});
    const after = await publishedUntil(server.client, uri, 2, (d) => !d.some((x) => x.code === 'secret-undecryptable'));
    published.push(server.client.lastDiagnostics(uri)!);
    assert.deepEqual(codes(after), []);
    const hover = await server.client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: positionAt(TEXT, offsetIn(TEXT, 'dbPassword')) });
    assert.doesNotMatch((hover.contents as MarkupContent).value, /hunter2/);
  });

  it("a passphrase the client stored opens a stack's secrets with no prompt, asked for once per salt", async () => {
    const other = await startServer(new Map([[phrase.saltState, PASSPHRASE]]));
    try {
      const second = 'file:///work/test/secrets/copy.state.json';
      await other.client.open(uri, TEXT);
      await other.client.open(second, TEXT);
      for (const each of [uri, second]) {
        const diagnostics = await publishedUntil(other.client, each, 1, (d) => d.some((x) => x.code === 'secret-undecryptable'));
        published.push(other.client.lastDiagnostics(each)!);
        assert.deepEqual(codes(diagnostics), ['secret-undecryptable:2:16', 'secret-in-plaintext:3:17']);
      }
      assert.deepEqual(other.asked, [phrase.saltState]);
    } finally {
      said.push(...other.heard, other.client.stderr);
      await other.client.stop();
    }
  });

  it('no revealed value and no passphrase in any log, message, notification or diagnostic the servers sent', () => {
    const everything = [...said, JSON.stringify(published)].join('\n');
    assert.ok(said.length > 0 && published.length >= 5);
    for (const secret of [...REVEALED, PASSPHRASE]) assert.ok(!everything.includes(secret), `"${secret}" leaked`);
  });
});
