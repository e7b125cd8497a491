/**
 * The backend model's writes (shared/backend: stackLock.ts, restore.ts, prune.ts) on an
 * in-memory writable store, for what real runs rarely show: two writers taking Pulumi's lock at
 * once, a write refused because the stack file changed after it was read, and a prune cancelled
 * between a history file and its checkpoint. The same code on disk and against real Pulumi is in
 * test/cli/{restore,backendMaintenance}.test.ts; in VS Code, test/extension/backendsScenario.ts.
 */
import { strict as assert } from 'node:assert';
import { createStateService } from '../../shared/state';
import { createBackendService, objectUrl, StackLockedError, StoreConflict, StoreError } from '../../shared/backend';
import { readStackState } from '../../cli/backendAccess';
import type { CliIO } from '../../cli/io';
import { memoryStore, type MemoryStore } from '../helpers/memoryStore';

const backend = createBackendService();
const { parse } = createStateService();
const encoder = new TextEncoder();
const identity = { pid: 4242, username: 'tester', hostname: 'here' };

/** The tests' one memory store (test/helpers/memoryStore.ts), at a bucket-like URL; `beforeList` runs before each listing (to interleave writers). */
function bucketStore(files: Record<string, string>, hooks: { beforeList?: () => Promise<void>; url?: string } = {}): MemoryStore {
  return memoryStore(files, { url: hooks.url ?? 'memory://bucket', before: async (call) => (call === 'listPage' ? hooks.beforeList?.() : undefined) });
}

const urn = (name: string) => `urn:pulumi:dev::app::pkg:index:Thing::${name}`;
const checkpoint = (...names: string[]) =>
  JSON.stringify({
    version: 3,
    checkpoint: {
      stack: 'organization/app/dev',
      latest: {
        manifest: { time: '2026-01-01T00:00:00Z', magic: '294a449188e3da4517a05ae33e5c1307bbafa419a82735db7986e01d5ec6b1c0', version: 'v3.274.1' },
        resources: names.map((n) => ({ urn: urn(n), custom: false, type: 'pkg:index:Thing' })),
      },
    },
  });
const DEV = '.pulumi/stacks/app/dev.json';
const stack = {
  ref: 'organization/app/dev',
  project: 'app',
  name: 'dev',
  file: { name: '.pulumi/stacks/app/dev.json', size: 0, modifiedMs: 0 },
  historyIds: [],
  orphanCheckpoints: [],
  backups: [],
  locks: [],
};
const compress = async (bytes: Uint8Array) => bytes;
type RestoreOptions = Parameters<typeof backend.applyRestore>[3];

describe("the DIY backend model: writes under Pulumi's lock", () => {
  it('of two writers taking the lock at once, one is refused, naming the other; the winner leaves no lock behind', async () => {
    let releaseBoth: () => void = () => undefined;
    const bothListed = new Promise<void>((resolve) => (releaseBoth = resolve));
    let listings = 0;
    // Both first listings return before either lock file exists: each then writes its own and lists again.
    const store = bucketStore({ '.pulumi/meta.yaml': 'version: 1\n' }, { beforeList: async () => (++listings === 2 ? releaseBoth() : listings < 2 ? bothListed : undefined) });
    const outcomes = await Promise.allSettled([1, 2].map((n) => backend.withStackLock(store, stack, { ...identity, pid: n }, {}, async () => n)));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    assert.ok(refused.length >= 1, 'at least one writer sees the other');
    for (const outcome of refused) {
      assert.ok((outcome as PromiseRejectedResult).reason instanceof StackLockedError);
      assert.match(String((outcome as PromiseRejectedResult).reason.message), /locked by 1 lock\(s\)[\s\S]*created by tester@here \(pid [12]\)/);
    }
    assert.deepEqual(
      [...store.files.keys()].filter((name) => name.startsWith('.pulumi/locks/')),
      [],
      'every lock removed',
    );
  });

  /** A restore of `checkpoint('a')` over `a, b`, and another writer putting `a, b, c` at one of the moments a restore cannot see. */
  const interleavings: Array<[string, { during(store: MemoryStore): Partial<RestoreOptions>; message: RegExp; bak?: string }]> = [
    [
      'between the read and the write: refused before any .bak is written',
      {
        // The restore's own hook, called once the edit has read the state.
        during: (store) => ({ beforeWrite: async () => void (await store.write(DEV, encoder.encode(checkpoint('a', 'b', 'c')))) }),
        message: /^\.pulumi\/stacks\/app\/dev\.json changed since it was read \(another writer\); nothing was written$/,
      },
    ],
    [
      'between the .bak and the write: refused, and the message says what the .bak holds',
      {
        during: (store) => {
          const write = store.write.bind(store);
          let once = true;
          store.write = async (name, bytes, options) => {
            await write(name, bytes, options);
            if (!name.endsWith('.bak') || !once) return;
            once = false;
            await write(DEV, encoder.encode(checkpoint('a', 'b', 'c')));
          };
          return {};
        },
        message:
          /^\.pulumi\/stacks\/app\/dev\.json changed since it was read \(another writer\); it was not written, and \.pulumi\/stacks\/app\/dev\.json\.bak now holds the state read before the change$/,
        bak: checkpoint('a', 'b'),
      },
    ],
  ];
  for (const [when, row] of interleavings) {
    it(`restore, another writer ${when}; the other's state kept, and a later restore keeps it as the .bak`, async () => {
      const store = bucketStore({ '.pulumi/meta.yaml': 'version: 1\n', [DEV]: checkpoint('a', 'b') });
      const plan = backend.planRestore(parse(checkpoint('a')), stack, 'version 1');
      assert.deepEqual(plan.problems, []);
      await assert.rejects(backend.applyRestore(store, stack, plan, { identity, compress, ...row.during(store) }), (error: Error) => error instanceof StoreConflict && row.message.test(error.message));
      assert.equal(store.text(DEV), checkpoint('a', 'b', 'c'), "the other writer's state is kept");
      assert.equal(store.text(`${DEV}.bak`), row.bak, row.bak ? 'the .bak holds the state read' : 'a write refused before the .bak writes none');
      const written = await backend.applyRestore(store, stack, plan, { identity, compress });
      assert.equal(written.backup, `${DEV}.bak`);
      assert.equal(store.text(written.backup), checkpoint('a', 'b', 'c'));
      assert.deepEqual(
        (JSON.parse(store.text(DEV)!) as { checkpoint: { latest: { resources: Array<{ urn: string }> } } }).checkpoint.latest.resources.map((r) => r.urn),
        [urn('a')],
      );
      assert.deepEqual(
        [...store.files.keys()].filter((name) => name.startsWith('.pulumi/locks/')),
        [],
      );
    });
  }

  it('restore: a lock held by another process refuses, naming it, and nothing is written; --break-lock removes it and says so', async () => {
    const lock = '.pulumi/locks/organization/app/dev/0f0e.json';
    const store = bucketStore({
      '.pulumi/stacks/app/dev.json': checkpoint('a', 'b'),
      [lock]: JSON.stringify({ pid: 77, username: 'ci', hostname: 'runner', timestamp: '2026-11-01T10:00:00.123456Z' }),
    });
    const plan = backend.planRestore(parse(checkpoint('a')), stack, 'version 1');
    await assert.rejects(
      backend.applyRestore(store, stack, plan, { identity, compress }),
      /locked by 1 lock\(s\)[\s\S]*memory:\/\/bucket\/\.pulumi\/locks\/organization\/app\/dev\/0f0e\.json: created by ci@runner \(pid 77\) at 2026-11-01T10:00:00Z/,
    );
    assert.equal(store.files.has('.pulumi/stacks/app/dev.json.bak'), false);
    const warned: string[] = [];
    await backend.applyRestore(store, stack, plan, { identity, compress, breakLock: true, warn: (m) => warned.push(m) });
    assert.match(warned.join('\n'), /removing Pulumi's lock .*0f0e\.json \(created by ci@runner/);
    assert.equal(store.files.has(lock), false);
  });

  it('a lock that cannot be removed afterwards (the connection gone) is named, with the way to clear it', async () => {
    const store = bucketStore({ '.pulumi/stacks/app/dev.json': checkpoint('a') });
    const remove = store.delete.bind(store);
    store.delete = async (name) => {
      if (name.startsWith('.pulumi/locks/')) throw new StoreError(`${name}: connection reset`);
      return remove(name);
    };
    const warned: string[] = [];
    assert.equal(await backend.withStackLock(store, stack, identity, { warn: (m) => warned.push(m) }, async () => 'done'), 'done');
    assert.match(
      warned.join('\n'),
      /our lock \.pulumi\/locks\/organization\/app\/dev\/[0-9a-f-]+\.json could not be removed \(.*connection reset\); it is left behind: `pulumi cancel` or --break-lock removes it/,
    );
  });

  it('restore: a document of another stack is a problem Pulumi would refuse without --force', () => {
    const plan = backend.planRestore(parse(checkpoint('a').replaceAll('urn:pulumi:dev::', 'urn:pulumi:prod::')), stack, 'their export');
    assert.match(plan.problems.join('\n'), /is from a different stack \(prod != dev\)/);
  });

  it('prune: a cancel stops between entries, never between a history file and its checkpoint', async () => {
    const files: Record<string, string> = {};
    for (const id of ['1000', '2000', '3000', '4000']) {
      files[`.pulumi/history/app/dev/dev-${id}.history.json`] = '{}';
      files[`.pulumi/history/app/dev/dev-${id}.checkpoint.json`] = checkpoint('a');
    }
    const store = bucketStore(files);
    const plan = await backend.planPrune(store, stack, { keep: 1 });
    assert.equal(plan.remove.length, 6);
    let asked = 0;
    // Cancelled at the second question: after the first entry's history file and checkpoint.
    const result = await backend.applyPrune(store, stack, plan, { identity, cancelled: () => ++asked >= 2 });
    assert.deepEqual(result, { removed: 2, cancelled: true });
    const left = [...store.files.keys()].filter((name) => name.includes('/history/'));
    for (const name of left.filter((n) => n.endsWith('.history.json'))) assert.ok(left.includes(name.replace('.history.json', '.checkpoint.json')), `${name} keeps its checkpoint`);
    assert.equal(left.length, 6);
    assert.deepEqual(
      [...store.files.keys()].filter((name) => name.startsWith('.pulumi/locks/')),
      [],
    );
  });
});

// How objectUrl joins a name to a backend URL, case by case: shared/backend/store.test.ts.
describe('object paths in messages', () => {
  const bucket = 's3://bucket/prefix?region=eu-west-1&endpoint=http://127.0.0.1:9000';
  const named = 's3://bucket/prefix/.pulumi/stacks/app/dev.json?region=eu-west-1&endpoint=http://127.0.0.1:9000';

  it("a lock's holder is named by its object's URL, the bucket's query after the name", async () => {
    const lock = '.pulumi/locks/organization/app/dev/0f0e.json';
    const store = bucketStore(
      { '.pulumi/stacks/app/dev.json': checkpoint('a'), [lock]: JSON.stringify({ pid: 77, username: 'ci', hostname: 'runner', timestamp: '2026-11-01T10:00:00Z' }) },
      { url: bucket },
    );
    await assert.rejects(backend.refuseIfLocked(store, stack), (error: Error) => {
      assert.ok(error.message.includes(`  ${objectUrl(bucket, lock)}: created by ci@runner`), error.message);
      assert.ok(error.message.includes('s3://bucket/prefix/.pulumi/locks/organization/app/dev/0f0e.json?region=eu-west-1&'), error.message);
      return true;
    });
  });

  it("the CLI names a stack's state by its object's URL", async () => {
    const store = bucketStore({ '.pulumi/meta.yaml': 'version: 1\n', '.pulumi/stacks/app/dev.json': checkpoint('a') }, { url: bucket });
    const read = await backend.read(store, { maxInflatedBytes: 1 << 20 });
    const said: string[] = [];
    const io = { stderr: (text: string) => said.push(text), stdout: (text: string) => said.push(text) } as unknown as CliIO;
    const state = await readStackState({ backend: read, store, maxInflatedBytes: 1 << 20 }, read.stacks[0], io);
    assert.equal(typeof state === 'number' ? said.join('\n') : state.display, named);
  });
});
