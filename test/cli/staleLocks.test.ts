/**
 * The one stale-lock rule in every CLI command that meets a Pulumi lock (`restore`, `backend prune`,
 * `backend upgrade`, `state … --backend`): each takes `--stale-after DURATION`, and its refusal says
 * of each lock whether it is stale (its process on this machine is gone, or it is older than the
 * limit) or may be live, naming holder and age. On copies of the shipped example backend.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runQuotaState } from '../helpers/processes';

const HOUR = 3_600_000;
const STACK_URN = 'urn:pulumi:dev::hist::pulumi:pulumi:Stack::hist-dev';

describe('quota-state: the stale-lock rule in every refusal', function () {
  this.timeout(120_000);
  let scratch: string;
  let exited: number;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-stale-locks-'));
    exited = spawnSync(process.execPath, ['-e', '0']).pid!;
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  let copies = 0;
  /** A copy of the example backend (project layout, organization/hist/dev with 9 entries). */
  function backend(): string {
    const folder = join(scratch, `b${copies++}`);
    cpSync(join(ROOT, 'examples', 'pulumi-backend'), folder, { recursive: true });
    return folder;
  }

  /** The example's stack in the legacy layout: .pulumi/stacks/dev.json, no meta.yaml. */
  function legacyBackend(): string {
    const folder = join(scratch, `legacy${copies++}`);
    mkdirSync(join(folder, '.pulumi', 'stacks'), { recursive: true });
    cpSync(join(ROOT, 'examples', 'pulumi-backend', '.pulumi', 'stacks', 'hist', 'dev.json'), join(folder, '.pulumi', 'stacks', 'dev.json'));
    return folder;
  }

  function lock(folder: string, lockFolder: string[], holder: { pid: number; hostname: string; msAgo: number }): string {
    const locks = join(folder, '.pulumi', 'locks', ...lockFolder);
    mkdirSync(locks, { recursive: true });
    const file = join(locks, '3f0c-lock.json');
    writeFileSync(file, JSON.stringify({ pid: holder.pid, username: 'ci', hostname: holder.hostname, timestamp: new Date(Date.now() - holder.msAgo).toISOString() }));
    return file;
  }

  const url = (folder: string) => `file://${folder}`;

  it('restore: "stale: pid N is not running on this machine", "stale: taken 3 h ago", "may be live" under --stale-after', () => {
    const folder = backend();
    const stackFile = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
    const before = readFileSync(stackFile, 'utf8');
    lock(folder, ['organization', 'hist', 'dev'], { pid: exited, hostname: hostname(), msAgo: 60_000 });
    const gone = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', url(folder)]);
    assert.equal(gone.status, 1, gone.stderr);
    assert.match(gone.stderr, new RegExp(`3f0c-lock\\.json: created by ci@\\S+ \\(pid ${exited}\\) at \\S+; stale: pid ${exited} is not running on this machine`));

    lock(folder, ['organization', 'hist', 'dev'], { pid: process.pid, hostname: hostname(), msAgo: 3 * HOUR });
    const old = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', url(folder)]);
    assert.equal(old.status, 1, old.stderr);
    assert.match(old.stderr, /; stale: taken 3 h ago \(older than 1 h\)/);
    const young = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', url(folder), '--stale-after', '5h']);
    assert.equal(young.status, 1, young.stderr);
    assert.match(young.stderr, new RegExp(`created by ci@\\S+ \\(pid ${process.pid}\\) at \\S+; may be live: taken 3 h ago \\(stale after 5 h\\)`));
    assert.match(young.stderr, /--break-lock removes the lock/);
    assert.equal(readFileSync(stackFile, 'utf8'), before, 'nothing was written');

    const bad = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', url(folder), '--stale-after', 'soon']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--stale-after must be a duration such as 30m, 1h or 2d, not "soon"/);
    const broken = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', url(folder), '--break-lock']);
    assert.equal(broken.status, 0, broken.stderr);
  });

  it('backend prune: a young lock of another machine may be live; --stale-after 5m makes it stale', () => {
    const folder = backend();
    lock(folder, ['organization', 'hist', 'dev'], { pid: 1, hostname: 'another-machine', msAgo: 10 * 60_000 });
    const live = runQuotaState(['backend', 'prune', '--backend', url(folder), '--keep', '2']);
    assert.equal(live.status, 1, live.stderr);
    assert.match(live.stderr, /created by ci@another-machine \(pid 1\) at \S+; may be live: taken 10 min ago \(stale after 1 h\)/);
    const stale = runQuotaState(['backend', 'prune', '--backend', url(folder), '--keep', '2', '--stale-after', '5m', '--dry-run']);
    assert.equal(stale.status, 1, stale.stderr);
    assert.match(stale.stderr, /; stale: taken 10 min ago \(older than 5 min\)/);
    assert.equal(runQuotaState(['backend', 'prune', '--backend', url(folder), '--keep', '2', '--stale-after', '0']).status, 2);
  });

  it('state … --backend: the refusal, on stderr, says whether the lock is stale', () => {
    const folder = backend();
    lock(folder, ['organization', 'hist', 'dev'], { pid: exited, hostname: hostname(), msAgo: 60_000 });
    const refused = runQuotaState(['state', 'protect', '--backend', url(folder), 'organization/hist/dev', STACK_URN]);
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, new RegExp(`stale: pid ${exited} is not running on this machine`));
    assert.equal(refused.stdout, '', 'a refusal is an error: stderr');
    const young = runQuotaState(['state', 'protect', '--backend', url(folder), 'organization/hist/dev', STACK_URN, '--stale-after', '2d']);
    assert.match(young.stderr, new RegExp(`stale: pid ${exited} is not running`), 'a process gone here is stale whatever the limit');
    const json = runQuotaState(['state', 'protect', '--backend', url(folder), 'organization/hist/dev', STACK_URN, '--format', 'json']);
    assert.equal(json.status, 1);
    assert.match((JSON.parse(json.stdout) as { errors: string[] }).errors[0], /stale: pid/);
  });

  it('backend upgrade: the refusal says whether the lock is stale, and --break-lock (which it suggests) is accepted', () => {
    const folder = legacyBackend();
    const lockFile = lock(folder, ['dev'], { pid: exited, hostname: hostname(), msAgo: 60_000 });
    const refused = runQuotaState(['backend', 'upgrade', '--backend', url(folder)]);
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, new RegExp(`stale: pid ${exited} is not running on this machine`));
    assert.match(refused.stderr, /--break-lock removes the lock[\s\S]*nothing was upgraded/);
    assert.ok(!existsSync(join(folder, '.pulumi', 'meta.yaml')));
    const dry = runQuotaState(['backend', 'upgrade', '--backend', url(folder), '--break-lock', '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stderr, /--dry-run: no lock is removed or taken/);
    assert.ok(existsSync(lockFile));
    const upgraded = runQuotaState(['backend', 'upgrade', '--backend', url(folder), '--break-lock']);
    assert.equal(upgraded.status, 0, upgraded.stderr);
    assert.match(upgraded.stderr, /removing Pulumi's lock .*3f0c-lock\.json/);
    assert.ok(existsSync(join(folder, '.pulumi', 'stacks', 'hist', 'dev.json')));
    assert.ok(!existsSync(lockFile));
  });
});
