/**
 * Symbolic links in a `file://` backend (issue 53, items 2–4), on copies of a backend real Pulumi
 * wrote. The store walks and writes as gocloud's fileblob at the pinned version does: a folder that
 * is a symbolic link is not followed (fileblob's filepath.WalkDir never follows one, and a prefix
 * whose folder is a link lists nothing); no path whose real path leaves the backend is read,
 * written, locked or removed; every listing is bounded.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileBackendStore } from '../../shared/node/fileStore';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { distPath } from '../helpers/processes';

const scratch = join(tmpdir(), `quota-state-symlinks-${process.pid}`);
type Generated = ReturnType<typeof ensureHistories>;
let generated: Generated;
let source: string;

/** A copy of the project-layout backend real Pulumi wrote (stack organization/hist/dev, 9 entries). */
function copyOf(name: string): string {
  const copy = join(scratch, name);
  rmSync(copy, { recursive: true, force: true });
  cpSync(source, copy, { recursive: true, verbatimSymlinks: true });
  rmSync(join(copy, '.pulumi', 'locks'), { recursive: true, force: true });
  return copy;
}

/** Every entry under `folder` (files with their bytes, folders, links with their targets), by relative name. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(folder, path);
    const stats = lstatSync(path);
    out[name] = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'folder' : readFileSync(path).toString('base64');
  }
  return out;
}

/** quota-state from dist/, killed after 20 s: `timedOut` says whether it was. */
function ours(args: string[]) {
  const result = spawnSync(process.execPath, [distPath('cli/quota-state.js'), ...args], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL', env: { ...process.env, PULUMI_BACKEND_URL: '' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, timedOut: result.error !== undefined || result.signal !== null };
}

function pulumi(folder: string, args: string[]) {
  const { env, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: `file://${folder}`, PULUMI_CONFIG_PASSPHRASE: 'history-passphrase' });
  try {
    return spawnSync(generated.pulumi, args, { cwd: scratch, env, encoding: 'utf8', timeout: 60_000 });
  } finally {
    cleanup();
  }
}

describe('quota-state on a file:// backend with symbolic links', function () {
  this.timeout(5 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
    source = generated.backends.find((b) => b.layout === 'project' && b.compression === 'plain')!.folder;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses a stack file that links outside the backend, naming it, and writes nothing there (a foreign Pulumi lock held)', () => {
    const folder = copyOf('linked-stack');
    const outside = join(scratch, 'linked-stack-outside');
    mkdirSync(outside, { recursive: true });
    const stackFile = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
    renameSync(stackFile, join(outside, 'dev.json'));
    symlinkSync(join(outside, 'dev.json'), stackFile);
    const locks = join(folder, '.pulumi', 'locks', 'organization', 'hist', 'dev');
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, '0b8f1e0e-6f43-4f5e-9a53-1d7c5e0c2a11.json'), JSON.stringify({ pid: 1, username: 'someone', hostname: 'another-host', timestamp: new Date().toISOString() }));
    const before = snapshot(outside);
    const backendBefore = snapshot(folder);

    const urn = 'urn:pulumi:dev::hist::hist:index:Thing::bucket';
    for (const args of [
      ['state', 'protect', '--backend', `file://${folder}`, 'organization/hist/dev', urn],
      ['state', 'protect', '--backend', `file://${folder}`, 'organization/hist/dev', urn, '--break-lock'],
      ['fix', '--backend', `file://${folder}`, 'organization/hist/dev'],
      ['restore', 'organization/hist/dev', '--to', '3', '--backend', `file://${folder}`, '--break-lock'],
    ]) {
      const result = ours(args);
      assert.ok(!result.timedOut);
      assert.notEqual(result.status, 0, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /\.pulumi\/stacks\/hist\/dev\.json.*symbolic link/, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.deepEqual(snapshot(outside), before, args.join(' '));
      assert.deepEqual(snapshot(folder), backendBefore, args.join(' '));
    }
    // Reading it is refused too: its real path is outside the backend.
    const check = ours(['check', '--backend', `file://${folder}`, 'organization/hist/dev']);
    assert.equal(check.status, 2, check.stdout + check.stderr);
    assert.match(check.stderr, /\.pulumi\/stacks\/hist\/dev\.json.*symbolic link/);
  });

  for (const [title, link] of [
    ['the stack’s history folder', ['history', 'hist', 'dev']],
    ['the whole history folder', ['history']],
  ] as const) {
    it(`prune removes nothing through a symbolic link to ${title}; real Pulumi sees the same entries`, () => {
      const folder = copyOf(`linked-${link.length}`);
      const outside = join(scratch, `linked-${link.length}-outside`);
      rmSync(outside, { recursive: true, force: true });
      renameSync(join(folder, '.pulumi', ...link), outside);
      symlinkSync(outside, join(folder, '.pulumi', ...link));
      const before = snapshot(outside);

      const result = ours(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '3', '--format', 'json']);
      assert.ok(!result.timedOut);
      assert.equal(result.status, 0, result.stdout + result.stderr);
      const report = JSON.parse(result.stdout) as { stacks: Array<{ entries: { before: number; after: number } }> };
      assert.deepEqual(report.stacks[0].entries, { before: 0, after: 0 });
      assert.deepEqual(snapshot(outside), before);
      if (link.length === 3) {
        // fileblob's WalkDir does not follow the linked folder: Pulumi lists no entry either.
        const history = pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']);
        assert.equal(history.status, 0, history.stderr);
        assert.equal((JSON.parse(history.stdout) as unknown[] | null)?.length ?? 0, 0);
      }
      const listed = ours(['history', 'organization/hist/dev', '--backend', `file://${folder}`, '--format', 'json']);
      assert.equal(listed.status, 0, listed.stdout + listed.stderr);
      assert.equal((JSON.parse(listed.stdout) as { entries: unknown[] }).entries.length, 0);
    });
  }

  it('answers promptly with self-referencing links under .pulumi/ (a -> ., b -> .), with the right results', () => {
    const folder = copyOf('self-links');
    symlinkSync('.', join(folder, '.pulumi', 'a'));
    symlinkSync('.', join(folder, '.pulumi', 'b'));
    symlinkSync('.', join(folder, '.pulumi', 'history', 'hist', 'dev', 'a'));
    symlinkSync('..', join(folder, '.pulumi', 'history', 'hist', 'dev', 'b'));

    const listed = ours(['backend', 'ls', `file://${folder}`, '--format', 'json']);
    assert.ok(!listed.timedOut, 'backend ls timed out');
    assert.equal(listed.status, 0, listed.stderr);
    const stacks = (JSON.parse(listed.stdout) as { stacks: Array<{ name: string }> }).stacks;
    assert.deepEqual(
      stacks.map((s) => s.name),
      ['organization/hist/dev'],
    );

    const history = ours(['history', 'organization/hist/dev', '--backend', `file://${folder}`, '--format', 'json']);
    assert.ok(!history.timedOut, 'history timed out');
    assert.equal(history.status, 0, history.stderr);
    assert.equal((JSON.parse(history.stdout) as { entries: unknown[] }).entries.length, 9);

    const pruned = ours(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '3', '--format', 'json']);
    assert.ok(!pruned.timedOut, 'prune timed out');
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.deepEqual((JSON.parse(pruned.stdout) as { stacks: Array<{ entries: unknown }> }).stacks[0].entries, { before: 9, after: 3 });
    for (const link of [['a'], ['b'], ['history', 'hist', 'dev', 'a'], ['history', 'hist', 'dev', 'b']]) assert.ok(lstatSync(join(folder, '.pulumi', ...link)).isSymbolicLink());
    const kept = pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']);
    assert.equal(kept.status, 0, kept.stderr);
    assert.equal((JSON.parse(kept.stdout) as unknown[]).length, 3);
  });

  it('bounds every listing: past the cap, an error naming the folder and the limit', async () => {
    const folder = copyOf('many');
    for (let i = 0; i < 30; i++) writeFileSync(join(folder, '.pulumi', `extra-${i}.txt`), '');
    const store = fileBackendStore(folder, `file://${folder}`, { maxListedEntries: 50 });
    await assert.rejects(() => store.listPage('.pulumi/'), /\.pulumi\/: more than 50 entries/);
    assert.equal((await fileBackendStore(folder, `file://${folder}`).listPage('.pulumi/history/')).objects.filter((o) => o.name.endsWith('.history.json')).length, 9);
    assert.ok(existsSync(folder));
  });
});
