/**
 * `quota-state backend upgrade` and `backend prune` on the generated real histories, judged by real
 * Pulumi: the upgrade leaves the same stack and history files, byte for byte, as real `pulumi state
 * upgrade` on a copy of the same legacy backend (our one difference: the backups move too), and
 * Pulumi reads the result; after a prune, real `pulumi stack history` lists the entries kept and
 * `pulumi config refresh` still reads the newest entry's config. And the refusals, with nothing
 * written: a locked stack, a rule that would remove every entry, bad flags, a stack with no project.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { pulumiOnHistoryBackend } from '../helpers/realPulumi';
import { ROOT, runQuotaState } from '../helpers/processes';

const scratch = mkdtempScratch();
type Generated = ReturnType<typeof ensureHistories>;
let generated: Generated;

function mkdtempScratch(): string {
  const folder = join(tmpdir(), `quota-state-maintenance-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return folder;
}

function copyOf(folder: string, name: string, keepLocks = false): string {
  const copy = join(scratch, name);
  rmSync(copy, { recursive: true, force: true });
  cpSync(folder, copy, { recursive: true });
  if (!keepLocks) rmSync(join(copy, '.pulumi', 'locks'), { recursive: true, force: true });
  return copy;
}

/** Every file under the backend but gocloud's sidecars and temporaries, by relative name. */
function files(folder: string): string[] {
  return readdirSync(join(folder, '.pulumi'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.attrs') && !e.name.endsWith('.tmp'))
    .map((e) => relative(folder, join(e.parentPath, e.name)))
    .sort();
}

function pulumi(folder: string, args: string[], cwd = scratch) {
  return pulumiOnHistoryBackend(generated.pulumi, folder, args, cwd);
}

describe('quota-state backend upgrade and prune, against real Pulumi', function () {
  this.timeout(15 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('upgrades a legacy backend to the same files, byte for byte, as real `pulumi state upgrade`, and Pulumi reads it', () => {
    const legacy = generated.backends.find((b) => b.layout === 'legacy')!;
    const ours = copyOf(legacy.folder, 'upgrade-ours');
    const theirs = copyOf(legacy.folder, 'upgrade-theirs');
    // Before: the layout Pulumi refuses without its deprecation override is named, with the way out.
    const listed = runQuotaState(['backend', 'ls', `file://${ours}`], { env: { ...process.env, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: '' } });
    assert.match(listed.stderr, /legacy layout, which Pulumi refuses since v3\.257 .*quota-state backend upgrade/);
    const result = runQuotaState(['backend', 'upgrade', '--backend', `file://${ours}`], { env: { ...process.env, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: '' } });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^upgrading dev → organization\/hist\/dev: \d+ files$/m);
    assert.match(result.stdout, /upgraded 1 of 1 stack to the project layout/);
    const upgraded = pulumi(theirs, ['state', 'upgrade', '--yes']);
    assert.equal(upgraded.status, 0, upgraded.stderr);

    // The backups are ours to move (Pulumi leaves them in the legacy folder); everything else is Pulumi's.
    const movedBackups = (list: string[]) => list.map((f) => f.replace(/^\.pulumi\/backups\/dev\//, '.pulumi/backups/hist/dev/'));
    assert.deepEqual(files(ours), movedBackups(files(theirs)));
    assert.ok(files(ours).some((f) => f.startsWith('.pulumi/backups/hist/dev/')));
    for (const file of files(theirs)) {
      const mine = movedBackups([file])[0];
      assert.ok(readFileSync(join(ours, mine)).equals(readFileSync(join(theirs, file))), `${mine} differs from Pulumi's ${file}`);
    }
    const history = pulumi(ours, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']);
    assert.equal(history.status, 0, history.stderr);
    assert.equal((JSON.parse(history.stdout) as unknown[]).length, 9);
    assert.equal(pulumi(ours, ['stack', 'export', '--stack', 'organization/hist/dev']).status, 0);
    // Once upgraded, there is nothing to do.
    const again = runQuotaState(['backend', 'upgrade', '--backend', `file://${ours}`], { env: { ...process.env, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: '' } });
    assert.match(again.stdout, /already has the project layout/);
    assert.doesNotMatch(again.stderr, /legacy layout/);
  });

  it('lists a stack with no project, with the flag that places it; refuses a locked backend, writing nothing', () => {
    const legacy = generated.backends.find((b) => b.layout === 'legacy')!;
    const folder = copyOf(legacy.folder, 'upgrade-empty');
    writeFileSync(
      join(folder, '.pulumi', 'stacks', 'empty.json'),
      JSON.stringify({ version: 3, checkpoint: { stack: 'empty', latest: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' } } } }),
    );
    const dry = runQuotaState(['backend', 'upgrade', '--backend', `file://${folder}`, '--dry-run']);
    assert.equal(dry.status, 1);
    assert.match(dry.stdout, /^empty: skipped: no project name found .*--project-for empty=PROJECT$/m);
    assert.ok(!existsSync(join(folder, '.pulumi', 'meta.yaml')), 'a dry run writes nothing');
    // Without the flag, nothing moves: the unplaced stack would vanish from Pulumi's sight.
    const unplacedBefore = files(folder);
    const unplaced = runQuotaState(['backend', 'upgrade', '--backend', `file://${folder}`]);
    assert.equal(unplaced.status, 1);
    assert.match(unplaced.stderr, /nothing was upgraded: every stack must be placed first/);
    assert.deepEqual(files(folder), unplacedBefore);
    const placed = runQuotaState(['backend', 'upgrade', '--backend', `file://${folder}`, '--project-for', 'empty=hist']);
    assert.equal(placed.status, 0, placed.stdout + placed.stderr);
    assert.ok(existsSync(join(folder, '.pulumi', 'stacks', 'hist', 'empty.json')));

    const locked = copyOf(legacy.folder, 'upgrade-locked', true);
    const before = files(locked);
    const refused = runQuotaState(['backend', 'upgrade', '--backend', `file://${locked}`]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /locked by 1 lock\(s\)[\s\S]*nothing was upgraded/);
    assert.deepEqual(files(locked), before);
  });

  it('prunes to the entries kept: real `pulumi stack history` lists them, `pulumi config refresh` reads the newest', () => {
    for (const backend of generated.backends.filter((b) => b.compression !== 'zstd')) {
      const folder = copyOf(backend.folder, `prune-${backend.layout}-${backend.compression}`);
      const all = JSON.parse(pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', backend.stack]).stdout) as Array<{ startTime: string }>;
      const dry = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '3', '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /would remove 36 files/);
      const result = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '3', '--format', 'json']);
      assert.equal(result.status, 0, result.stderr);
      const report = JSON.parse(result.stdout) as { freedBytes: number; stacks: Array<{ entries: { before: number; after: number }; backups: { after: number } }> };
      assert.deepEqual(report.stacks[0].entries, { before: all.length, after: 3 });
      assert.equal(report.stacks[0].backups.after, 3);
      assert.ok(report.freedBytes > 0);
      const kept = JSON.parse(pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', backend.stack]).stdout) as Array<{ startTime: string }>;
      assert.deepEqual(kept, all.slice(0, 3), `${backend.layout} ${backend.compression}`);
      // Every history file kept has its checkpoint; the stack file and its .bak are untouched.
      const left = files(folder);
      for (const file of left.filter((f) => f.includes('.history.json'))) assert.ok(left.includes(file.replace('.history.json', '.checkpoint.json')), file);
      assert.ok(left.some((f) => /stacks\/(hist\/)?dev\.json(\.gz)?$/.test(f)) && left.some((f) => /dev\.json(\.gz)?\.bak$/.test(f)));
      const project = join(scratch, `project-${backend.layout}`);
      mkdirSync(project, { recursive: true });
      writeFileSync(join(project, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
      const refresh = pulumi(folder, ['config', 'refresh', '--stack', backend.stack, '--force'], project);
      assert.equal(refresh.status, 0, refresh.stderr);
      assert.match(readFileSync(join(project, `Pulumi.dev.yaml`), 'utf8'), /hist:region: eu-west-1/);
    }
  });

  it('refuses, removing nothing: a rule that would remove every entry, a locked stack, bad flags', () => {
    const backend = generated.backends[0];
    const folder = copyOf(backend.folder, 'prune-refusals', true);
    const before = files(folder);
    const all = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--older-than', '1s', '--break-lock']);
    assert.equal(all.status, 1);
    assert.match(all.stderr, /would remove all 9 history entries; the newest must stay.*nothing was removed/);
    const locked = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '2']);
    assert.equal(locked.status, 1);
    assert.match(locked.stderr, /locked by 1 lock\(s\)/);
    assert.deepEqual(files(folder), before);
    for (const flags of [['--keep', '0'], ['--keep', '2', '--older-than', '30d'], ['--older-than', 'yesterday'], []]) {
      const result = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, ...flags]);
      assert.equal(result.status, 2, `${flags.join(' ')}: ${result.stderr}`);
    }
    assert.equal(runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '2', '--stack', 'organization/hist/nope']).status, 1);
    assert.deepEqual(files(folder), before);
    // Go's durations and days: a far cutoff keeps everything.
    const keepAll = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--older-than', '87600h', '--break-lock', '--format', 'json']);
    assert.equal(keepAll.status, 0, keepAll.stderr);
    assert.equal((JSON.parse(keepAll.stdout) as { freedBytes: number }).freedBytes, 0);
  });
});

describe('quota-state backend prune and upgrade: usage errors', () => {
  const example = `file://${join(ROOT, 'examples', 'pulumi-backend')}`;
  const cases: Array<[string, string[], RegExp]> = [
    ['prune without a rule', ['backend', 'prune', '--backend', example], /prune needs one of --keep N or --older-than DURATION/],
    ['prune with an unknown option', ['backend', 'prune', '--backend', example, '--keep', '2', '--bogus'], /unknown option --bogus/],
    ['prune with a bad --format', ['backend', 'prune', '--backend', example, '--keep', '2', '--format', 'xml'], /--format must be text or json/],
    ['upgrade with a positional argument', ['backend', 'upgrade', example], /upgrade takes no positional arguments/],
    ['upgrade with a bad --project-for', ['backend', 'upgrade', '--backend', example, '--project-for', 'dev'], /--project-for takes STACK=PROJECT/],
  ];
  for (const [title, args, message] of cases) {
    it(`prints its own usage, not backend ls's: ${title}`, () => {
      const result = runQuotaState(args);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr, new RegExp(`^Usage:\\n  quota-state backend ${args[1]} `, 'm'), result.stderr);
      assert.doesNotMatch(result.stderr, /quota-state backend ls/, result.stderr);
      assert.equal(result.stdout, '');
    });
  }

  it('backend ls keeps its usage', () => {
    const result = runQuotaState(['backend', 'ls', example, '--keep', '2']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^Usage:\n {2}quota-state backend ls /m);
  });
});
