/**
 * Pulumi's passphrase secrets in a real VS Code, on the installed extension: a state with real
 * Pulumi ciphertexts (test/fixtures/state/secrets.state.json, from test/fixtures/secrets/pulumi-vectors.json)
 * gets `secret-in-plaintext` at once and `secret-undecryptable` only once its passphrase is entered
 * (kept in SecretStorage); Reveal shows a value in the hover; Forget Secrets Passphrases takes it all
 * back. The State Diff view's Reveal Secrets opens each side with its own salt's key (a fixture
 * encrypted here under two passphrases, as before and after a passphrase change). No log the editor
 * wrote, no message and no file of the workspace holds a revealed value or a passphrase.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { newPassphraseCrypter, type PassphraseCrypter } from '../../../shared/backend/vocabulary';
import type { StateDiffNode } from '../../../client/backends/stateDiff';
import { activeExtension, codeOf, diagnosticsWith, repositoryRoot, waitFor, workspaceUri } from './helpers';
import { plaintexts } from '../../helpers/exportPlaintexts';

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

/** No log file the editor wrote, no message it showed and no file under `folders` holds any of `values`. */
async function assertNowhere(values: readonly string[], folders: readonly string[] = []): Promise<void> {
  const { hooks } = await activeExtension();
  const places = [
    { what: 'a log', text: readTree(path.dirname(path.dirname(hooks.logUri.fsPath))) },
    { what: 'a message', text: JSON.stringify(hooks.shownMessages()) },
    ...folders.map((folder) => ({ what: `a file under ${folder}`, text: readTree(folder) })),
  ];
  for (const { what, text } of places) for (const value of values) assert.ok(!text.includes(value), `${what} contains "${value}"`);
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
    await assertNowhere(['hunter2', PASSPHRASE]);
  });
});

const SECRET = { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270' };
const DIFF = { before: 'passphrase-before-the-change', after: 'passphrase-after-the-change', old: 'diff-old-5ecret', new: 'diff-new-5ecret', same: 'diff-same-5ecret' };

/** A checkpoint under `crypter`'s salt: a database whose password is `password` and whose token stays `DIFF.same` (sealed anew). */
async function checkpoint(crypter: PassphraseCrypter, password: string, size: number): Promise<string> {
  const sealed = async (value: string) => ({ ...SECRET, ciphertext: await crypter.encrypt(JSON.stringify(value)) });
  const stack = { urn: 'urn:pulumi:dev::sec::pulumi:pulumi:Stack::sec-dev', custom: false, type: 'pulumi:pulumi:Stack' };
  const db = { urn: 'urn:pulumi:dev::sec::x:y:Db::db', custom: true, id: 'db-1', type: 'x:y:Db', outputs: { password: await sealed(password), size } };
  const api = { urn: 'urn:pulumi:dev::sec::x:y:Api::api', custom: true, id: 'api-1', type: 'x:y:Api', outputs: { token: await sealed(DIFF.same) } };
  const manifest = { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' };
  const latest = { manifest, secrets_providers: { type: 'passphrase', state: { salt: crypter.saltState } }, resources: [stack, db, api] };
  return JSON.stringify({ version: 3, checkpoint: { stack: 'organization/sec/dev', latest } });
}

describe("the State Diff view's Reveal Secrets (each side with its own salt's key)", () => {
  const folder = workspaceUri('diff-secrets');
  const [left, right] = [vscode.Uri.joinPath(folder, 'before.json'), vscode.Uri.joinPath(folder, 'after.json')];
  before(async () => {
    mkdirSync(folder.fsPath, { recursive: true });
    writeFileSync(left.fsPath, await checkpoint(await newPassphraseCrypter(DIFF.before), DIFF.old, 1));
    writeFileSync(right.fsPath, await checkpoint(await newPassphraseCrypter(DIFF.after), DIFF.new, 2));
    const { hooks } = await activeExtension();
    await hooks.stateDiff.show(left, right, 'before ↔ after');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder.fsPath, { recursive: true, force: true });
  });

  /** The rows of the changed secrets, as the view draws them. */
  async function secretRows(): Promise<Array<{ path: string; item: vscode.TreeItem }>> {
    const { hooks } = await activeExtension();
    const view = hooks.stateDiff;
    const rows: Array<{ path: string; item: vscode.TreeItem }> = [];
    const walk = (node?: StateDiffNode): void => {
      for (const child of view.getChildren(node)) {
        if (child.kind === 'change' && child.change.kind === 'secret changed') rows.push({ path: child.change.path, item: view.getTreeItem(child) });
        walk(child);
      }
    };
    walk();
    return rows;
  }

  it('shows [secret changed] with the Reveal action; a side without its passphrase, or with a wrong one, says so and shows no value', async () => {
    const { hooks } = await activeExtension();
    const [row] = await secretRows();
    assert.equal(row.path, 'outputs.password');
    assert.equal(row.item.description, '[secret changed]');
    assert.equal(row.item.contextValue, 'secretChange', 'the inline Reveal action');
    assert.deepEqual(await hooks.stateDiff.revealSecrets({ answers: [DIFF.before, undefined] }), [
      { opened: true, unopened: 0 },
      { opened: false, reason: 'unknown' },
    ]);
    const rows = await secretRows();
    assert.deepEqual(
      rows.map((r) => [r.path, r.item.description]),
      [['outputs.password', '[secret changed] (new: passphrase not known)']],
    );
    // The old side's passphrase was kept for its salt: only the new side is asked for.
    assert.deepEqual(await hooks.stateDiff.revealSecrets({ answers: ['not the passphrase'] }), [
      { opened: true, unopened: 0 },
      { opened: false, reason: 'incorrect' },
    ]);
    assert.equal((await secretRows())[0].item.description, '[secret changed] (new: incorrect passphrase)');
  });

  it('with both passphrases: old → new, each side decrypted with its own salt; a secret sealed anew with the same value is no change', async () => {
    const { hooks } = await activeExtension();
    // One answer: the old side's passphrase comes from SecretStorage (else it would take this one, and fail).
    assert.deepEqual(await hooks.stateDiff.revealSecrets({ answers: [DIFF.after] }), [
      { opened: true, unopened: 0 },
      { opened: true, unopened: 0 },
    ]);
    const rows = await secretRows();
    assert.deepEqual(
      rows.map((r) => [r.path, r.item.description, r.item.contextValue]),
      [['outputs.password', `"${DIFF.old}" → "${DIFF.new}"`, undefined]],
    );
    assert.equal(hooks.stateDiff.current()?.diff.resources.find((r) => r.type === 'x:y:Api')?.kind, 'same', 'the token holds the same value');
    // Both passphrases are kept in SecretStorage: no prompt answers at all.
    assert.deepEqual(
      (await hooks.stateDiff.revealSecrets({ answers: [] }))?.map((side) => side.opened),
      [true, true],
    );
  });

  it('no log, message or workspace file holds a revealed value or a passphrase', async () => {
    await assertNowhere([DIFF.old, DIFF.new, DIFF.same, DIFF.before, DIFF.after], [workspaceUri('').fsPath]);
  });
});

type Json = Record<string, unknown>;

/** The real Pulumi v3.274.1 that made the runner's backend (QUOTA_STATE_TEST_PULUMI), run offline on `backend`. */
async function realPulumi(backend: vscode.Uri, cwd: string): Promise<(args: string[], passphrase: string) => { status: number | null; stdout: string; stderr: string }> {
  type PulumiCli = { hermeticEnv(base: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; cleanup(): void } };
  const cli = (await import(pathToFileURL(path.join(repositoryRoot(), 'scripts', 'pulumi-cli.mjs')).href)) as PulumiCli;
  const pulumi = process.env.QUOTA_STATE_TEST_PULUMI;
  assert.ok(pulumi, 'the runner names the real Pulumi (QUOTA_STATE_TEST_PULUMI)');
  return (args, passphrase) => {
    const { env, cleanup } = cli.hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: backend.toString(), PULUMI_CONFIG_PASSPHRASE: passphrase });
    try {
      return spawnSync(pulumi, [...args, '--non-interactive'], { cwd, env, encoding: 'utf8' });
    } finally {
      cleanup();
    }
  };
}

const CHANGE = { old: 'history-passphrase', new: 'a new passphrase from the Backends view', stack: 'organization/hist/dev' };

describe("the Backends view's Change Passphrase… (judged by the real Pulumi v3.274.1)", () => {
  const backend = workspaceUri('passphrase-backend');
  const project = workspaceUri('passphrase-project');
  const config = vscode.Uri.joinPath(project, 'Pulumi.dev.yaml');
  const stackFile = path.join(backend.fsPath, '.pulumi', 'stacks', 'hist', 'dev.json.gz');
  const saltOf = () =>
    (JSON.parse(gunzipSync(readFileSync(stackFile)).toString('utf8')) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } } } } }).checkpoint.latest.secrets_providers.state.salt;
  let pulumi: Awaited<ReturnType<typeof realPulumi>>;
  let exported: Map<string, string>;
  const exportedWith = (passphrase: string) => {
    const result = pulumi(['stack', 'export', '--show-secrets', '--stack', CHANGE.stack], passphrase);
    assert.equal(result.status, 0, `pulumi stack export: ${result.stderr}`);
    return plaintexts((JSON.parse(result.stdout) as Json).deployment);
  };
  const stackOf = async () => {
    const { hooks } = await activeExtension();
    hooks.backends.tree.refresh();
    return (await hooks.backends.tree.backend(backend)).stacks.find((stack) => stack.ref === CHANGE.stack)!;
  };

  before(async () => {
    const { hooks } = await activeExtension();
    await vscode.workspace.fs.copy(workspaceUri('state-backend'), backend, { overwrite: true });
    assert.ok(await hooks.backends.commands.addRoot(backend));
    // The project's files, as the generator's workspace had them: the stack's salt, and the secure value Pulumi wrote.
    const historyFolder = path.join(backend.fsPath, '.pulumi', 'history', 'hist', 'dev');
    // This backend is gzip-compressed: its history entries are `.history.json.gz`.
    const newest = readdirSync(historyFolder)
      .filter((name) => name.endsWith('.history.json.gz'))
      .sort()
      .at(-1)!;
    const token = (JSON.parse(gunzipSync(readFileSync(path.join(historyFolder, newest))).toString('utf8')) as { config: Record<string, { secure: string }> }).config['hist:token'].secure;
    mkdirSync(project.fsPath, { recursive: true });
    writeFileSync(path.join(project.fsPath, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
    writeFileSync(config.fsPath, `# the stack's config\nencryptionsalt: ${saltOf()}\nconfig:\n  hist:token:\n    secure: ${token}\n`);
    pulumi = await realPulumi(backend, project.fsPath);
    exported = exportedWith(CHANGE.old);
    assert.ok(exported.size > 0, 'the state holds secrets');
  });
  after(async () => {
    for (const folder of [backend, project]) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it('a wrong current passphrase: said so, nothing written', async () => {
    const { hooks } = await activeExtension();
    const was = [readFileSync(stackFile), readFileSync(config.fsPath)];
    const node = { kind: 'stack', root: backend, stack: await stackOf() };
    await vscode.commands.executeCommand('quotaState.backends.changePassphrase', node, { current: 'not it', next: CHANGE.new, includeHistory: false });
    assert.match(hooks.shownMessages().at(-1)?.text ?? '', /^Cannot change the passphrase of organization\/hist\/dev: incorrect passphrase/);
    assert.deepEqual([readFileSync(stackFile), readFileSync(config.fsPath)], was);
  });

  it('changes it with the history, through the lock dialog: real Pulumi reads everything with the new passphrase, and the new one is kept for the new salt', async () => {
    const { hooks } = await activeExtension();
    const oldSalt = saltOf();
    const shown = hooks.shownMessages().length;
    // A lock whose process on this machine is gone (an earlier suite may have broken the fixture's own): one question, then the change.
    const locks = vscode.Uri.joinPath(backend, '.pulumi', 'locks');
    await vscode.workspace.fs.delete(locks, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    const abandoned = { pid: 2 ** 22 + 12345, username: userInfo().username, hostname: hostname(), timestamp: new Date().toISOString() };
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(locks, 'organization', 'hist', 'dev', 'abandoned.json'), new TextEncoder().encode(JSON.stringify(abandoned)));
    hooks.answerConfirmations('Remove Lock and Change Passphrase');
    const changed = await hooks.backends.changePassphrase.run(backend, await stackOf(), { current: CHANGE.old, next: CHANGE.new, includeHistory: true });
    const said = hooks.shownMessages().slice(shown);
    assert.ok(changed, `changed: ${JSON.stringify(said)}`);
    assert.match(said.find((m) => m.detail !== undefined)?.text ?? '', /is locked by a stale lock/);
    assert.ok(changed.history.objects > 0, 'history files rewritten');
    const newSalt = saltOf();
    assert.notEqual(newSalt, oldSalt);
    assert.equal(changed.saltState, newSalt);
    const configText = readFileSync(config.fsPath, 'utf8');
    assert.ok(configText.startsWith("# the stack's config\n") && configText.includes(`encryptionsalt: ${newSalt}`), configText);
    assert.ok(existsSync(`${config.fsPath}.bak`) && existsSync(`${stackFile}.bak`), 'the old files kept');

    assert.deepEqual(exportedWith(CHANGE.new), exported, 'real Pulumi decrypts every secret with the new passphrase');
    const token = pulumi(['config', 'get', 'hist:token', '--stack', CHANGE.stack], CHANGE.new);
    assert.equal(token.stdout.trim(), 's3cr3t', token.stderr);
    assert.notEqual(pulumi(['stack', 'export', '--show-secrets', '--stack', CHANGE.stack], CHANGE.old).status, 0, 'the old passphrase no longer opens it');

    // An old checkpoint against the current state: both under the new salt now, opened with the kept passphrase, no prompt.
    const checkpoints = readdirSync(path.join(backend.fsPath, '.pulumi', 'history', 'hist', 'dev')).filter((name) => name.endsWith('.checkpoint.json.gz'));
    await hooks.stateDiff.show(vscode.Uri.joinPath(backend, '.pulumi', 'history', 'hist', 'dev', checkpoints.sort()[0]), vscode.Uri.file(stackFile), 'first ↔ current');
    assert.deepEqual(await hooks.stateDiff.revealSecrets({ answers: [] }), [
      { opened: true, unopened: 0 },
      { opened: true, unopened: 0 },
    ]);
  });

  it('no log, message or workspace file holds the passphrases or a secret value', async () => {
    await assertNowhere([CHANGE.old, CHANGE.new, 's3cr3t', ...[...exported.values()].filter((value) => value.length > 4)]);
  });
});
