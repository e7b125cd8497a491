/**
 * `quota-state restore` against real `pulumi stack import`: every version of the generated real
 * histories (the project layout gzip-compressed, and the legacy layout), restored by us on one copy
 * of the backend and imported by Pulumi on another (the checkpoint turned into an export), gives
 * the same stack, compared as the surgery differential compares (whole records, Go's omitempty
 * normalised, secrets re-encrypted, the manifest's time aside); real `pulumi stack export` then
 * reads ours. And each refusal: another stack's checkpoint, a missing version, a document that is
 * no state, a locked stack, integrity errors; nothing is written by any of them.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { runQuotaState } from '../helpers/processes';
import { canonical } from '../state/surgery/compare';

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-restore-'));
type Generated = ReturnType<typeof ensureHistories>;
type Backend = Generated['backends'][number];
let generated: Generated;

/** A copy of a generated backend without the interrupted update's stale lock (Pulumi's import would refuse it too). */
function copyOf(backend: Backend, name: string): string {
  const copy = join(scratch, name);
  rmSync(copy, { recursive: true, force: true });
  cpSync(backend.folder, copy, { recursive: true });
  rmSync(join(copy, '.pulumi', 'locks'), { recursive: true, force: true });
  return copy;
}

function stackFileOf(folder: string): string {
  const stacks = join(folder, '.pulumi', 'stacks');
  const found = readdirSync(stacks, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && /^dev\.json(\.gz|\.zst)?$/.test(e.name));
  assert.ok(found, `no stack file under ${stacks}`);
  return join(found.parentPath, found.name);
}

const textOf = (path: string) => {
  const bytes = readFileSync(path);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
};

function pulumi(folder: string, args: string[], compression: string) {
  const { env, cleanup } = hermeticEnv({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${folder}`,
    PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
    PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
    // Pulumi writes the compression its own environment selects; the stack's own, here.
    ...(compression === 'gzip' ? { PULUMI_DIY_BACKEND_GZIP: 'true' } : {}),
  });
  try {
    return spawnSync(generated.pulumi, args, { cwd: scratch, env, encoding: 'utf8' });
  } finally {
    cleanup();
  }
}

/** The stack as the comparison sees it: the manifest's time and magic (written at import) aside. */
function comparable(text: string) {
  const value = canonical(text);
  return { ...value, manifest: { ...(value.manifest as object), time: '', magic: '' } };
}

function checkpoints(folder: string): string[] {
  const history = join(folder, '.pulumi', 'history');
  return readdirSync(history, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.checkpoint\.json(\.gz|\.zst)?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
}

describe('quota-state restore, against real `pulumi stack import`', function () {
  this.timeout(15 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('restores every version as real Pulumi imports it, in the project (gzip) and legacy layouts; Pulumi reads the result', () => {
    let compared = 0;
    for (const backend of generated.backends.filter((b) => b.compression === 'gzip' || b.layout === 'legacy')) {
      const versions = checkpoints(backend.folder).length;
      assert.ok(versions >= 9);
      for (let version = 1; version <= versions; version++) {
        const ours = copyOf(backend, 'ours');
        const result = runQuotaState(['restore', backend.stack, '--to', String(version), '--backend', `file://${ours}`]);
        assert.equal(result.status, 0, result.stderr);
        assert.match(result.stdout, new RegExp(`^restored ${backend.stack.replace(/\//g, '\\/')} from `));

        const theirs = copyOf(backend, 'theirs');
        const checkpoint = JSON.parse(textOf(checkpoints(theirs)[version - 1])) as { version: number; checkpoint: { latest: unknown } };
        const exported = join(scratch, 'export.json');
        writeFileSync(exported, JSON.stringify({ version: checkpoint.version, deployment: checkpoint.checkpoint.latest }));
        const imported = pulumi(theirs, ['stack', 'import', '--file', exported, '--stack', backend.stack], backend.compression);
        assert.equal(imported.status, 0, imported.stderr);

        const ourFile = stackFileOf(ours);
        assert.equal(ourFile.endsWith('.gz'), backend.compression === 'gzip', 'the stack file keeps its compression');
        assert.deepEqual(comparable(textOf(ourFile)), comparable(textOf(stackFileOf(theirs))), `${backend.layout} ${backend.compression} version ${version}`);
        const stackName = (text: string) => (JSON.parse(text) as { checkpoint: { stack: string } }).checkpoint.stack;
        assert.equal(stackName(textOf(ourFile)), stackName(textOf(stackFileOf(theirs))));
        const reread = pulumi(ours, ['stack', 'export', '--stack', backend.stack], backend.compression);
        assert.equal(reread.status, 0, reread.stderr);
        // No history entry is written, as Pulumi writes none for an import.
        assert.equal(checkpoints(ours).length, versions);
        compared++;
      }
    }
    assert.ok(compared >= 18, `${compared} restores compared`);
  });

  it('drops pending operations as Pulumi does, naming each; --dry-run shows the changes and writes nothing', () => {
    const backend = generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const folder = copyOf(backend, 'pending');
    const current = stackFileOf(folder);
    const before = readFileSync(current);
    const copy = join(scratch, 'current-state.json');
    writeFileSync(copy, before);
    const dry = runQuotaState(['restore', backend.stack, '--to', '3', '--backend', `file://${folder}`, '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /^would restore .* \(nothing written\):\n.*added/);
    assert.deepEqual(readFileSync(current), before);
    const restored = runQuotaState(['restore', backend.stack, '--to', copy, '--backend', `file://${folder}`, '--format', 'json']);
    assert.equal(restored.status, 0, restored.stderr);
    const report = JSON.parse(restored.stdout) as { droppedPendingOperations: string[]; written: boolean; backup: string };
    assert.deepEqual(report.droppedPendingOperations, ["removing pending operation 'creating' on 'urn:pulumi:dev::hist::hist:index:Thing::hang' from snapshot"]);
    assert.equal(report.written, true);
    assert.deepEqual(readFileSync(`${current}.bak`), before);
    assert.equal((JSON.parse(readFileSync(current, 'utf8')) as { checkpoint: { latest: Record<string, unknown> } }).checkpoint.latest.pending_operations, undefined);
    // A version-4 export keeps its version and features, as Pulumi's checkpoint marshalling does.
    const v4 = join(scratch, 'v4.json');
    writeFileSync(v4, JSON.stringify({ version: 4, features: ['refreshBeforeUpdate'], deployment: (JSON.parse(before.toString('utf8')) as { checkpoint: { latest: unknown } }).checkpoint.latest }));
    assert.equal(runQuotaState(['restore', backend.stack, '--to', v4, '--backend', `file://${folder}`]).status, 0);
    const written = JSON.parse(readFileSync(current, 'utf8')) as { version: number; features: string[] };
    assert.deepEqual([written.version, written.features], [4, ['refreshBeforeUpdate']]);
  });

  it('refuses, writing nothing: another stack, a missing version, no state, a locked stack, integrity errors (unless --allow-errors)', () => {
    const backend = generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const folder = copyOf(backend, 'refusals');
    const url = `file://${folder}`;
    const current = stackFileOf(folder);
    const before = readFileSync(current);
    const unchanged = () => assert.deepEqual(readFileSync(current), before);

    const other = join(scratch, 'other-stack.json');
    writeFileSync(other, textOf(checkpoints(folder)[2]).replaceAll('urn:pulumi:dev::', 'urn:pulumi:prod::'));
    const otherStack = runQuotaState(['restore', backend.stack, '--to', other, '--backend', url]);
    assert.equal(otherStack.status, 1);
    assert.match(otherStack.stderr, /is from a different stack \(prod != dev\)/);
    unchanged();

    const missing = runQuotaState(['restore', backend.stack, '--to', '42', '--backend', url]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no version "42"/);
    const notState = join(scratch, 'not-state.json');
    writeFileSync(notState, '{"hello": "world"}');
    assert.equal(runQuotaState(['restore', backend.stack, '--to', notState, '--backend', url]).status, 2);
    assert.equal(runQuotaState(['restore', backend.stack, '--to', 'yesterday', '--backend', url]).status, 2);
    unchanged();

    // A dangling dependency: an integrity error Pulumi's import refuses.
    const broken = JSON.parse(textOf(checkpoints(folder)[2])) as { checkpoint: { latest: { resources: Array<Record<string, unknown>> } } };
    broken.checkpoint.latest.resources[1].dependencies = ['urn:pulumi:dev::hist::hist:index:Thing::gone'];
    const brokenFile = join(scratch, 'broken.json');
    writeFileSync(brokenFile, JSON.stringify(broken));
    const refused = runQuotaState(['restore', backend.stack, '--to', brokenFile, '--backend', url]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /cannot be restored.*nothing was written[\s\S]*--allow-errors/);
    unchanged();
    const allowed = runQuotaState(['restore', backend.stack, '--to', brokenFile, '--backend', url, '--allow-errors']);
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.match(allowed.stderr, /warning: .*--allow-errors/);

    // The generated backend's own stale lock: refused, then broken on request.
    const locked = copyOf(backend, 'locked');
    cpSync(join(backend.folder, '.pulumi', 'locks'), join(locked, '.pulumi', 'locks'), { recursive: true });
    const lockedFile = stackFileOf(locked);
    const lockedBefore = readFileSync(lockedFile);
    const refusedLock = runQuotaState(['restore', backend.stack, '--to', '3', '--backend', `file://${locked}`]);
    assert.equal(refusedLock.status, 1);
    assert.match(refusedLock.stderr, /locked by 1 lock\(s\)[\s\S]*--break-lock/);
    assert.deepEqual(readFileSync(lockedFile), lockedBefore);
    const broke = runQuotaState(['restore', backend.stack, '--to', '3', '--backend', `file://${locked}`, '--break-lock']);
    assert.equal(broke.status, 0, broke.stderr);
    assert.match(broke.stderr, /removing Pulumi's lock .*--break-lock/);
  });
});
