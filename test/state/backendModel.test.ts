/**
 * The DIY backend model (shared/backend) on an in-memory store: the layout rules of meta.go,
 * which files are stacks, which the store's own (gocloud's `.attrs` and temporaries), the newest of
 * several stack files, and history entries by file name. The real backends of real Pulumi are in
 * test/cli/backend.test.ts; these are the cases a generated history does not hold.
 */
import { strict as assert } from 'node:assert';
import { memoryStore } from '../helpers/memoryStore';
import { gzipSync } from 'node:zlib';
import { createBackendService, BackendError, StoreError } from '../../shared/backend';

const backend = createBackendService();

const entry = (seconds: number, kind = 'update') =>
  JSON.stringify({ kind, startTime: seconds, endTime: seconds + 5, message: '', environment: {}, config: {}, version: 0, result: 'succeeded', resourceChanges: { create: 1 } });

describe('the DIY backend model', () => {
  it('meta.yaml version 1 is the project layout; without meta.yaml, stacks make it legacy (meta.go)', async () => {
    const project = await backend.read(memoryStore({ '.pulumi/meta.yaml': 'version: 1\n', '.pulumi/stacks/app/dev.json': '{}' }));
    assert.equal(project.layout, 'project');
    assert.deepEqual(
      project.stacks.map((s) => s.ref),
      ['organization/app/dev'],
    );
    const legacy = await backend.read(memoryStore({ '.pulumi/stacks/dev.json': '{}', '.pulumi/stacks/prod.json.gz': gzipSync('{}') }));
    assert.equal(legacy.layout, 'legacy');
    assert.deepEqual(
      legacy.stacks.map((s) => [s.ref, s.file?.compression ?? 'plain']),
      [
        ['dev', 'plain'],
        ['prod', 'gzip'],
      ],
    );
    const versionZero = await backend.read(memoryStore({ '.pulumi/meta.yaml': 'version: 0\n', '.pulumi/stacks/dev.json': '{}' }));
    assert.equal(versionZero.layout, 'legacy');
  });

  it("ignores the store's own files and what is no stack: .attrs, temporaries, .bak, retained checkpoints", async () => {
    const read = await backend.read(
      memoryStore({
        '.pulumi/meta.yaml': 'version: 1\n',
        '.pulumi/meta.yaml.attrs': '{}',
        '.pulumi/stacks/app/dev.json': '{}',
        '.pulumi/stacks/app/dev.json.attrs': '{}',
        '.pulumi/stacks/app/dev.json.bak': '{}',
        '.pulumi/stacks/app/dev.json.1795845131706104746': '{}',
        '.pulumi/stacks/app/dev.json.3f9a2c.tmp': '{',
      }),
    );
    assert.deepEqual(read.problems, []);
    assert.equal(read.stacks.length, 1);
    assert.equal(read.stacks[0].bak, '.pulumi/stacks/app/dev.json.bak');
  });

  it('of several stack files, the most recently modified is the stack (as Pulumi picks it)', async () => {
    const read = await backend.read(
      memoryStore({
        '.pulumi/meta.yaml': 'version: 1\n',
        '.pulumi/stacks/app/dev.json': { body: '{}', modifiedMs: 10 },
        '.pulumi/stacks/app/dev.json.gz': { body: gzipSync('{}'), modifiedMs: 30 },
        '.pulumi/stacks/app/dev.json.zst': { body: '{}', modifiedMs: 20 },
      }),
    );
    assert.equal(read.stacks[0].file?.name, '.pulumi/stacks/app/dev.json.gz');
  });

  it('lists history by file name, newest first, versions counting up from the oldest, and marks what lacks its pair', async () => {
    const store = memoryStore({
      '.pulumi/meta.yaml': 'version: 1\n',
      '.pulumi/stacks/app/dev.json': '{}',
      '.pulumi/history/app/dev/dev-1700000000000000000.history.json': entry(1700000000),
      '.pulumi/history/app/dev/dev-1700000000000000000.checkpoint.json': '{}',
      '.pulumi/history/app/dev/dev-1700000060000000000.history.json.gz': gzipSync(entry(1700000060, 'refresh')),
      '.pulumi/history/app/dev/dev-1700000090000000000.checkpoint.json': '{}',
      '.pulumi/history/app/dev/dev-1700000090000000000.history.json.attrs': '{}',
    });
    const read = await backend.read(store);
    const [stack] = read.stacks;
    assert.deepEqual(stack.historyIds, ['1700000000000000000', '1700000060000000000']);
    assert.deepEqual(stack.orphanCheckpoints, ['1700000090000000000']);
    const { entries, problems } = await backend.history(store, stack);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      entries.map((e) => [e.version, e.kind, e.startTime, e.checkpoint !== undefined]),
      [
        [2, 'refresh', '2023-11-14T22:14:20.000Z', false],
        [1, 'update', '2023-11-14T22:13:20.000Z', true],
      ],
    );
    assert.deepEqual((await backend.history(store, stack, { limit: 1 })).entries.length, 1);
  });

  it('prints config as `pulumi stack history --json` does: secrets hidden, objects as Go writes them', async () => {
    const info = { kind: 'update', startTime: 1, config: { 'app:region': 'eu', 'app:key': { secure: 'v1:abc' }, 'app:tags': { b: 1, a: [true] } }, result: 'in-progress' };
    const store = memoryStore({
      '.pulumi/meta.yaml': 'version: 1\n',
      '.pulumi/stacks/app/dev.json': '{}',
      '.pulumi/history/app/dev/dev-1.history.json': JSON.stringify(info),
    });
    const [stack] = (await backend.read(store)).stacks;
    const [printed] = (await backend.history(store, stack)).entries;
    assert.deepEqual(printed.config, {
      'app:region': { value: 'eu', secret: false },
      'app:key': { secret: true },
      'app:tags': { value: '{"a":[true],"b":1}', objectValue: { b: 1, a: [true] }, secret: false },
    });
    // In progress: no end and no changes yet, as buildUpdatesJSON leaves them out.
    assert.equal(printed.endTime, undefined);
    assert.equal(printed.resourceChanges, undefined);
  });

  it('an unreadable lock is a problem naming it, and the rest is listed', async () => {
    const read = await backend.read(
      memoryStore({
        '.pulumi/meta.yaml': 'version: 0\n',
        '.pulumi/stacks/dev.json': '{}',
        '.pulumi/locks/dev/4b1c.json': '{"pid": ',
      }),
    );
    assert.equal(read.layout, 'legacy');
    assert.deepEqual(
      read.problems.map((p) => p.file),
      ['.pulumi/locks/dev/4b1c.json'],
    );
    assert.deepEqual(read.stacks[0].locks, [{ file: '.pulumi/locks/dev/4b1c.json' }]);
  });

  it('a meta.yaml Pulumi refuses is a BackendError naming it, never the legacy layout (meta.go)', async () => {
    for (const [text, reason] of [
      ['hello: world\n', /missing version/],
      ['', /missing version/],
      ['version: -1\n', /has version -1/],
      ['version: 1\nversion: 1\n', /"version" already defined/],
      ['version: [1]\n', /not an integer/],
    ] as const) {
      await assert.rejects(
        backend.read(memoryStore({ '.pulumi/meta.yaml': text, '.pulumi/stacks/dev.json': '{}' })),
        (error: Error) => error instanceof BackendError && /memory:\/\/test\/\.pulumi\/meta\.yaml|memory:\/\/test: \.pulumi\/meta\.yaml/.test(error.message) && reason.test(error.message),
        JSON.stringify(text),
      );
    }
    // Not listed, but there (a folder, a FIFO): its read fails with other than StoreMissing, and that error is named.
    const store = memoryStore(
      { '.pulumi/stacks/app/dev.json': '{}' },
      {
        before: (call, name) => {
          if (call === 'read' && name === '.pulumi/meta.yaml') throw new StoreError(`${name}: a folder, not a regular file`);
        },
      },
    );
    await assert.rejects(backend.read(store), /memory:\/\/test\/\.pulumi\/meta\.yaml cannot be read \(\.pulumi\/meta\.yaml: a folder, not a regular file\)/);
  });

  it('without meta.yaml, only a stack file right in .pulumi/stacks/ makes the layout legacy (legacyReferenceStore.ListReferences)', async () => {
    const project = await backend.read(memoryStore({ '.pulumi/stacks/app/dev.json': '{}' }));
    assert.equal(project.layout, 'project');
    assert.deepEqual(
      project.stacks.map((s) => s.ref),
      ['organization/app/dev'],
    );
    assert.equal((await backend.read(memoryStore({ '.pulumi/stacks/dev.json.bak': '{}', '.pulumi/stacks/app/dev.json': '{}' }))).layout, 'project');
    assert.equal((await backend.read(memoryStore({ '.pulumi/stacks/dev.json.zst': '{}' }))).layout, 'legacy');
    assert.equal((await backend.read(memoryStore({ '.pulumi/meta.yaml': 'version: 1.0\n', '.pulumi/stacks/app/dev.json': '{}' }))).layout, 'project');
  });
});

describe('prune --older-than: Go durations', () => {
  it('reads Go’s units, microseconds in all three spellings, and days; anything else is not a duration', () => {
    const { parseDuration } = createBackendService();
    assert.equal(parseDuration('1h30m'), 5_400_000);
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('30d'), 30 * 86_400_000);
    for (const micro of ['us', '\u00b5s', '\u03bcs']) assert.equal(parseDuration(`2000${micro}`), 2, micro);
    for (const wrong of ['', '5', 'h', '5x', '-5m', '5 m']) assert.equal(parseDuration(wrong), undefined, wrong);
  });
});
