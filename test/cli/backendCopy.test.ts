/**
 * `quota-state backend copy` on the histories real Pulumi wrote, judged by real Pulumi v3.274.1:
 * file→file, file→s3 and s3→file (a real MinIO server), and legacy→project: `pulumi stack history
 * --json --page-size 0` on DST lists the same entries as on SRC, `pulumi stack export` is equal,
 * `pulumi stack tag ls` lists the same tags (set by real `pulumi stack tag set`). --move leaves SRC's
 * stack in SRC's deleted area, from where `stack restore-deleted` brings it back; after a move
 * (file→file, legacy→project, file→s3) a real `pulumi up` of the generator's program on DST succeeds
 * and adds one history entry. And the copy killed at seeded random points (after N writes, by
 * itself; and by SIGKILL from outside): a rerun finishes it, DST never holds a stack file whose
 * history is missing, SRC is never touched.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories, upHistoryOnce } from '../../scripts/pulumi-histories.mjs';
import { createBucket, startMinio, type MinioServer } from '../../scripts/minio.mjs';
import { distPath, runQuotaState } from '../helpers/processes';
import { mulberry32 } from '../helpers/prng';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const scratch = join(tmpdir(), `quota-state-copy-${process.pid}`);
let generated: ReturnType<typeof ensureHistories>;
let server: MinioServer | undefined;
let awsEnv: Record<string, string> = {};
const STACK = 'organization/hist/dev';

const bucketUrl = (bucket: string) => `s3://${bucket}?endpoint=${server!.endpoint}&s3ForcePathStyle=true&region=us-east-1`;
const env = (extra: Record<string, string> = {}) => ({ ...process.env, ...awsEnv, HOME: scratch, PULUMI_BACKEND_URL: '', PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true', ...extra });
const ours = (args: string[], extra: Record<string, string> = {}) => runQuotaState(args, { cwd: scratch, env: env(extra) });

function pulumi(url: string, args: string[]): string {
  const { env: hermetic, cleanup } = hermeticEnv({
    ...process.env,
    ...awsEnv,
    PULUMI_BACKEND_URL: url,
    PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
    PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
  });
  try {
    const result = spawnSync(generated.pulumi, args, { cwd: scratch, env: hermetic, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')} on ${url}: ${result.stderr}`);
    return result.stdout;
  } finally {
    cleanup();
  }
}

function copyOf(variant: string, name: string): string {
  const folder = join(scratch, name);
  cpSync(generated.backends.find((b) => `${b.layout}-${b.compression}` === variant)!.folder, folder, { recursive: true });
  // The generator's interrupted update left its lock; a copy holds each stack's lock, so it goes first.
  rmSync(join(folder, '.pulumi', 'locks'), { recursive: true, force: true });
  return folder;
}

/** Real Pulumi's history of a stack, newest first. */
const historyOf = (url: string, stack: string) => JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', stack])) as Array<{ message?: string; result?: string }>;

/** What real Pulumi says of a stack: its history, its export, its tags. */
function judged(url: string, stack: string) {
  return {
    history: historyOf(url, stack),
    exported: pulumi(url, ['stack', 'export', '--stack', stack]),
    tags: pulumi(url, ['stack', 'tag', 'ls', '--json', '--stack', stack]),
  };
}

/**
 * Moves SRC's one stack into DST (`backend copy --move`), then runs the generator's program with a real
 * `pulumi up` on DST: it succeeds, and DST's history is SRC's with one more entry, the new update's.
 */
function moveThenUp(src: string, srcStack: string, dst: string, compression: 'plain' | 'gzip' | 'zstd'): void {
  const before = historyOf(src, srcStack);
  const moved = ours(['backend', 'copy', src, dst, '--move']);
  assert.equal(moved.status, 0, moved.stderr);
  assert.match(moved.stdout, /moved 1 stacks: .*all verified/);
  assert.deepEqual(JSON.parse(pulumi(src, ['stack', 'ls', '--json', '--all'])), [], 'the stack left SRC');
  assert.deepEqual(historyOf(dst, STACK), before);
  upHistoryOnce(dst, { env: awsEnv, compression });
  const after = historyOf(dst, STACK);
  assert.equal(after.length, before.length + 1, `one more entry than the ${before.length} before the move`);
  assert.deepEqual(after.slice(1), before);
  // The Automation API passes `--message=%q`: Pulumi keeps the quotes, as in the generator's own "step N".
  assert.equal(after[0].message, '"up after the move"');
  assert.equal(after[0].result, 'succeeded');
}

/** Every file of a folder (gocloud's sidecars aside) with its hash. */
function tree(folder: string): Map<string, string> {
  if (!existsSync(folder)) return new Map();
  return new Map(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.attrs'))
      .map((e) => [
        relative(folder, join(e.parentPath, e.name)),
        createHash('sha256')
          .update(readFileSync(join(e.parentPath, e.name)))
          .digest('hex'),
      ]),
  );
}

/** The lock files of a backend folder's stacks. */
function locksOf(folder: string): string[] {
  const locks = join(folder, '.pulumi', 'locks');
  return existsSync(locks) ? readdirSync(locks, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json')) : [];
}

/** DST holds no stack file whose history (every entry and checkpoint of SRC) is not all there, byte for byte. */
function assertHistoryWhole(src: Map<string, string>, dst: Map<string, string>, round: string): void {
  if (![...dst.keys()].some((name) => /^\.pulumi\/stacks\/hist\/dev\.json/.test(name))) return;
  for (const [name, hash] of src) if (name.startsWith('.pulumi/history/')) assert.equal(dst.get(name), hash, `${round}: DST holds the stack file without ${name}`);
}

describe('quota-state backend copy, against real Pulumi and a real MinIO', function () {
  this.timeout(20 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
    mkdirSync(scratch, { recursive: true });
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('file→file: the same history, export and tags; a rerun skips every object and says so; --dry-run writes nothing', () => {
    const src = copyOf('project-gzip', 'ff-src');
    pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-a']);
    const before = tree(src);
    const dst = join(scratch, 'ff-dst');
    const dry = ours(['backend', 'copy', `file://${src}`, `file://${dst}`, '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /organization\/hist\/dev → organization\/hist\/dev: \d+ objects, .*; new in DST/);
    assert.match(dry.stdout, /the state's salt \(secrets_providers\) travels with it: v1:/);
    assert.equal(tree(dst).size, 0, 'a dry run writes nothing');
    // With the project at hand, its Pulumi.<stack>.yaml's salt is the one to carry, and a salt other than the state's is said.
    const project = join(scratch, 'ff-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
    writeFileSync(join(project, 'Pulumi.dev.yaml'), 'encryptionsalt: v1:c2FsdHNhbHQ=:v1:AAAAAAAAAAAAAAAA:BBBB\n');
    const planned = runQuotaState(['backend', 'copy', `file://${src}`, `file://${dst}`, '--dry-run'], { cwd: project, env: env() });
    assert.equal(planned.status, 0, planned.stderr);
    assert.match(planned.stdout, /Pulumi\.dev\.yaml \(not in the backend\) has encryptionsalt v1:c2FsdHNhbHQ=:v1:AAAAAAAAAAAAAAAA:BBBB: carry this file/);
    assert.match(planned.stdout, /the state's salt and .*Pulumi\.dev\.yaml's differ/);
    const copied = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
    assert.equal(copied.status, 0, copied.stderr);
    assert.match(copied.stdout, /copied 1 stacks: \d+ objects written, 0 skipped .*all verified/);
    assert.match(copied.stderr, /\[1\/1\] copying organization\/hist\/dev/);
    assert.deepEqual(judged(`file://${dst}`, STACK), judged(`file://${src}`, STACK));
    assert.match(judged(`file://${dst}`, STACK).tags, /team-a/);
    const again = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /0 objects written, \d+ skipped \(already in DST with the same bytes\)/);
    assert.deepEqual(tree(src), before, 'SRC untouched');
  });

  it('legacy→project: each stack placed as `backend upgrade` places it; real Pulumi lists the same history', () => {
    const src = copyOf('legacy-plain', 'lp-src');
    pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', 'dev', 'owner', 'team-b']);
    const dst = join(scratch, 'lp-dst');
    const copied = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
    assert.equal(copied.status, 0, copied.stderr);
    assert.match(copied.stdout, /dev → organization\/hist\/dev/);
    assert.equal(readFileSync(join(dst, '.pulumi', 'meta.yaml'), 'utf8'), 'version: 1\n');
    const theirs = judged(`file://${src}`, 'dev');
    const mine = judged(`file://${dst}`, STACK);
    assert.deepEqual(mine.history, theirs.history);
    assert.equal(mine.exported, theirs.exported);
    assert.equal(mine.tags, theirs.tags);
  });

  it('refuses a stack DST holds with another state; --overwrite keeps the old one in DST’s deleted area; --move leaves SRC’s in SRC’s, restorable', () => {
    const src = copyOf('project-plain', 'ow-src');
    const dst = copyOf('project-zstd', 'ow-dst');
    const dstBefore = tree(dst);
    const refused = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /exists in DST with a different state: --overwrite/);
    assert.deepEqual(tree(dst), dstBefore, 'nothing written');
    const srcJudged = judged(`file://${src}`, STACK);
    const moved = ours(['backend', 'copy', `file://${src}`, `file://${dst}`, '--overwrite', '--move']);
    assert.equal(moved.status, 0, moved.stderr);
    assert.deepEqual(judged(`file://${dst}`, STACK), srcJudged);
    assert.deepEqual(JSON.parse(pulumi(`file://${src}`, ['stack', 'ls', '--json', '--all'])), []);
    const deleted = JSON.parse(ours(['backend', 'ls', '--deleted', `file://${dst}`, '--format', 'json']).stdout) as { deleted: Array<{ reason: string }> };
    assert.deepEqual(
      deleted.deleted.map((d) => d.reason),
      ['backend copy --overwrite'],
    );
    const restored = ours(['stack', 'restore-deleted', STACK, '--backend', `file://${src}`]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.deepEqual(judged(`file://${src}`, STACK), srcJudged);
  });

  it('--move file→file and legacy→project, then a real `pulumi up` of the generator on DST succeeds and adds one history entry', () => {
    moveThenUp(`file://${copyOf('project-gzip', 'up-src')}`, STACK, `file://${join(scratch, 'up-dst')}`, 'gzip');
    moveThenUp(`file://${copyOf('legacy-plain', 'up-legacy-src')}`, 'dev', `file://${join(scratch, 'up-legacy-dst')}`, 'plain');
  });

  it('killed after N writes (N seeded, 20 rounds) and by SIGKILL from outside (4 rounds): a rerun finishes it; DST never holds a stack file without its history; SRC untouched', async () => {
    const src = copyOf('project-gzip', 'kill-src');
    const before = tree(src);
    const random = mulberry32(56);
    const expected = judged(`file://${src}`, STACK);
    for (let round = 0; round < 24; round++) {
      const dst = join(scratch, `kill-dst-${round}`);
      if (round < 20) {
        // DST sees 31 writes: meta.yaml, the lock, 29 objects (the stack file last).
        const n = 1 + Math.floor(random() * 31);
        const killed = ours(['backend', 'copy', `file://${src}`, `file://${dst}`], { QUOTA_STATE_TEST_KILL_AFTER_WRITES: String(n) });
        assert.notEqual(killed.status, 0, `round ${round}: killed after ${n} writes`);
      } else await killFromOutside(src, dst, random);
      assertHistoryWhole(before, tree(dst), `round ${round}`);
      // The killed copy's locks are left behind, as a killed process leaves them: its process is gone, so the rerun takes them over.
      const left = locksOf(src).length + locksOf(dst).length;
      const rerun = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
      assert.equal(rerun.status, 0, `round ${round}: ${rerun.stderr}`);
      assert.match(rerun.stdout, /all verified/);
      assert.equal(rerun.stderr.match(/warning: taking over Pulumi's lock .*: its process is gone/g)?.length ?? 0, left, `round ${round}: each left lock named`);
      assert.deepEqual([...locksOf(src), ...locksOf(dst)], [], `round ${round}: no lock left`);
      assertHistoryWhole(before, tree(dst), `round ${round}, rerun`);
      assert.deepEqual(tree(src), before, `round ${round}: SRC untouched`);
      if (round % 6 === 0) assert.deepEqual(judged(`file://${dst}`, STACK), expected);
      rmSync(dst, { recursive: true, force: true });
    }
  });

  it('a lock of a live process, or of another machine, still refuses without --break-lock; --break-lock removes it', () => {
    const src = copyOf('project-plain', 'live-src');
    const dst = join(scratch, 'live-dst');
    const folder = join(src, '.pulumi', 'locks', 'organization', 'hist', 'dev');
    mkdirSync(folder, { recursive: true });
    const holders = [
      { name: 'live', lock: { pid: process.pid, username: 'ci', hostname: hostname(), timestamp: new Date().toISOString() }, says: /may be live/ },
      // A pid no process of this machine has, but of another machine: nothing tells it is gone.
      { name: 'remote', lock: { pid: 2 ** 22 + 17, username: 'ci', hostname: `not-${hostname()}`, timestamp: new Date().toISOString() }, says: /may be live/ },
    ];
    for (const holder of holders) {
      writeFileSync(join(folder, `${holder.name}.json`), JSON.stringify(holder.lock));
      const refused = ours(['backend', 'copy', `file://${src}`, `file://${dst}`]);
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, /the stack is currently locked by 1 lock\(s\)/);
      assert.match(refused.stderr, holder.says);
      assert.doesNotMatch(refused.stderr, /taking over/);
      assert.ok(!existsSync(join(dst, '.pulumi', 'stacks', 'hist', 'dev.json')), 'nothing copied');
      rmSync(join(folder, `${holder.name}.json`));
    }
    writeFileSync(join(folder, 'live.json'), JSON.stringify(holders[0].lock));
    const broken = ours(['backend', 'copy', `file://${src}`, `file://${dst}`, '--break-lock']);
    assert.equal(broken.status, 0, broken.stderr);
    assert.match(broken.stderr, /warning: removing Pulumi's lock .*live\.json .*\(--break-lock\)/);
  });

  describe('with a real S3 server (MinIO)', () => {
    before(async () => {
      server = await startMinio();
      awsEnv = { AWS_ACCESS_KEY_ID: server.accessKey, AWS_SECRET_ACCESS_KEY: server.secretKey, AWS_REGION: 'us-east-1' };
      await createBucket(server, 'copied');
    });

    it('file→s3 and s3→file: real Pulumi reads the same history, export and tags from the bucket and back', () => {
      const src = copyOf('project-zstd', 's3-src');
      pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-c']);
      const expected = judged(`file://${src}`, STACK);
      const up = ours(['backend', 'copy', `file://${src}`, bucketUrl('copied')]);
      assert.equal(up.status, 0, up.stderr);
      assert.match(up.stdout, /all verified/);
      assert.deepEqual(judged(bucketUrl('copied'), STACK), expected);
      const back = join(scratch, 's3-back');
      const down = ours(['backend', 'copy', bucketUrl('copied'), `file://${back}`]);
      assert.equal(down.status, 0, down.stderr);
      assert.deepEqual(judged(`file://${back}`, STACK), expected);
      const again = ours(['backend', 'copy', `file://${src}`, bucketUrl('copied')]);
      assert.match(again.stdout, /0 objects written/);
    });

    it('file→s3 --move, then a real `pulumi up` of the generator on the bucket succeeds and adds one history entry', async () => {
      await createBucket(server!, 'moved');
      moveThenUp(`file://${copyOf('project-zstd', 'up-s3-src')}`, STACK, bucketUrl('moved'), 'zstd');
    });
  });
});

/** The copy started and SIGKILLed from outside once it has begun copying a stack, after a seeded extra wait. */
async function killFromOutside(src: string, dst: string, random: () => number): Promise<void> {
  const child = spawn(process.execPath, [distPath('cli/quota-state.js'), 'backend', 'copy', `file://${src}`, `file://${dst}`], { cwd: scratch, env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  const extra = Math.floor(random() * 40);
  await new Promise<void>((resolve) => {
    let started = false;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (started || !chunk.includes('copying')) return;
      started = true;
      setTimeout(() => child.kill('SIGKILL'), extra);
    });
    child.on('close', () => resolve());
  });
}
