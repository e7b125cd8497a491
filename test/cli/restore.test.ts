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
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { restore } from '../../cli/commands/restore';
import { realIo } from '../../cli/realIo';
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
  it('resolves VERSION to its entry id, and refuses, writing nothing, when a prune renumbers or removes it before the lock', async () => {
    const backend = generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const versions = checkpoints(backend.folder).length;
    const idOf = (folder: string, version: number) => /-(\d+)\.checkpoint\.json/.exec(checkpoints(folder)[version - 1])![1];
    /** `restore --to 3` in this process, with a prune (as real as any: the CLI's) between resolving the version and taking the lock. */
    const racing = async (folder: string, keep: number) => {
      const out: string[] = [];
      const err: string[] = [];
      const io = { ...realIo(scratch), stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) };
      const status = await restore([backend.stack, '--to', '3', '--backend', `file://${folder}`], io, {
        resolved: () => assert.equal(runQuotaState(['backend', 'prune', '--stack', backend.stack, '--keep', String(keep), '--backend', `file://${folder}`]).status, 0),
      });
      return { status, stdout: out.join('\n'), stderr: err.join('\n') };
    };
    for (const [keep, change] of [
      [versions - 1, /that entry is now version 2/],
      [versions - 3, /that entry is gone/],
    ] as const) {
      const folder = copyOf(backend, `race-${keep}`);
      const id = idOf(folder, 3);
      const current = stackFileOf(folder);
      const before = readFileSync(current);
      const backupBefore = existsSync(`${current}.bak`) ? readFileSync(`${current}.bak`) : undefined;
      const raced = await racing(folder, keep);
      assert.equal(raced.status, 1, raced.stdout);
      assert.match(raced.stderr, new RegExp(`version 3 of ${backend.stack.replace(/\//g, '\\/')} was entry ${id} when it was read, but `));
      assert.match(raced.stderr, change);
      assert.match(raced.stderr, /nothing was written/);
      assert.deepEqual(readFileSync(current), before);
      assert.deepEqual(existsSync(`${current}.bak`) ? readFileSync(`${current}.bak`) : undefined, backupBefore);
    }
    // Unraced, the output names the entry restored.
    const folder = copyOf(backend, 'race-none');
    const result = runQuotaState(['restore', backend.stack, '--to', '3', '--backend', `file://${folder}`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`\\(version 3, entry ${idOf(folder, 3)}\\): `));
  });

  it('--allow-errors restores a value nested 300 deep whole; a document too deep to write exactly is refused, not cut', () => {
    const backend = generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const folder = copyOf(backend, 'deep');
    const current = stackFileOf(folder);
    const document = JSON.parse(textOf(checkpoints(folder)[2])) as { checkpoint: { latest: { resources: Array<{ outputs?: Record<string, unknown> }> } } };
    let deep: unknown = 1;
    for (let depth = 0; depth < 300; depth++) deep = [deep];
    document.checkpoint.latest.resources[1].outputs = { ...document.checkpoint.latest.resources[1].outputs, deep };
    const deepFile = join(scratch, 'deep.json');
    writeFileSync(deepFile, JSON.stringify(document));
    const restored = runQuotaState(['restore', backend.stack, '--to', deepFile, '--backend', `file://${folder}`, '--allow-errors']);
    assert.equal(restored.status, 0, restored.stderr);
    const written = JSON.parse(readFileSync(current, 'utf8')) as typeof document;
    assert.deepEqual(written.checkpoint.latest.resources[1].outputs!.deep, deep);
    assert.deepEqual(written.checkpoint.latest, document.checkpoint.latest);

    const before = readFileSync(current);
    const deeper = join(scratch, 'deeper.json');
    const million = 1_000_000;
    writeFileSync(
      deeper,
      `{"version":3,"deployment":{"manifest":{},"resources":[{"urn":"urn:pulumi:dev::hist::a:b:C::x","type":"a:b:C","outputs":{"v":${'['.repeat(million)}1${']'.repeat(million)}}}]}}`,
    );
    const refused = runQuotaState(['restore', backend.stack, '--to', deeper, '--backend', `file://${folder}`, '--allow-errors']);
    assert.equal(refused.status, 2, refused.stdout);
    assert.match(refused.stderr, /nested too deeply to be restored exactly; nothing was written/);
    assert.deepEqual(readFileSync(current), before);
  });

  it('restores over a damaged stack file (truncated, a gzip bomb), keeping its bytes as the .bak and saying so; Pulumi reads the result', () => {
    const cases = [
      { compression: 'plain', damage: (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2)), said: /is not a readable state/ },
      // Past the limit quota-state is given (8 MiB here; 256 MiB by default), as a bomb is.
      { compression: 'gzip', damage: () => gzipSync(Buffer.alloc(16 * 1024 * 1024)), said: /8 MiB|limit/ },
    ];
    for (const { compression, damage, said } of cases) {
      const backend = generated.backends.find((b) => b.layout === 'project' && b.compression === compression)!;
      const folder = copyOf(backend, `damaged-${compression}`);
      const current = stackFileOf(folder);
      const damaged = damage(readFileSync(current));
      writeFileSync(current, damaged);
      const result = runQuotaState(['restore', backend.stack, '--to', '3', '--backend', `file://${folder}`], { env: { ...process.env, QUOTA_STATE_MAX_INFLATED_MIB: '8' } });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /warning: .*the stack file was damaged, and was replaced; its bytes are kept unchanged in .*\.bak/);
      assert.match(result.stderr, said);
      assert.deepEqual(readFileSync(`${current}.bak`), damaged);
      assert.equal(stackFileOf(folder), current);
      const exported = pulumi(folder, ['stack', 'export', '--stack', backend.stack], backend.compression);
      assert.equal(exported.status, 0, exported.stderr);
      const urns = (resources: Array<{ urn: string }>) => resources.map((r) => r.urn);
      const restored = JSON.parse(textOf(checkpoints(folder)[2])) as { checkpoint: { latest: { resources: Array<{ urn: string }> } } };
      assert.deepEqual(urns((JSON.parse(exported.stdout) as { deployment: { resources: Array<{ urn: string }> } }).deployment.resources), urns(restored.checkpoint.latest.resources));
    }
  });
});
