/**
 * `quota-state secrets change-passphrase`, judged by the real Pulumi v3.274.1, on a history real
 * Pulumi wrote (scripts/pulumi-histories.mjs: secret config and secret outputs, a dozen updates),
 * copied, with a Pulumi.dev.yaml holding the stack's salt and a secure value Pulumi wrote. After the
 * change, real Pulumi with the NEW passphrase reads every secret of the state (`stack export
 * --show-secrets`), of the config (`config get`) and of the history (`stack history --show-secrets`);
 * with the old one it cannot; a real `pulumi up` of the generator's program then succeeds with the
 * new one; and a version our restore brings back is read with the new one.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories, upHistoryOnce } from '../../scripts/pulumi-histories.mjs';
import { runQuotaState, type ProcessResult } from '../helpers/processes';
import { plaintexts } from '../helpers/exportPlaintexts';

type Json = Record<string, unknown>;
const OLD = 'history-passphrase';
const NEW = 'a new passphrase, longer';
const STACK = 'organization/hist/dev';

const saltOf = (text: string) => (JSON.parse(text) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } } } } }).checkpoint.latest.secrets_providers.state.salt;

describe('secrets change-passphrase, judged by the real Pulumi v3.274.1', function () {
  this.timeout(20 * 60 * 1000);
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-change-passphrase-'));
  const folder = join(scratch, 'backend');
  const work = join(scratch, 'work');
  const stackFile = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
  const historyFolder = join(folder, '.pulumi', 'history', 'hist', 'dev');
  let pulumiBinary: string;
  let original: { exported: Map<string, string>; history: unknown };
  const outputs: string[] = [];

  function ours(args: string[], env: Record<string, string | undefined> = {}, cwd = work): ProcessResult {
    const base: NodeJS.ProcessEnv = { ...process.env, HOME: scratch };
    for (const name of Object.keys(base)) if (name.startsWith('PULUMI_') || name.startsWith('QUOTA_STATE_NEW')) delete base[name];
    const result = runQuotaState([...args, '--backend', `file://${folder}`], { cwd, env: { ...base, PULUMI_CONFIG_PASSPHRASE: OLD, QUOTA_STATE_NEW_PASSPHRASE: NEW, ...env } });
    outputs.push(result.stderr, result.stdout);
    return result;
  }

  function pulumi(args: string[], passphrase: string) {
    const { env, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: `file://${folder}`, PULUMI_CONFIG_PASSPHRASE: passphrase });
    try {
      return spawnSync(pulumiBinary, [...args, '--non-interactive'], { cwd: work, env, encoding: 'utf8' });
    } finally {
      cleanup();
    }
  }
  const ok = (args: string[], passphrase: string) => {
    const result = pulumi(args, passphrase);
    assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const historyShown = (passphrase: string) => JSON.parse(ok(['stack', 'history', '--show-secrets', '--json', '--page-size', '0', '--stack', STACK], passphrase)) as unknown;
  const exported = (passphrase: string) => plaintexts((JSON.parse(ok(['stack', 'export', '--show-secrets', '--stack', STACK], passphrase)) as Json).deployment);
  const snapshot = () => {
    const files: Record<string, string> = { state: readFileSync(stackFile, 'utf8'), config: readFileSync(join(work, 'Pulumi.dev.yaml'), 'utf8') };
    for (const name of readdirSync(historyFolder)) files[name] = readFileSync(join(historyFolder, name), 'utf8');
    return files;
  };

  before(() => {
    const generated = ensureHistories({ log: (line) => console.log(`      ${line}`) });
    pulumiBinary = generated.pulumi;
    cpSync(generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!.folder, folder, { recursive: true });
    // The project's files, as the generator's workspace had them: the stack's salt, and the secure value Pulumi wrote.
    const entries = readdirSync(historyFolder)
      .filter((name) => name.endsWith('.history.json'))
      .sort();
    const config = (JSON.parse(readFileSync(join(historyFolder, entries.at(-1)!), 'utf8')) as { config: Record<string, { secure?: string }> }).config;
    mkdirSync(work);
    writeFileSync(join(work, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
    writeFileSync(
      join(work, 'Pulumi.dev.yaml'),
      `# the stack's config\nencryptionsalt: ${saltOf(readFileSync(stackFile, 'utf8'))}\nconfig:\n  hist:token:\n    secure: ${config['hist:token'].secure}\n`,
    );
    assert.equal(ok(['config', 'get', 'hist:token', '--stack', STACK], OLD).trim(), 's3cr3t');
    original = { exported: exported(OLD), history: historyShown(OLD) };
    assert.ok(original.exported.size > 0, 'the generated state holds secrets');
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('a wrong current passphrase: exit 2, "incorrect passphrase", nothing written', () => {
    const was = snapshot();
    const result = ours(['secrets', 'change-passphrase', STACK], { PULUMI_CONFIG_PASSPHRASE: 'not it' });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /incorrect passphrase/);
    assert.deepEqual(snapshot(), was);
  });

  it('Pulumi.dev.yaml not at hand: refused, exit 1, naming it; nothing written', () => {
    const was = snapshot();
    const result = ours(['secrets', 'change-passphrase', STACK], {}, scratch);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /Pulumi\.dev\.yaml of organization\/hist\/dev is not at hand/);
    assert.deepEqual(snapshot(), was);
  });

  it('changes it: real Pulumi with the new passphrase reads the state, the config and the history; the old one no longer opens it', () => {
    const oldSalt = saltOf(readFileSync(stackFile, 'utf8'));
    const result = ours(['secrets', 'change-passphrase', STACK, '--include-history', '--break-lock']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /changed the passphrase of organization\/hist\/dev/);
    assert.match(result.stdout, /rewrote \d+ history and backup files/);
    const newSalt = saltOf(readFileSync(stackFile, 'utf8'));
    assert.notEqual(newSalt, oldSalt);
    const configText = readFileSync(join(work, 'Pulumi.dev.yaml'), 'utf8');
    assert.ok(configText.startsWith("# the stack's config\n"), 'the comment kept');
    assert.ok(configText.includes(`encryptionsalt: ${newSalt}`), configText);
    assert.ok(existsSync(`${stackFile}.bak`) && existsSync(join(work, 'Pulumi.dev.yaml.bak')));

    assert.deepEqual(exported(NEW), original.exported);
    assert.equal(ok(['config', 'get', 'hist:token', '--stack', STACK], NEW).trim(), 's3cr3t');
    assert.deepEqual(historyShown(NEW), original.history);
    for (const name of readdirSync(historyFolder).filter((n) => n.endsWith('.checkpoint.json'))) {
      const text = readFileSync(join(historyFolder, name), 'utf8');
      if (text.includes('"salt"')) assert.equal(saltOf(text), newSalt, name);
    }
    assert.notEqual(pulumi(['stack', 'export', '--show-secrets', '--stack', STACK], OLD).status, 0, 'the old passphrase no longer opens the stack');
  });

  it("a real `pulumi up` of the generator's program succeeds with the new passphrase, and its entry is listed", () => {
    const before = (JSON.parse(ok(['stack', 'history', '--json', '--page-size', '0', '--stack', STACK], NEW)) as unknown[]).length;
    upHistoryOnce(`file://${folder}`, { env: { PULUMI_CONFIG_PASSPHRASE: NEW } });
    const after = JSON.parse(ok(['stack', 'history', '--json', '--page-size', '0', '--stack', STACK], NEW)) as Array<{ result: string }>;
    assert.equal(after.length, before + 1);
    assert.equal(after[0].result, 'succeeded');
    assert.ok(exported(NEW).size > 0, 'the state the update wrote still holds secrets, opened with the new passphrase');
  });

  it('every version our restore brings back is read by real Pulumi with the new passphrase', () => {
    const listed = ours(['history', STACK, '--format', 'json'], { PULUMI_CONFIG_PASSPHRASE: NEW });
    assert.equal(listed.status, 0, listed.stderr);
    const entries = (JSON.parse(listed.stdout) as { entries: Array<{ version: number; checkpoint?: string }> }).entries.filter((entry) => entry.checkpoint);
    assert.ok(entries.length >= 3, listed.stdout);
    for (const entry of entries.slice(0, 3)) {
      const restored = ours(['restore', STACK, '--to', String(entry.version), '--break-lock'], { PULUMI_CONFIG_PASSPHRASE: NEW });
      assert.equal(restored.status, 0, restored.stderr);
      ok(['stack', 'export', '--show-secrets', '--stack', STACK], NEW);
    }
  });

  it('no output held a secret value or a passphrase', () => {
    const values = ['s3cr3t', OLD, NEW, ...original.exported.values()].filter((value) => value.length > 4);
    for (const text of outputs) for (const value of values) assert.ok(!text.includes(value), `${value} in ${text}`);
  });
});
