/**
 * The backend commands' leftovers and words (issues 52 and 53): a backend folder that is missing or
 * a file is said so; temporaries of a killed write are cleaned once their writer is gone; "its
 * versions" lists the versions present; a stack file that is a folder is named by its path. On
 * copies of the shipped example backend.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runQuotaState } from '../helpers/processes';

describe('quota-state backend commands: leftovers and words', function () {
  this.timeout(120_000);
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-leftovers-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  let copies = 0;
  /** A copy of the example backend (project layout, organization/hist/dev with 9 entries). */
  function backend(): string {
    const folder = join(scratch, `b${copies++}`);
    cpSync(join(ROOT, 'examples', 'pulumi-backend'), folder, { recursive: true });
    return folder;
  }

  it('backend ls: a folder that is missing or a file is said so (exit 1), not "has no .pulumi folder"', () => {
    const missing = join(scratch, 'no-such-backend');
    const gone = runQuotaState(['backend', 'ls', `file://${missing}`]);
    assert.equal(gone.status, 1, gone.stderr);
    assert.equal(gone.stderr.trim(), `quota-state: ${missing} is missing.`);
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a backend\n');
    const isFile = runQuotaState(['backend', 'ls', `file://${file}`]);
    assert.equal(isFile.status, 1, isFile.stderr);
    assert.equal(isFile.stderr.trim(), `quota-state: ${file} is a file, not a folder holding a Pulumi DIY backend.`);
    const history = runQuotaState(['history', 'organization/hist/dev', '--backend', `file://${missing}`]);
    assert.equal(history.status, 1);
    assert.match(history.stderr, /is missing\./);
    // An empty folder still has no .pulumi folder.
    const empty = mkdtempSync(join(scratch, 'empty-'));
    assert.match(runQuotaState(['backend', 'ls', `file://${empty}`]).stderr, /has no \.pulumi folder/);
    assert.equal(runQuotaState(['backend', 'ls', `file://${backend()}`]).status, 0);
  });

  it('"its versions" lists the versions present: an unreadable entry leaves a gap (1, 2, 4–9)', () => {
    const folder = backend();
    const history = join(folder, '.pulumi', 'history', 'hist', 'dev');
    const third = readdirSync(history)
      .filter((name) => name.endsWith('.history.json'))
      .sort()[2];
    writeFileSync(join(history, third), 'not json');
    const result = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--dry-run', '--backend', `file://${folder}`]);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /no version "3" of organization\/hist\/dev in .* \(its versions: 1, 2, 4–9, or an id such as \d+\)/);
  });

  it('a stack file that is a folder is named by its path, in backend ls and in the commands that read it', () => {
    const folder = backend();
    const stackFile = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
    rmSync(stackFile);
    mkdirSync(stackFile);
    const warning = `warning: ${stackFile} is a folder, not a stack file`;
    const listed = runQuotaState(['backend', 'ls', `file://${folder}`]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.ok(listed.stderr.includes(warning), listed.stderr);
    const restore = runQuotaState(['restore', 'organization/hist/dev', '--to', '3', '--backend', `file://${folder}`]);
    assert.equal(restore.status, 1);
    assert.ok(restore.stderr.includes(warning), restore.stderr);
    const protect = runQuotaState(['state', 'protect', '--backend', `file://${folder}`, 'organization/hist/dev', 'urn:pulumi:dev::hist::pulumi:pulumi:Stack::hist-dev']);
    assert.notEqual(protect.status, 0);
    assert.ok(protect.stderr.includes(warning), protect.stderr);
  });

  it("an s3:// command prints no AWS SDK Node-version warning, even with the SDK's variable set empty", function () {
    if (Number(process.versions.node.split('.')[0]) >= 22) this.skip(); // the SDK warns below Node 22 only
    const bucket = 's3://b?endpoint=http://127.0.0.1:1&s3ForcePathStyle=true&region=us-east-1';
    const env = { ...process.env, AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y', QUOTA_STATE_S3_TIMEOUT_SECONDS: '5' };
    for (const value of [undefined, '']) {
      const result = runQuotaState(['backend', 'ls', bucket], { env: { ...env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: value } });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /ECONNREFUSED/);
      assert.doesNotMatch(result.stderr, /NodeVersionSupportWarning|AWS SDK/, `variable ${JSON.stringify(value)}`);
    }
  });

  it("the next write to a stack removes a killed write's temporaries once their writer is gone (pid not running here, or older than 1h)", () => {
    const folder = backend();
    const stacks = join(folder, '.pulumi', 'stacks', 'hist');
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!;
    const gone = join(stacks, `.dev.json.${exited}.quota-state.tmp`);
    const old = join(stacks, `.dev.json.${process.pid}.quota-state.bak.tmp`);
    const running = join(stacks, `.dev.json.${process.pid}.quota-state.tmp`);
    const otherFile = join(stacks, `.other.json.${exited}.quota-state.tmp`);
    // The folder store's own temporaries name no pid: they go by their age alone.
    const storeOld = join(stacks, 'dev.json.0b8f1e0e-6f43-4f5e-9a53-1d7c5e0c2a11.quota-state.tmp');
    const storeYoung = join(stacks, 'dev.json.1c9f2e1f-7a54-4a6f-8b64-2e8d6f1d3b22.quota-state.tmp');
    for (const file of [gone, old, running, otherFile, storeOld, storeYoung]) writeFileSync(file, '{"half": ');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    utimesSync(storeOld, twoHoursAgo, twoHoursAgo);
    const result = runQuotaState(['state', 'protect', '--backend', `file://${folder}`, 'organization/hist/dev', 'urn:pulumi:dev::hist::pulumi:pulumi:Stack::hist-dev']);
    assert.equal(result.status, 0, result.stderr + result.stdout);
    assert.ok(!existsSync(gone), 'its writer is no longer running');
    assert.ok(!existsSync(old), 'older than the stale age');
    assert.ok(existsSync(running), 'a young temporary of a running writer stays');
    assert.ok(existsSync(otherFile), "another file's temporaries are that file's next write's");
    assert.ok(!existsSync(storeOld), "the store's temporary older than the stale age");
    assert.ok(existsSync(storeYoung), 'a young temporary of the store: maybe a write under way');
  });

  it("backend prune removes a killed write's temporaries whose writer is gone; --dry-run and a running writer's stay", () => {
    const folder = backend();
    const stacks = join(folder, '.pulumi', 'stacks', 'hist');
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!;
    const gone = join(stacks, `.dev.json.${exited}.quota-state.tmp`);
    const running = join(stacks, `.dev.json.${process.pid}.quota-state.tmp`);
    for (const file of [gone, running]) writeFileSync(file, '{"half": ');
    const dry = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '5', '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.ok(existsSync(gone), '--dry-run removes nothing');
    const pruned = runQuotaState(['backend', 'prune', '--backend', `file://${folder}`, '--keep', '5']);
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.ok(pruned.stderr.includes(`removed ${gone}: left by an interrupted write`), pruned.stderr);
    assert.ok(!existsSync(gone));
    assert.ok(existsSync(running));
  });
});
