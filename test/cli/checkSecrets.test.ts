/**
 * `quota-state check` with the environment's passphrase (issue 57): `secret-undecryptable` exactly as
 * the language server reports it once its client gives the passphrase. On files built for it from the
 * real Pulumi v3.274.1's ciphertexts (test/fixtures/secrets/pulumi-vectors.json: one of the stack's
 * own, one under another stack's salt, a truncated one, one cut by whole base64 groups), with and
 * without the passphrase; then the parity: the same files through the real built server over LSP and
 * through `check --format json` give the same findings; and on a real Pulumi-written stack with
 * secrets (scripts/pulumi-histories.mjs), as a file and as a STACK of its backend.
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { StoredPassphraseRequest } from '../../shared/protocol';
import pulumiVectors from '../fixtures/secrets/pulumi-vectors.json';
import { LspTestClient } from '../lsp/client';
import { runQuotaState, type ProcessResult } from '../helpers/processes';
import { SECRET_SIGNATURE, SIGNATURE_KEY } from '../helpers/secretStacks';

type Json = Record<string, unknown>;
const [phrase, other] = pulumiVectors.stacks;
const HISTORY_PASSPHRASE = 'history-passphrase';
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-check-secrets-'));
const secret = (ciphertext: string) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, ciphertext });
const cipherOf = (stack: typeof phrase, path: string) => stack.state.find((entry) => entry.path === path)!.ciphertext;

/** A state under the `phrase` stack's salt: a good ciphertext, one of another salt, a truncated one, one cut by whole groups, a plaintext one. */
function builtState(): string {
  const good = cipherOf(phrase, '/resources/0/outputs/dbPassword');
  const outputs = {
    good: secret(good),
    copied: secret(cipherOf(other, '/resources/0/outputs/dbPassword')),
    truncated: secret(good.slice(0, -3)),
    cut: secret(cipherOf(phrase, '/resources/0/outputs/port').slice(0, -4)),
    exported: { [SIGNATURE_KEY]: SECRET_SIGNATURE, plaintext: '"in-the-clear"' },
  };
  const state = {
    version: 3,
    deployment: {
      manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' },
      secrets_providers: { type: 'passphrase', state: { salt: phrase.saltState } },
      resources: [
        { urn: 'urn:pulumi:dev::vectors::pulumi:pulumi:Stack::vectors-dev', custom: false, type: 'pulumi:pulumi:Stack' },
        { urn: 'urn:pulumi:dev::vectors::x:y:Db::db', custom: true, id: 'db-1', type: 'x:y:Db', outputs },
      ],
    },
  };
  return `${JSON.stringify(state, null, 4)}\n`;
}

/** Every stderr and stdout `check` printed: none may hold the passphrase or a value. */
const printed: string[] = [];

/** `check` with no PULUMI_* of the caller's but those given. */
function check(args: string[], env: Json = {}): ProcessResult {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) if (name.startsWith('PULUMI_')) delete base[name];
  const result = runQuotaState(['check', ...args], { cwd: scratch, env: { ...base, ...(env as NodeJS.ProcessEnv) } });
  printed.push(result.stdout, result.stderr);
  return result;
}

interface Finding {
  code: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
const findingOf = ({ code, message, range }: Finding) => ({ code: String(code), message, range });
const undecryptable = (diagnostics: Finding[]) => diagnostics.filter((d) => d.code === 'secret-undecryptable').map(findingOf);

/** `check --format json`'s diagnostics of its one file. */
function checkJson(file: string, env: Json): { result: ProcessResult; diagnostics: Finding[] } {
  const result = check([file, '--format', 'json'], env);
  const [report] = JSON.parse(result.stdout) as Array<{ diagnostics: Finding[] }>;
  return { result, diagnostics: report.diagnostics };
}

/** What the real built server publishes for `text` once its client gives `passphrase` for `saltState`: after its secrets pass. */
async function publishedWithPassphrase(text: string, saltState: string, passphrase: string, name: string): Promise<LspDiagnostic[]> {
  const client = await LspTestClient.start();
  try {
    client.connection.onRequest(StoredPassphraseRequest, (params) => (params.saltState === saltState ? passphrase : null));
    const uri = pathToFileURL(join(scratch, 'lsp', name)).href;
    await client.open(uri, text);
    // The secrets pass publishes a second time when it is done: wait until it has (or a few publishes went by).
    for (let publishes = 0; publishes < 10; publishes++) {
      const last = client.lastDiagnostics(uri)!;
      if (last.diagnostics.some((d) => d.code === 'secret-undecryptable')) return last.diagnostics;
      await client.waitForDiagnostics(uri, 1);
    }
    return client.lastDiagnostics(uri)!.diagnostics;
  } finally {
    await client.stop();
  }
}

describe('quota-state check with the passphrase: secret-undecryptable as the editor reports it', function () {
  this.timeout(20 * 60 * 1000);
  const text = builtState();
  const file = join(scratch, 'built.state.json');
  const lines = text.split('\n');
  /** The line of the ciphertext of the secret `member`. */
  const lineOf = (member: string) => lines.findIndex((line, at) => at > lines.findIndex((l) => l.includes(`"${member}"`)) && line.includes('"ciphertext"'));
  before(() => writeFileSync(file, text));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('without a passphrase: nothing decrypted, no secret-undecryptable, nothing on stderr', () => {
    const { result, diagnostics } = checkJson(file, {});
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['secret-in-plaintext'],
    );
  });

  it('with PULUMI_CONFIG_PASSPHRASE: the other salt, the truncated and the cut ciphertexts are Warnings, located on each ciphertext; the good one is not', () => {
    const { result, diagnostics } = checkJson(file, { PULUMI_CONFIG_PASSPHRASE: phrase.passphrase });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    const found = diagnostics.filter((d) => d.code === 'secret-undecryptable') as Array<Finding & { severity: string }>;
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.severity]),
      [
        [lineOf('copied'), 'warning'],
        [lineOf('truncated'), 'warning'],
        [lineOf('cut'), 'warning'],
      ],
    );
    assert.match(found[0].message, /another stack's salt/);
    assert.match(found[1].message, /damaged \("bad value: illegal base64 data/);
    assert.match(found[2].message, /does not decrypt with the stack's key/);
    for (const d of found) assert.ok(text.split('\n')[d.range.start.line].slice(d.range.start.character).startsWith('"v1:'), 'the ciphertext is underlined');
  });

  it('PULUMI_CONFIG_PASSPHRASE_FILE, its content trimmed as Pulumi reads it: the same findings; --jobs and text output too', () => {
    const passphraseFile = join(scratch, 'passphrase.txt');
    writeFileSync(passphraseFile, `${phrase.passphrase}\n`);
    const byVariable = checkJson(file, { PULUMI_CONFIG_PASSPHRASE: phrase.passphrase }).diagnostics;
    const byFile = checkJson(file, { PULUMI_CONFIG_PASSPHRASE_FILE: passphraseFile });
    assert.equal(byFile.result.stderr, '');
    assert.deepEqual(byFile.diagnostics, byVariable);
    const copy = join(scratch, 'copy.state.json');
    writeFileSync(copy, text);
    const parallel = check([file, copy, '--jobs', '2'], { PULUMI_CONFIG_PASSPHRASE: phrase.passphrase });
    assert.equal(parallel.status, 0, parallel.stderr);
    assert.equal(parallel.stdout.match(/warning secret-undecryptable/g)?.length, 6);
  });

  it('a passphrase that does not open the salt: said on stderr for that file, no value nor passphrase; checked as without one, not failed', () => {
    const wrong = 'not the passphrase';
    const without = checkJson(file, {});
    const { result, diagnostics } = checkJson(file, { PULUMI_CONFIG_PASSPHRASE: wrong });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^quota-state: warning: built\.state\.json: the passphrase \(PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE\) does not open the salt/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.ok(!result.stderr.includes(wrong));
    assert.deepEqual(diagnostics, without.diagnostics);
  });

  it('an unreadable PULUMI_CONFIG_PASSPHRASE_FILE is unreadable input (exit 2), as Pulumi refuses it', () => {
    const result = check([file], { PULUMI_CONFIG_PASSPHRASE_FILE: join(scratch, 'missing.txt') });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unable to read PULUMI_CONFIG_PASSPHRASE_FILE/);
  });

  it('parity: the language server given the passphrase and `check --format json` report the same findings (code, range, message)', async () => {
    const published = await publishedWithPassphrase(text, phrase.saltState, phrase.passphrase, 'built.state.json');
    const { diagnostics } = checkJson(file, { PULUMI_CONFIG_PASSPHRASE: phrase.passphrase });
    assert.equal(undecryptable(diagnostics).length, 3);
    assert.deepEqual(undecryptable(published as Finding[]), undecryptable(diagnostics));
    assert.deepEqual((published as Finding[]).map(findingOf), diagnostics.map(findingOf));
  });

  describe('on a stack real Pulumi wrote, with secrets', () => {
    let folder: string;
    let stackText: string;
    before(() => {
      const { backends } = ensureHistories({ log: (line) => console.log(`      ${line}`) });
      const history = backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
      folder = join(scratch, 'backend');
      cpSync(history.folder, folder, { recursive: true });
      // One of its ciphertexts replaced by one under another stack's salt, as a copy between stacks leaves it.
      const stackFile = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
      const state = JSON.parse(readFileSync(stackFile, 'utf8')) as { checkpoint: { latest: { resources: Json[] } } };
      const holder = state.checkpoint.latest.resources.find((resource) => JSON.stringify(resource.outputs ?? {}).includes('"ciphertext"'))!;
      const [name] = Object.entries(holder.outputs as Json).find(([, value]) => JSON.stringify(value).includes('"ciphertext"'))!;
      (holder.outputs as Json)[`${name}Copied`] = secret(cipherOf(other, '/resources/0/outputs/port'));
      stackText = JSON.stringify(state, null, 4);
      writeFileSync(stackFile, stackText);
    });

    it('the file and the STACK of its backend: the same findings as the language server, the copied ciphertext among them', async () => {
      const saltState = (JSON.parse(stackText) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } } } } }).checkpoint.latest.secrets_providers.state.salt;
      const published = await publishedWithPassphrase(stackText, saltState, HISTORY_PASSPHRASE, 'dev.json');
      const env = { PULUMI_CONFIG_PASSPHRASE: HISTORY_PASSPHRASE, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' };
      const asFile = checkJson(join(folder, '.pulumi', 'stacks', 'hist', 'dev.json'), env);
      assert.equal(asFile.result.stderr, '');
      const asStack = check(['organization/hist/dev', '--backend', `file://${folder}`, '--format', 'json'], env);
      assert.equal(asStack.stderr, '');
      const stackDiagnostics = (JSON.parse(asStack.stdout) as Array<{ diagnostics: Finding[] }>)[0].diagnostics;
      assert.equal(undecryptable(asFile.diagnostics).length, 1);
      assert.deepEqual(undecryptable(published as Finding[]), undecryptable(asFile.diagnostics));
      assert.deepEqual(undecryptable(stackDiagnostics), undecryptable(asFile.diagnostics));
      assert.deepEqual((published as Finding[]).map(findingOf), asFile.diagnostics.map(findingOf));
      // Without the passphrase, nothing of it.
      assert.deepEqual(undecryptable(checkJson(join(folder, '.pulumi', 'stacks', 'hist', 'dev.json'), {}).diagnostics), []);
    });
  });

  it('no passphrase nor secret value in anything `check` printed', () => {
    const everything = printed.join('\n');
    for (const value of [phrase.passphrase, HISTORY_PASSPHRASE, 'not the passphrase', 'hunter2', 'in-the-clear']) assert.ok(!everything.includes(value), `"${value}" leaked`);
  });
});
