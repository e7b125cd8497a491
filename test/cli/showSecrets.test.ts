/**
 * `quota-state diff --show-secrets` and `quota-state restore --dry-run --show-secrets` on the real
 * history real Pulumi v3.274.1 wrote (scripts/pulumi-histories.mjs): its program exports
 * `token = secret("secret-<step>")` and its provider a secret `password` of `pw-<label>`, so versions
 * 1 and 2 hold two different ciphertexts of each. Each side is decrypted with its own salt; without
 * the flag nothing changes; no value nor the passphrase ever reaches stderr.
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { runQuotaState, type ProcessResult } from '../helpers/processes';

const PASSPHRASE = 'history-passphrase';
const VALUES = ['secret-1', 'secret-2', 'pw-v1', 'pw-v2'];
const STACK = 'organization/hist/dev';
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-show-secrets-'));
const stderrs: string[] = [];

describe('--show-secrets on diff and restore --dry-run, on the real history', function () {
  this.timeout(20 * 60 * 1000);
  let backendUrl: string;
  let folder: string;

  /** Our CLI, with no PULUMI_* of the caller's but the passphrase given (`null`: none). */
  function ours(args: string[], passphrase: string | null = PASSPHRASE, env: NodeJS.ProcessEnv = {}): ProcessResult {
    const base: NodeJS.ProcessEnv = { ...process.env, HOME: scratch, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' };
    for (const name of Object.keys(base)) if (name.startsWith('PULUMI_CONFIG')) delete base[name];
    if (passphrase !== null) base.PULUMI_CONFIG_PASSPHRASE = passphrase;
    const result = runQuotaState([...args, '--backend', backendUrl], { cwd: scratch, env: { ...base, ...env } });
    stderrs.push(result.stderr);
    return result;
  }

  before(() => {
    const history = ensureHistories({ log: (line) => console.log(`      ${line}`) }).backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    // A copy: the restores write, and the history's interrupted update left its lock behind.
    folder = join(scratch, 'backend');
    cpSync(history.folder, folder, { recursive: true });
    rmSync(join(folder, '.pulumi', 'locks'), { recursive: true, force: true });
    backendUrl = `file://${folder}`;
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('diff --show-secrets STACK@1 STACK@2: each changed secret old => new', () => {
    const result = ours(['diff', '--show-secrets', `${STACK}@1`, `${STACK}@2`]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /~ outputs\.token: \[secret\] "secret-1" => "secret-2"/);
    assert.equal(result.stdout.match(/~ outputs\.password: \[secret\] "pw-v1" => "pw-v2"/g)?.length, 2);
    assert.ok(!result.stdout.includes('[secret changed]'));
    const json = JSON.parse(ours(['diff', '--show-secrets', '--format', 'json', `${STACK}@1`, `${STACK}@2`]).stdout) as { resources: Array<{ changes: Array<Record<string, unknown>> }> };
    const token = json.resources.flatMap((r) => r.changes).find((c) => c.path === 'outputs.token');
    assert.deepEqual(token, { path: 'outputs.token', kind: 'secret changed', old: 'secret-1', new: 'secret-2' });
  });

  it('the passphrase from PULUMI_CONFIG_PASSPHRASE_FILE, trimmed as Pulumi reads it', () => {
    const file = join(scratch, 'passphrase.txt');
    writeFileSync(file, `${PASSPHRASE}\n`);
    const result = ours(['diff', '--show-secrets', `${STACK}@1`, `${STACK}@2`], null, { PULUMI_CONFIG_PASSPHRASE_FILE: file });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /"secret-1" => "secret-2"/);
  });

  it('without the flag: only [secret changed], no value, even with the passphrase at hand', () => {
    const result = ours(['diff', `${STACK}@1`, `${STACK}@2`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /~ outputs\.token: \[secret changed\]/);
    for (const value of VALUES) assert.ok(!result.stdout.includes(value), value);
  });

  it('no passphrase: a usage error naming both variables, exit 2', () => {
    const result = ours(['diff', '--show-secrets', `${STACK}@1`, `${STACK}@2`], null);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--show-secrets needs the passphrase: set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE/);
    assert.match(result.stderr, /Usage:/);
  });

  it('a wrong passphrase: "incorrect passphrase", exit 2, nothing printed of any value', () => {
    const result = ours(['diff', '--show-secrets', `${STACK}@1`, `${STACK}@2`], 'not-the-passphrase');
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /incorrect passphrase/);
    assert.ok(!result.stderr.includes('not-the-passphrase'));
  });

  it('restore --dry-run --show-secrets: the values the restore would change; --show-secrets alone is a usage error', () => {
    assert.equal(ours(['restore', STACK, '--to', '1']).status, 0);
    const result = ours(['restore', STACK, '--to', '2', '--dry-run', '--show-secrets']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /would restore .* \(nothing written\):/);
    assert.match(result.stdout, /~ outputs\.token: \[secret\] "secret-1" => "secret-2"/);
    const masked = ours(['restore', STACK, '--to', '2', '--dry-run']);
    assert.match(masked.stdout, /~ outputs\.token: \[secret changed\]/);
    for (const value of VALUES) assert.ok(!masked.stdout.includes(value), value);
    const alone = ours(['restore', STACK, '--to', '2', '--show-secrets']);
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /--show-secrets goes with --dry-run/);
    const none = ours(['restore', STACK, '--to', '2', '--dry-run', '--show-secrets'], null);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /PULUMI_CONFIG_PASSPHRASE_FILE/);
  });

  it('in the end: no stderr held a value or the passphrase', () => {
    for (const text of stderrs) for (const value of [...VALUES, PASSPHRASE]) assert.ok(!text.includes(value), `${value} in ${text}`);
  });
});
