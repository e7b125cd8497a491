/**
 * `quota-state restore` of a checkpoint sealed under a passphrase salt the stack no longer has, judged
 * by the real Pulumi v3.274.1: a stack whose secrets `pulumi stack import` encrypted, saved, then
 * `pulumi stack change-secrets-provider passphrase`, then the saved state restored by ours. With the
 * passphrase its ciphertexts are re-encrypted to the stack's salt, and `pulumi stack export
 * --show-secrets` reads every one; without it, refused; a wrong one, refused.
 *
 * Run non-interactively, change-secrets-provider takes the old passphrase from the environment but
 * seals the new salt with the empty passphrase (it would prompt for the new one): so the stack's
 * passphrase here is the empty one, which Pulumi takes when PULUMI_CONFIG_PASSPHRASE is set but empty,
 * and the change keeps it and makes a new salt.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQuotaState, type ProcessResult } from '../helpers/processes';
import { DiyBackend, qualifiedStack } from '../helpers/realPulumi';
import { importSecrets, SECRET_VALUES } from '../helpers/secretStacks';
import { plaintexts } from '../helpers/exportPlaintexts';

type Json = Record<string, unknown>;
const PASSPHRASE = '';
const STACK = qualifiedStack('vec', 'dev');
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-rekey-'));

const saltOf = (text: string) => (JSON.parse(text) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } } } } }).checkpoint.latest.secrets_providers.state.salt;

describe("restore re-encrypts to the stack's salt, judged by the real Pulumi v3.274.1", function () {
  this.timeout(20 * 60 * 1000);
  let backend: DiyBackend;
  let stackFile: string;
  let saved: string;
  let original: Map<string, string>;
  const stderrs: string[] = [];

  function ours(args: string[], passphrase: string | null = PASSPHRASE): ProcessResult {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch };
    for (const name of Object.keys(env)) if (name.startsWith('PULUMI_')) delete env[name];
    if (passphrase !== null) env.PULUMI_CONFIG_PASSPHRASE = passphrase;
    const result = runQuotaState([...args, '--backend', `file://${join(backend.root, 'backend')}`], { cwd: scratch, env });
    stderrs.push(result.stderr);
    return result;
  }

  const exportShown = () => backend.run(['stack', 'export', '--show-secrets', '--stack', STACK]);

  before(() => {
    backend = new DiyBackend({ passphrase: PASSPHRASE });
    stackFile = importSecrets(backend, 'vec', 'dev');
    saved = join(scratch, 'before-change.json');
    writeFileSync(saved, readFileSync(stackFile));
    const shown = exportShown();
    assert.equal(shown.status, 0, shown.stderr);
    original = plaintexts((JSON.parse(shown.stdout) as Json).deployment);
    assert.ok(original.size >= SECRET_VALUES.length);
    backend.ok(['stack', 'change-secrets-provider', 'passphrase', '--stack', STACK]);
  });
  after(() => {
    backend?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('change-secrets-provider made a new salt, in the stack file and in Pulumi.dev.yaml', () => {
    const now = saltOf(readFileSync(stackFile, 'utf8'));
    assert.notEqual(now, saltOf(readFileSync(saved, 'utf8')));
    assert.match(readFileSync(join(backend.workdir, 'Pulumi.dev.yaml'), 'utf8'), new RegExp(`encryptionsalt: ${now.replace(/[+/=]/g, '\\$&')}`));
  });

  it('without the passphrase: refused, exit 1, saying why; nothing written', () => {
    const was = readFileSync(stackFile, 'utf8');
    const result = ours(['restore', STACK, '--to', saved], null);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /sealed under another passphrase salt/);
    assert.match(result.stderr, /PULUMI_CONFIG_PASSPHRASE_FILE/);
    assert.match(result.stderr, /--allow-errors/);
    assert.equal(readFileSync(stackFile, 'utf8'), was);
  });

  it('a wrong passphrase: refused with "incorrect passphrase", exit 1; nothing written', () => {
    const was = readFileSync(stackFile, 'utf8');
    const result = ours(['restore', STACK, '--to', saved], 'not the passphrase');
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /incorrect passphrase/);
    assert.equal(readFileSync(stackFile, 'utf8'), was);
  });

  it("with the passphrase: re-encrypted, the stack's salt kept, and `pulumi stack export --show-secrets` reads every secret", () => {
    const salt = saltOf(readFileSync(stackFile, 'utf8'));
    const dry = ours(['restore', STACK, '--to', saved, '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /secrets would be re-encrypted with the stack's salt/);
    const result = ours(['restore', STACK, '--to', saved]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /secrets re-encrypted with the stack's salt/);
    assert.equal(saltOf(readFileSync(stackFile, 'utf8')), salt);
    const shown = exportShown();
    assert.equal(shown.status, 0, shown.stderr);
    assert.deepEqual(plaintexts((JSON.parse(shown.stdout) as Json).deployment), original);
  });

  it('--allow-errors without the passphrase restores the ciphertexts as they are, as before', () => {
    const result = ours(['restore', STACK, '--to', saved, '--allow-errors'], null);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /warning: .*restored as they are/);
    assert.equal(saltOf(readFileSync(stackFile, 'utf8')), saltOf(readFileSync(saved, 'utf8')));
    // Pulumi's export opens a state with its own secrets_providers, the passphrase being the same.
    assert.equal(exportShown().status, 0);
  });

  it('no stderr held a secret value', () => {
    const values = SECRET_VALUES.map(({ value }) => (typeof value === 'string' ? value : JSON.stringify(value))).filter((value) => value.length > 4);
    for (const text of stderrs) for (const value of values) assert.ok(!text.includes(value), value);
  });
});
