/**
 * `quota-state stack rm`, `restore-deleted` and `rename` on the generated real histories, judged by
 * real Pulumi v3.274.1: after rm, Pulumi no longer lists the stack; after restore-deleted it reads
 * it back with its whole history, export and tags; after rename it loads the renamed stack and lists
 * its history; and what Pulumi's own `stack rm` leaves is recovered in part, naming what is lost.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { pulumiOnHistoryBackend } from '../helpers/realPulumi';
import { runQuotaState } from '../helpers/processes';

const scratch = join(tmpdir(), `quota-state-stacks-${process.pid}`);
let generated: ReturnType<typeof ensureHistories>;

function copyOf(variant: string, name: string): string {
  const from = generated.backends.find((b) => `${b.layout}-${b.compression}` === variant)!.folder;
  const copy = join(scratch, name);
  cpSync(from, copy, { recursive: true });
  // The generator's interrupted update left its lock: these tests are not about locks.
  rmSync(join(copy, '.pulumi', 'locks'), { recursive: true, force: true });
  return copy;
}

function pulumi(folder: string, args: string[], cwd = scratch): string {
  const result = pulumiOnHistoryBackend(generated.pulumi, folder, args, cwd);
  assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

const ours = (args: string[], cwd = scratch, extra: Record<string, string> = {}) => runQuotaState(args, { cwd, env: { ...process.env, HOME: scratch, PULUMI_BACKEND_URL: '', ...extra } });
const historyOf = (folder: string, stack: string) => JSON.parse(pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', stack])) as Array<Record<string, unknown>>;
const stacksOf = (folder: string) => (JSON.parse(pulumi(folder, ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>).map((s) => s.name);

/**
 * Every file of a backend folder (locks aside) with its hash; a deleted entry's `<UnixNano>` is `<id>`,
 * and its manifest is what it says of the stack (not when, nor which process).
 */
function endState(folder: string): Map<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const state = new Map<string, string>();
  for (const file of files) {
    const path = relative(folder, join(file.parentPath, file.name));
    if (path.startsWith(join('.pulumi', 'locks'))) continue;
    const bytes = readFileSync(join(file.parentPath, file.name));
    const manifest = file.name === 'manifest.json' ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined;
    const said = manifest ? JSON.stringify([manifest.stack, manifest.reason, manifest.objects, manifest.removing]) : bytes;
    state.set(path.replace(/(deleted\/[^/]+\/[^/]+\/)\d+\//, '$1<id>/'), createHash('sha256').update(said).digest('hex'));
  }
  return state;
}

/**
 * `args` on a fresh copy of `base`, killed after n = 1, 2, ... writes and deletes until a run ends by
 * itself: after a kill (see JUDGE_EVERY), `judge` says what real Pulumi sees; then a rerun (without --break-lock)
 * finishes the job, saying so when the killed run had begun it (`begun`), and leaves the end state of
 * an uninterrupted run. A run killed once all was done (its locks only left) is refused by the rerun
 * as there is nothing left to do. Answers how many runs were killed.
 */
/**
 * Real Pulumi judges every JUDGE_EVERY-th kill, and every kill after which the stack files in
 * `.pulumi/stacks` (what Pulumi lists) differ from the previous kill's: the moments a stack appears or
 * goes. Our own reads check every kill. Judging all 120 kills of a command took 10 minutes.
 */
const JUDGE_EVERY = 8;

function stackFilesOf(folder: string): string {
  const stacks = join(folder, '.pulumi', 'stacks');
  return existsSync(stacks) ? JSON.stringify(readdirSync(stacks, { recursive: true, encoding: 'utf8' }).sort()) : '[]';
}

function killAtEveryWrite(base: string, name: string, args: string[], begun: (folder: string) => boolean, judge: (folder: string, n: number) => void): number {
  const reference = join(scratch, `${name}-reference`);
  cpSync(base, reference, { recursive: true });
  const uninterrupted = ours([...args, '--backend', `file://${reference}`]);
  assert.equal(uninterrupted.status, 0, uninterrupted.stderr);
  const expected = endState(reference);
  let previousStackFiles = stackFilesOf(base);
  for (let n = 1; ; n++) {
    const folder = join(scratch, `${name}-${n}`);
    cpSync(base, folder, { recursive: true });
    const killed = ours([...args, '--backend', `file://${folder}`], scratch, { QUOTA_STATE_TEST_KILL_AFTER_WRITES: String(n) });
    if (killed.status === 0) {
      assert.deepEqual(endState(folder), expected);
      return n - 1;
    }
    assert.equal(killed.status, null, `killed after ${n} writes: ${killed.stderr}`);
    const stackFiles = stackFilesOf(folder);
    if (n % JUDGE_EVERY === 0 || stackFiles !== previousStackFiles) judge(folder, n);
    previousStackFiles = stackFiles;
    const done = JSON.stringify([...endState(folder)]) === JSON.stringify([...expected]);
    const marked = begun(folder);
    const rerun = ours([...args, '--backend', `file://${folder}`]);
    if (done) assert.equal(rerun.status, 1, `after ${n} writes, all done: ${rerun.stderr}`);
    else {
      assert.equal(rerun.status, 0, `rerun after ${n} writes: ${rerun.stderr}`);
      if (marked) assert.match(rerun.stderr, /warning: an interrupted .* finished it/, `rerun after ${n} writes`);
      assert.match(rerun.stderr, /taking over Pulumi's lock .*: its process is gone/, `rerun after ${n} writes`);
    }
    assert.deepEqual(endState(folder), expected, `after ${n} writes and the rerun`);
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('quota-state stack rm, restore-deleted and rename, against real Pulumi', function () {
  this.timeout(15 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
    mkdirSync(scratch, { recursive: true });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const variant of ['project-plain', 'project-zstd', 'legacy-plain']) {
    it(`${variant}: rm refuses without --force; with it Pulumi no longer lists the stack; restore-deleted gives it back with history, export and tags`, () => {
      const folder = copyOf(variant, `rm-${variant}`);
      const stack = variant.startsWith('legacy') ? 'dev' : 'organization/hist/dev';
      pulumi(folder, ['stack', 'tag', 'set', '--stack', stack, 'owner', 'team-a']);
      const history = historyOf(folder, stack);
      const exported = pulumi(folder, ['stack', 'export', '--stack', stack]);
      const tags = pulumi(folder, ['stack', 'tag', 'ls', '--json', '--stack', stack]);

      const refused = ours(['stack', 'rm', stack, '--backend', `file://${folder}`]);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /still has resources; removal rejected/);
      assert.equal(pulumi(folder, ['stack', 'export', '--stack', stack]), exported, 'nothing written');

      const removed = ours(['stack', 'rm', stack, '--backend', `file://${folder}`, '--force']);
      assert.equal(removed.status, 0, removed.stderr);
      assert.match(removed.stdout, /has been removed: \d+ objects \(9 history entries\) are kept in \.pulumi\/deleted\//);
      assert.deepEqual(stacksOf(folder), []);
      const listed = ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`, '--format', 'json']);
      assert.equal(listed.status, 0, listed.stderr);
      const deleted = (JSON.parse(listed.stdout) as { deleted: Array<{ stack: string; historyEntries: number; complete: boolean }> }).deleted;
      assert.deepEqual(
        deleted.map((d) => [d.stack, d.historyEntries, d.complete]),
        [[stack, 9, true]],
      );

      const restored = ours(['stack', 'restore-deleted', stack, '--backend', `file://${folder}`]);
      assert.equal(restored.status, 0, restored.stderr);
      assert.match(restored.stdout, /recovered: 9 history entries, 9 backups, the tags/);
      // Pulumi's `stack ls` above wrote meta.yaml version 1 into the legacy backend it found without stacks: the stack comes back in its project.
      const now = variant.startsWith('legacy') ? 'organization/hist/dev' : stack;
      if (variant.startsWith('legacy')) assert.match(restored.stdout, /placed in project hist/);
      assert.deepEqual(historyOf(folder, now), history);
      assert.equal(pulumi(folder, ['stack', 'export', '--stack', now]), exported);
      assert.equal(pulumi(folder, ['stack', 'tag', 'ls', '--json', '--stack', now]), tags);
      // The entry is gone: a second restore has nothing of ours, and the stack exists anyway.
      const again = ours(['stack', 'restore-deleted', now, '--backend', `file://${folder}`]);
      assert.equal(again.status, 1);
      assert.match(again.stderr, /exists/);
    });
  }

  it('backend prune --deleted: an entry older than --older-than goes (--dry-run first removes nothing); a newer one stays', () => {
    const folder = copyOf('project-plain', 'prune-deleted');
    assert.equal(ours(['stack', 'rm', 'organization/hist/dev', '--force', '--backend', `file://${folder}`]).status, 0);
    // The entry as if removed in September 2001 (its folder is its <UnixNano>): newer than 10000 days, older than 30.
    const area = join(folder, '.pulumi', 'deleted', 'hist', 'dev');
    const [id] = readdirSync(area);
    renameSync(join(area, id), join(area, '1000000000000000000'));
    const kept = ours(['backend', 'prune', '--deleted', '--older-than', '10000d', '--backend', `file://${folder}`]);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /removed 0 of 1 deleted entries/);
    const dry = ours(['backend', 'prune', '--deleted', '--older-than', '30d', '--dry-run', '--backend', `file://${folder}`]);
    assert.match(dry.stdout, /would remove \.pulumi\/deleted\/hist\/dev\/1000000000000000000\/ \(organization\/hist\/dev, 9 history entries/);
    assert.ok(existsSync(join(area, '1000000000000000000', 'manifest.json')));
    const pruned = ours(['backend', 'prune', '--deleted', '--older-than', '30d', '--backend', `file://${folder}`]);
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.match(pruned.stdout, /removed 1 of 1 deleted entries \(\d+ objects\)/);
    const listed = JSON.parse(ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`, '--format', 'json']).stdout) as { deleted: unknown[] };
    assert.deepEqual(listed.deleted, []);
  });

  it("restore-deleted after Pulumi's own `stack rm --force`: the stack from its .bak, the backups kept, the history and tags named as lost", () => {
    const folder = copyOf('project-gzip', 'pulumi-rm');
    const exported = pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']);
    pulumi(folder, ['stack', 'rm', '--force', '--yes', '--stack', 'organization/hist/dev']);
    const listed = ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`]);
    assert.match(listed.stdout, /organization\/hist\/dev {2}\.pulumi\/stacks\/hist\/dev\.json\.gz\.bak, 9 backups/);
    const restored = ours(['stack', 'restore-deleted', 'organization/hist/dev', '--backend', `file://${folder}`]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /from what Pulumi's stack rm left: \.pulumi\/stacks\/hist\/dev\.json\.gz/);
    assert.match(restored.stdout, /not recovered: the history/);
    assert.match(restored.stdout, /not recovered: the tags/);
    assert.equal(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']), exported);
  });

  it('rename: real Pulumi loads the renamed stack and lists its whole history; tags and backups follow; Pulumi.<stack>.yaml is renamed', () => {
    const folder = copyOf('project-plain', 'rename');
    const project = join(scratch, 'rename-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
    writeFileSync(join(project, 'Pulumi.dev.yaml'), 'config: {}\n');
    pulumi(folder, ['stack', 'tag', 'set', '--stack', 'organization/hist/dev', 'owner', 'team-a']);
    const history = historyOf(folder, 'organization/hist/dev');
    const renamed = ours(['stack', 'rename', 'organization/hist/dev', 'prod', '--backend', `file://${folder}`], project);
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.deepEqual(stacksOf(folder), ['organization/hist/prod']);
    // The history's entries are the same updates, byte for byte (their contents untouched).
    assert.deepEqual(historyOf(folder, 'organization/hist/prod'), history);
    const exported = JSON.parse(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/prod'])) as { deployment: { resources: Array<{ urn: string }> } };
    assert.ok(exported.deployment.resources.every((r) => r.urn.startsWith('urn:pulumi:prod::hist::')));
    assert.equal(exported.deployment.resources[0].urn, 'urn:pulumi:prod::hist::pulumi:pulumi:Stack::hist-prod');
    assert.match(pulumi(folder, ['stack', 'tag', 'ls', '--stack', 'organization/hist/prod']), /owner\s+team-a/);
    assert.equal(readdirSync(join(folder, '.pulumi', 'backups', 'hist', 'prod')).filter((f) => !f.endsWith('.attrs')).length, 9);
    assert.ok(existsSync(join(project, 'Pulumi.prod.yaml')) && !existsSync(join(project, 'Pulumi.dev.yaml')));
    // A new stack under the old name inherits no tags (Pulumi's rename leaves them behind).
    pulumi(folder, ['stack', 'init', 'organization/hist/dev'], project);
    assert.doesNotMatch(pulumi(folder, ['stack', 'tag', 'ls', '--stack', 'organization/hist/dev']), /team-a/);
    // Onto an existing stack: refused, as Pulumi refuses.
    const onto = ours(['stack', 'rename', 'organization/hist/prod', 'dev', '--backend', `file://${folder}`], project);
    assert.equal(onto.status, 1);
    assert.match(onto.stderr, /a stack named organization\/hist\/dev already exists/);
  });

  it('rm killed after each write (1..N): real Pulumi lists the stack whole or not at all; a rerun finishes it as an uninterrupted rm', function () {
    // Some 120 kills, one in eight and every change of Pulumi's listing judged by real Pulumi.
    this.timeout(20 * 60 * 1000);
    const base = copyOf('project-plain', 'rm-killed-base');
    const stack = 'organization/hist/dev';
    pulumi(base, ['stack', 'tag', 'set', '--stack', stack, 'owner', 'team-a']);
    const history = historyOf(base, stack);
    const removing = (folder: string) =>
      existsSync(join(folder, '.pulumi', 'deleted')) &&
      readdirSync(join(folder, '.pulumi', 'deleted'), { recursive: true, encoding: 'utf8' }).some(
        (f) => f.endsWith('manifest.json') && readFileSync(join(folder, '.pulumi', 'deleted', f), 'utf8').includes('"removing"'),
      );
    const killed = killAtEveryWrite(base, 'rm-killed', ['stack', 'rm', stack, '--force'], removing, (folder, n) => {
      const listed = stacksOf(folder);
      if (listed.length) assert.deepEqual(historyOf(folder, stack), history, `killed after ${n} writes: the stack is listed, with its whole history`);
      else {
        // Gone from Pulumi's view only once the entry holds the stack file and every history entry.
        const area = join(folder, '.pulumi', 'deleted', 'hist', 'dev');
        const entry = join(area, readdirSync(area)[0]);
        assert.ok(existsSync(join(entry, 'stacks', 'hist', 'dev.json')), `killed after ${n} writes: the entry holds the stack file`);
        assert.equal(readdirSync(join(entry, 'history', 'hist', 'dev')).filter((f) => f.endsWith('.history.json')).length, history.length, `killed after ${n} writes`);
      }
    });
    assert.ok(killed > 60, `${killed} kills`);
  });

  it('rename killed after each write (1..N): real Pulumi lists the old stack or the new one, each whole; a rerun finishes it as an uninterrupted rename', function () {
    // Some 120 kills, one in eight and every change of Pulumi's listing judged by real Pulumi.
    this.timeout(20 * 60 * 1000);
    const base = copyOf('project-plain', 'rename-killed-base');
    pulumi(base, ['stack', 'tag', 'set', '--stack', 'organization/hist/dev', 'owner', 'team-a']);
    const history = historyOf(base, 'organization/hist/dev');
    const journaled = (folder: string) => existsSync(join(folder, '.pulumi', 'quota-state-renames', 'hist', 'dev.json'));
    const killed = killAtEveryWrite(base, 'rename-killed', ['stack', 'rename', 'organization/hist/dev', 'prod'], journaled, (folder, n) => {
      const listed = stacksOf(folder);
      assert.ok(listed.length > 0 && listed.every((s) => s === 'organization/hist/dev' || s === 'organization/hist/prod'), `killed after ${n} writes: ${listed.join(', ')}`);
      for (const stack of listed) assert.deepEqual(historyOf(folder, stack), history, `killed after ${n} writes: ${stack} is whole`);
    });
    assert.ok(killed > 50, `${killed} kills`);
  });
});
