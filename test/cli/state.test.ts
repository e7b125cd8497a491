/** `quota-state state …` as a process: writing (atomic, FILE.bak, gzip), refusals that write nothing, exit codes. */
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runQuotaState } from '../helpers/processes';

const U = (type: string, name: string) => `urn:pulumi:s::p::${type}::${name}`;
const ROOT = U('pulumi:pulumi:Stack', 'p-s');
const A = U('aws:s3:Bucket', 'a');
const B = U('aws:s3:Bucket', 'b');

function checkpoint(cyclic = false): string {
  const resources = [
    { urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' },
    { urn: A, custom: true, id: 'a1', type: 'aws:s3:Bucket', parent: ROOT, protect: true, ...(cyclic ? { dependencies: [B] } : {}) },
    { urn: B, custom: true, id: 'b1', type: 'aws:s3:Bucket', parent: ROOT, dependencies: [A] },
  ];
  return `${JSON.stringify({ version: 3, checkpoint: { stack: 'organization/p/s', latest: { manifest: {}, resources } } }, null, 4)}\n`;
}

describe('quota-state state', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-surgery-'));
    mkdirSync(join(dir, '.pulumi', 'stacks', 'p'), { recursive: true });
    file = join(dir, '.pulumi', 'stacks', 'p', 's.json');
    writeFileSync(file, checkpoint());
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const unchanged = () => {
    assert.equal(readFileSync(file, 'utf8'), checkpoint());
    assert.ok(!existsSync(`${file}.bak`), 'no backup for an edit that did not happen');
  };

  it('edits in place, keeps FILE.bak, and a second edit replaces the backup', () => {
    const first = runQuotaState(['state', 'taint', file, B]);
    assert.equal(first.status, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /1 resources tainted \(written\)/);
    assert.equal(readFileSync(`${file}.bak`, 'utf8'), checkpoint());
    const tainted = readFileSync(file, 'utf8');
    assert.equal((JSON.parse(tainted) as { version: number }).version, 4);
    const second = runQuotaState(['state', 'untaint', file, '--all']);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(readFileSync(`${file}.bak`, 'utf8'), tainted);
    assert.equal(readFileSync(file, 'utf8'), checkpoint());
  });

  it('--dry-run prints a unified diff and writes nothing; --format json reports the change', () => {
    const result = runQuotaState(['state', 'protect', file, B, '--dry-run']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^\+\s+"protect": true,$/m);
    unchanged();
    const json = runQuotaState(['state', 'rm', file, B, '--dry-run', '--format', 'json']);
    const report = JSON.parse(json.stdout) as { status: string; changes: Array<{ urn: string; action: string }>; written: boolean };
    assert.equal(report.status, 'applied');
    assert.equal(report.written, false);
    assert.deepEqual(
      report.changes.map((c) => [c.action, c.urn]),
      [['removed', B]],
    );
    unchanged();
  });

  it('reads and writes a gzip-compressed stack file compressed', () => {
    const gz = join(dir, '.pulumi', 'stacks', 'p', 's.json.gz');
    rmSync(file);
    writeFileSync(gz, gzipSync(checkpoint()));
    const result = runQuotaState(['state', 'delete', gz, B]);
    assert.equal(result.status, 0, result.stderr + result.stdout);
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    assert.deepEqual(
      (JSON.parse(text) as { checkpoint: { latest: { resources: Array<{ urn: string }> } } }).checkpoint.latest.resources.map((r) => r.urn),
      [ROOT, A],
    );
    assert.equal(gunzipSync(readFileSync(`${gz}.bak`)).toString('utf8'), checkpoint());
  });

  it('refuses, writing nothing: an unknown urn, a protected target, dependents', () => {
    const unknown = runQuotaState(['state', 'protect', file, U('aws:s3:Bucket', 'bb')]);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No such resource ".*::bb" exists in the current state\n\s*Did you mean:\n\s*urn:pulumi:s::p::aws:s3:Bucket::b/);
    const protectedTarget = runQuotaState(['state', 'remove', file, A, '--target-dependents']);
    assert.equal(protectedTarget.status, 1);
    assert.match(protectedTarget.stderr, /can't be safely deleted because it is protected/);
    const dependents = runQuotaState(['state', 'remove', file, A, '--force']);
    assert.equal(dependents.status, 1);
    assert.match(dependents.stderr, /the following resources depend on it:\n\s+\* "b" +\(urn:pulumi:s::p::aws:s3:Bucket::b\)/);
    unchanged();
  });

  it('refuses a file with a syntax error and a read-only file, writing nothing', () => {
    writeFileSync(file, '{"version": 3, "checkpoint": {');
    const syntax = runQuotaState(['state', 'repair', file]);
    assert.equal(syntax.status, 1);
    assert.match(syntax.stderr, /is not valid JSON \(line 1/);
    writeFileSync(file, checkpoint());
    chmodSync(file, 0o444);
    const readOnly = runQuotaState(['state', 'taint', file, B]);
    assert.equal(readOnly.status, 1);
    assert.match(readOnly.stderr, /is read-only/);
    chmodSync(file, 0o644);
    unchanged();
  });

  it('refuses a locked DIY stack, naming the holder; --break-lock removes the lock and edits', () => {
    const locks = join(dir, '.pulumi', 'locks', 'organization', 'p', 's');
    mkdirSync(locks, { recursive: true });
    const holder = { pid: 4242, username: 'ci', hostname: 'runner-7', timestamp: '2025-06-01T10:20:30.123456789+02:00' };
    writeFileSync(join(locks, '0b7e5c2e-lock.json'), JSON.stringify(holder));
    writeFileSync(join(locks, '0b7e5c2e-lock.json.attrs'), '{}');
    const locked = runQuotaState(['state', 'taint', file, B]);
    assert.equal(locked.status, 1);
    assert.match(locked.stderr, /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./);
    assert.match(locked.stderr, /0b7e5c2e-lock\.json: created by ci@runner-7 \(pid 4242\) at 2025-06-01T10:20:30\+02:00/);
    unchanged();
    const forced = runQuotaState(['state', 'taint', file, B, '--force']);
    assert.equal(forced.status, 2, 'only remove takes --force, which is about protect');
    assert.match(forced.stderr, /taint takes no --force/);
    unchanged();
    const broken = runQuotaState(['state', 'taint', file, B, '--break-lock']);
    assert.equal(broken.status, 0, broken.stdout);
    assert.match(broken.stdout, /warning: removing Pulumi's lock .*0b7e5c2e-lock\.json \(created by ci@runner-7 \(pid 4242\)/);
    assert.match(broken.stdout, /1 resources tainted \(written\)/);
    assert.deepEqual(readdirSync(locks), [], 'the lock and its sidecar removed, and ours released');
    assert.ok(!existsSync(`${file}.lock`), 'the file lock released');
  });

  it('refuses a repair of a cycle and a move into a file holding the same urn', () => {
    const cyclic = checkpoint(true);
    writeFileSync(file, cyclic);
    const repair = runQuotaState(['state', 'repair', file]);
    assert.equal(repair.status, 1, repair.stderr);
    assert.match(repair.stderr, /snapshot has cyclic dependencies[\s\S]*Dependency cycle/);
    assert.equal(readFileSync(file, 'utf8'), cyclic);
    writeFileSync(file, checkpoint());
    const dest = join(dir, 'dest.json');
    const destText = JSON.stringify({ version: 3, checkpoint: { stack: 'organization/p/s', latest: { manifest: {}, resources: [{ urn: B, custom: true, id: 'x', type: 'aws:s3:Bucket' }] } } });
    writeFileSync(dest, destText);
    const move = runQuotaState(['state', 'move', file, B, '--dest', dest]);
    assert.equal(move.status, 1, move.stderr);
    assert.match(move.stderr, /already exists in destination stack/);
    assert.equal(readFileSync(dest, 'utf8'), destText);
    unchanged();
  });

  it('exits 2 on usage errors and unreadable files', () => {
    assert.equal(runQuotaState(['state', 'rename', file, B]).status, 2);
    assert.equal(runQuotaState(['state', 'taint', file, '--all']).status, 2);
    assert.equal(runQuotaState(['state', 'move', file, B]).status, 2);
    assert.equal(runQuotaState(['state', 'frobnicate', file]).status, 2);
    assert.equal(runQuotaState(['state', 'repair', join(dir, 'missing.json')]).status, 2);
    unchanged();
  });
});
