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
  /** Files → the layout read, and the stacks when the row names them (ref, compression). */
  const layouts: Array<[string, Record<string, string | Uint8Array>, 'project' | 'legacy', Array<[string, string]>?]> = [
    ['meta.yaml version 1 is the project layout', { '.pulumi/meta.yaml': 'version: 1\n', '.pulumi/stacks/app/dev.json': '{}' }, 'project', [['organization/app/dev', 'plain']]],
    [
      'without meta.yaml, stacks right in .pulumi/stacks/ make it legacy (meta.go)',
      { '.pulumi/stacks/dev.json': '{}', '.pulumi/stacks/prod.json.gz': gzipSync('{}') },
      'legacy',
      [
        ['dev', 'plain'],
        ['prod', 'gzip'],
      ],
    ],
    ['meta.yaml version 0 is legacy', { '.pulumi/meta.yaml': 'version: 0\n', '.pulumi/stacks/dev.json': '{}' }, 'legacy'],
    // legacyReferenceStore.ListReferences: only a stack file right in .pulumi/stacks/ makes the layout legacy.
    ['without meta.yaml, a stack in a project folder is the project layout', { '.pulumi/stacks/app/dev.json': '{}' }, 'project', [['organization/app/dev', 'plain']]],
    ['without meta.yaml, a .bak right in .pulumi/stacks/ is no stack: still the project layout', { '.pulumi/stacks/dev.json.bak': '{}', '.pulumi/stacks/app/dev.json': '{}' }, 'project'],
    ['without meta.yaml, a .zst stack right in .pulumi/stacks/ makes it legacy', { '.pulumi/stacks/dev.json.zst': '{}' }, 'legacy'],
    ['meta.yaml version 1.0 is version 1', { '.pulumi/meta.yaml': 'version: 1.0\n', '.pulumi/stacks/app/dev.json': '{}' }, 'project'],
  ];
  for (const [title, files, layout, stacks] of layouts) {
    it(`layout: ${title}`, async () => {
      const read = await backend.read(memoryStore(files));
      assert.equal(read.layout, layout);
      if (stacks)
        assert.deepEqual(
          read.stacks.map((s) => [s.ref, s.file?.compression ?? 'plain']),
          stacks,
        );
    });
  }

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

  for (const [text, reason] of [
    ['hello: world\n', /missing version/],
    ['', /missing version/],
    ['version: -1\n', /has version -1/],
    ['version: 1\nversion: 1\n', /"version" already defined/],
    ['version: [1]\n', /not an integer/],
  ] as const) {
    it(`a meta.yaml Pulumi refuses (${JSON.stringify(text)}) is a BackendError naming it, never the legacy layout (meta.go)`, async () => {
      await assert.rejects(
        backend.read(memoryStore({ '.pulumi/meta.yaml': text, '.pulumi/stacks/dev.json': '{}' })),
        (error: Error) => error instanceof BackendError && /memory:\/\/test\/\.pulumi\/meta\.yaml|memory:\/\/test: \.pulumi\/meta\.yaml/.test(error.message) && reason.test(error.message),
      );
    });
  }

  it('a meta.yaml that is not listed but there (a folder, a FIFO): its read fails with other than StoreMissing, and that error is named', async () => {
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
});

describe('prune --older-than: Go durations', () => {
  const durations: Array<[string, number | undefined]> = [
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['30d', 30 * 86_400_000],
    // Microseconds in all three spellings.
    ['2000us', 2],
    ['2000\u00b5s', 2],
    ['2000\u03bcs', 2],
    // Anything else is not a duration.
    ['', undefined],
    ['5', undefined],
    ['h', undefined],
    ['5x', undefined],
    ['-5m', undefined],
    ['5 m', undefined],
  ];
  for (const [text, ms] of durations) {
    it(`${JSON.stringify(text)}: ${ms === undefined ? 'no duration' : `${ms} ms`}`, () => assert.equal(createBackendService().parseDuration(text), ms));
  }
});
