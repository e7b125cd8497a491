/**
 * `quota-state diff`: the changes between consecutive checkpoints real Pulumi wrote (the generated
 * histories, every layout and compression) agree with the counts Pulumi recorded for each update,
 * where the two can agree; and the cases a history does not hold: copies, aliases, secrets, pending
 * operations, the forms, and bad input.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { ROOT, runQuotaState } from '../helpers/processes';

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-diff-'));
const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const U = (type: string, name: string) => `urn:pulumi:dev::shop::${type}::${name}`;
const manifest = { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' };

function stateFile(name: string, resources: unknown[], pending: unknown[] = []): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest, resources, ...(pending.length ? { pending_operations: pending } : {}) } }, null, 2));
  return file;
}

interface DiffJson {
  summary: Record<string, number>;
  resources: Array<{ kind: string; urn: string; key: string; oldUrn?: string; type: string; changes: Array<{ path: string; kind: string; old?: unknown; new?: unknown }> }>;
  pendingOperations: { added: Array<{ urn: string; type: string }>; removed: unknown[] };
}

function diffJson(a: string, b: string, extra: string[] = []): DiffJson {
  const result = runQuotaState(['diff', a, b, '--format', 'json', '--show-same', ...extra]);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as DiffJson;
}

describe('quota-state diff', function () {
  this.timeout(10 * 60 * 1000);
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('agrees with the counts real Pulumi recorded for each update, between consecutive versions, in every layout and compression', () => {
    const empty = stateFile('empty.json', []);
    for (const backend of ensureHistories().backends) {
      const url = `file://${backend.folder}`;
      const history = runQuotaState(['history', backend.stack, '--backend', url, '--format', 'json']);
      const entries = (JSON.parse(history.stdout) as { entries: Array<{ version: number; kind: string; result: string; resourceChanges: Record<string, number> }> }).entries.reverse();
      assert.ok(entries.length >= 9);
      for (const entry of entries) {
        const before = entry.version === 1 ? empty : `${backend.stack}@${entry.version - 1}`;
        const diff = diffJson(before, `${backend.stack}@${entry.version}`, ['--backend', url]);
        // Pulumi counts neither default providers nor a component's or the stack's outputs as changes.
        const counted = diff.resources.filter((r) => !r.type.startsWith('pulumi:providers:'));
        const count = (kind: string) => counted.filter((r) => r.kind === kind).length;
        const updated = counted.filter((r) => r.kind === 'changed' && r.changes.some((c) => c.path.startsWith('inputs'))).length;
        const ours: Record<string, number> = { create: count('added'), delete: count('removed'), replace: count('replaced'), update: updated };
        // A failed update counts only the steps it took; every other counts the rest as the same.
        if (entry.result === 'succeeded' && entry.kind !== 'destroy') ours.same = counted.length - ours.create - ours.delete - ours.replace - ours.update;
        const theirs = Object.fromEntries(Object.keys(ours).map((kind) => [kind, entry.resourceChanges[kind] ?? 0]));
        assert.deepEqual(ours, theirs, `${backend.layout} ${backend.compression}, version ${entry.version} (${entry.kind} ${entry.result})`);
      }
      // The script's rename through an alias is found, though Pulumi keeps no aliases in the state.
      const renamed = diffJson(`${backend.stack}@3`, `${backend.stack}@4`, ['--backend', url]).resources.find((r) => r.kind === 'renamed');
      assert.ok(renamed?.oldUrn?.endsWith('::web') && renamed.urn.endsWith('::frontend'), JSON.stringify(renamed));
      // The interrupted update left a pending create on the current state.
      const current = diffJson(`${backend.stack}@9`, backend.stack, ['--backend', url]);
      assert.deepEqual(
        current.pendingOperations.added.map((op) => [op.type, op.urn.split('::').pop()]),
        [['creating', 'hang']],
      );
    }
  });

  it('matches copies by position and renames by aliases, and never shows a secret', () => {
    const bucket = U('aws:s3/bucket:Bucket', 'assets');
    const old = U('aws:sqs/queue:Queue', 'jobs');
    const renamed = U('aws:sqs/queue:Queue', 'work');
    const secret = (text: string) => ({ [SIG]: SECRET, ciphertext: text });
    const plain = (text: string) => ({ [SIG]: SECRET, plaintext: JSON.stringify(text) });
    const a = stateFile('a.json', [
      { urn: bucket, custom: true, id: 'b1', type: 'aws:s3/bucket:Bucket', inputs: { acl: 'private', key: secret('v1:aaa') }, outputs: { token: plain('hunter2') } },
      { urn: bucket, custom: true, id: 'b0', type: 'aws:s3/bucket:Bucket', delete: true },
      { urn: old, custom: true, id: 'q1', type: 'aws:sqs/queue:Queue' },
    ]);
    const b = stateFile(
      'b.json',
      [
        { urn: bucket, custom: true, id: 'b1', type: 'aws:s3/bucket:Bucket', inputs: { acl: 'public-read', key: secret('v1:bbb') }, outputs: { token: plain('correct horse') } },
        { urn: bucket, custom: true, id: 'b9', type: 'aws:s3/bucket:Bucket', delete: true },
        { urn: renamed, custom: true, id: 'q2', type: 'aws:sqs/queue:Queue', aliases: [old] },
      ],
      [{ resource: { urn: bucket, custom: true, type: 'aws:s3/bucket:Bucket' }, type: 'updating' }],
    );
    const diff = diffJson(a, b);
    assert.deepEqual(diff.summary, { added: 0, removed: 0, renamed: 1, replaced: 1, changed: 1, same: 0 });
    const [first, second] = diff.resources.filter((r) => r.urn === bucket);
    assert.deepEqual([first.key, first.kind, second.key, second.kind], [`${bucket}#1`, 'changed', `${bucket}#2`, 'replaced']);
    assert.deepEqual(first.changes, [
      { path: 'inputs.acl', kind: 'changed', old: 'private', new: 'public-read' },
      { path: 'inputs.key', kind: 'secret changed' },
      { path: 'outputs.token', kind: 'secret changed' },
    ]);
    assert.deepEqual(diff.resources.find((r) => r.kind === 'renamed')?.oldUrn, old);
    assert.deepEqual(diff.pendingOperations.added, [{ urn: bucket, type: 'updating' }]);
    const text = runQuotaState(['diff', a, b]);
    assert.equal(text.status, 0);
    assert.equal(text.stdout.split('\n')[0], '1 renamed, 1 replaced, 1 changed, 1 pending operation changed');
    assert.match(text.stdout, /^\+- urn:pulumi:dev::shop::aws:s3\/bucket:Bucket::assets#2 \(replaced: id b0 => b9\)$/m);
    assert.match(text.stdout, /^ {4}~ inputs\.acl: "private" => "public-read"$/m);
    for (const output of [text.stdout, runQuotaState(['diff', a, b, '--format', 'json']).stdout, runQuotaState(['diff', a, b, '--format', 'markdown']).stdout]) {
      assert.doesNotMatch(output, /hunter2|correct horse|v1:aaa|v1:bbb/);
    }
    assert.match(runQuotaState(['diff', a, b, '--format', 'markdown']).stdout, /^\*\*.*a\.json → .*b\.json: 1 renamed, 1 replaced, 1 changed.*\*\*\n\n```diff\n/);
  });

  it('--exit-code exits 1 only when the states differ; a manifest alone does not', () => {
    const records = [{ urn: U('aws:s3/bucket:Bucket', 'x'), custom: true, id: 'x', type: 'aws:s3/bucket:Bucket' }];
    const a = stateFile('same-a.json', records);
    const b = join(scratch, 'same-b.json');
    writeFileSync(b, JSON.stringify({ version: 3, deployment: { manifest: { ...manifest, time: '2026-02-02T00:00:00Z' }, resources: records } }));
    const same = runQuotaState(['diff', a, b, '--exit-code']);
    assert.equal(same.status, 0, same.stdout);
    assert.match(same.stdout, /^no changes \(1 same\)/);
    const c = stateFile('same-c.json', [...records, { urn: U('aws:s3/bucket:Bucket', 'y'), custom: true, id: 'y', type: 'aws:s3/bucket:Bucket' }]);
    assert.equal(runQuotaState(['diff', a, c, '--exit-code']).status, 1);
    assert.equal(runQuotaState(['diff', a, c]).status, 0);
  });

  it('exits 2 for every error, with or without --exit-code, as diff(1): not a state, no such stack or version, a malformed version; a path wins over STACK@VERSION', () => {
    const a = stateFile('ok.json', []);
    const notState = join(scratch, 'not-state.json');
    writeFileSync(notState, JSON.stringify({ hello: 'world' }));
    const refused = runQuotaState(['diff', a, notState]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /not-state\.json is not a state/);
    const broken = join(scratch, 'broken.json');
    writeFileSync(broken, '{"version": 3, "deployment": {');
    assert.match(runQuotaState(['diff', a, broken]).stderr, /broken\.json is not valid JSON/);
    // The shipped example: the generated project-layout history, plain.
    const url = `file://${join(ROOT, 'examples', 'pulumi-backend')}`;
    for (const exitCode of [[], ['--exit-code']]) {
      const noVersion = runQuotaState(['diff', 'organization/hist/dev@1', 'organization/hist/dev@99', '--backend', url, ...exitCode]);
      assert.equal(noVersion.status, 2, `no such version ${exitCode.join(' ')}`);
      assert.match(noVersion.stderr, /no version "99" of organization\/hist\/dev .*its versions: 1–9/);
      assert.equal(noVersion.stdout, '');
      assert.equal(runQuotaState(['diff', 'organization/hist/nope@1', a, '--backend', url, ...exitCode]).status, 2, `no such stack ${exitCode.join(' ')}`);
      assert.equal(runQuotaState(['diff', 'organization/hist/dev@1', a, '--backend', `file://${join(scratch, 'nowhere')}`, ...exitCode]).status, 2, `no such backend ${exitCode.join(' ')}`);
      assert.equal(runQuotaState(['diff', 'organization/hist/dev@latest', a, '--backend', url, ...exitCode]).status, 2);
      assert.equal(runQuotaState(['diff', a, notState, ...exitCode]).status, 2, `not a state ${exitCode.join(' ')}`);
      assert.equal(runQuotaState(['diff', a, broken, ...exitCode]).status, 2, `not JSON ${exitCode.join(' ')}`);
    }
    // Two versions of the stack: 1 with --exit-code when they differ, 0 when they are one state.
    assert.equal(runQuotaState(['diff', 'organization/hist/dev@1', 'organization/hist/dev@2', '--backend', url, '--exit-code']).status, 1);
    assert.equal(runQuotaState(['diff', 'organization/hist/dev@2', 'organization/hist/dev@2', '--backend', url, '--exit-code']).status, 0);
    assert.equal(runQuotaState(['diff', 'organization/hist/dev@1', 'organization/hist/dev@2', '--backend', url]).status, 0);
    // A file named like a version is a file.
    const named = stateFile('dev@3', [{ urn: U('my:C', 'c'), custom: false, type: 'my:C' }]);
    const byPath = runQuotaState(['diff', a, 'dev@3', '--format', 'json'], { cwd: scratch });
    assert.equal(byPath.status, 0, byPath.stderr);
    assert.equal((JSON.parse(byPath.stdout) as DiffJson).summary.added, 1, named);
    assert.equal(runQuotaState(['diff', a]).status, 2);
  });
});
