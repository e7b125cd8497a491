/**
 * The one stack writer (stackWrite.ts) against the tests' memory store (test/helpers/memoryStore.ts),
 * where calls can fail, and two writers can interleave in any order (test/helpers/callScheduler.ts):
 * no acknowledged write is ever lost, a refused writer leaves nothing of its own, and no lock is left
 * behind. The same writer under real Pulumi is in test/cli/restore.test.ts.
 */
import { strict as assert } from 'node:assert';
import { CallScheduler, everySchedule, pauseAfter, randomPick, type Pick, type StoreStep } from '../../test/helpers/callScheduler';
import { memoryStore, type MemoryStore, type StoreCall } from '../../test/helpers/memoryStore';
import { mulberry32 } from '../../test/helpers/prng';
import { refuseIfStackLocked, StackLockedError } from './stackLock';
import { withStackWrite, withStackWrites, type StackWriteOutcome } from './stackWrite';
import { StoreBusy, StoreConflict, StoreError, StoreMissing, type StoredObject } from './store';

const DEV = '.pulumi/stacks/app/dev.json';
const PROD = '.pulumi/stacks/app/prod.json';
const PLAIN = 'state.json';
const LOCKS = '.pulumi/locks/';
const DEV_LOCKS = '.pulumi/locks/organization/app/dev/';
const identity = { pid: 4242, username: 'tester', hostname: 'here' };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Checkpoint = { version: number; checkpoint: { latest: { resources: Array<{ urn: string; type: string }> } } };
const urn = (name: string) => `urn:pulumi:dev::app::pkg:index:Thing::${name}`;
const checkpoint = (...names: string[]) => JSON.stringify({ version: 3, checkpoint: { latest: { resources: names.map((name) => ({ urn: urn(name), type: 'pkg:index:Thing' })) } } });
/** The resources' names of a checkpoint's text; undefined for no object. */
const resourcesOf = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as Checkpoint).checkpoint.latest.resources.map((r) => r.urn.split('::').pop()!));
const decoded = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : decoder.decode(bytes));

/** An edit appending the resource `name` to the checkpoint read (creating one when there is none). */
const appending =
  (name: string) =>
  (current: StoredObject | undefined): { bytes: Uint8Array; value: string } => {
    const document = current ? (JSON.parse(decoder.decode(current.bytes)) as Checkpoint) : (JSON.parse(checkpoint()) as Checkpoint);
    document.checkpoint.latest.resources.push({ urn: urn(name), type: 'pkg:index:Thing' });
    return { bytes: encoder.encode(JSON.stringify(document)), value: name };
  };

const locksLeft = (store: MemoryStore) => [...store.files.keys()].filter((name) => name.startsWith(LOCKS));

/** The writers whose promise resolved, by name. */
function acknowledgedOf(results: Record<string, PromiseSettledResult<unknown>>): string[] {
  return Object.keys(results).filter((actor) => results[actor].status === 'fulfilled');
}

/** The object holds what it held, then every acknowledged writer's resource (in the order they landed) and nothing else. */
function assertHoldsAll(final: string[] | undefined, initial: string[], acknowledged: string[], why: string): void {
  assert.ok(final, `the object is there ${why}`);
  assert.deepEqual(final.slice(0, initial.length), initial, `what it held is kept ${why}`);
  assert.deepEqual(final.slice(initial.length).sort(), [...acknowledged].sort(), `every acknowledged write, and only those ${why}`);
}

interface InterleavingCase {
  object: string;
  /** The resources the object holds at first; undefined: absent (the writers create it). */
  initial?: string[];
  /** Whether Pulumi's lock guards the object (a stack of a backend). */
  locked: boolean;
}

/**
 * What must hold after any interleaving of the writers `a` and `b`: every acknowledged writer's
 * resource is in the object, a refused one's is not and it got a lock refusal or a conflict, the `.bak`
 * holds what the last acknowledged write replaced, and no lock is left. Under Pulumi's lock a refused
 * writer wrote nothing but its lock, and the two never touch the object at once.
 */
function assertNothingLost(row: InterleavingCase, store: MemoryStore, results: Record<string, PromiseSettledResult<StackWriteOutcome<string>>>, steps: StoreStep[], trace: string): string {
  const final = resourcesOf(store.text(row.object)) ?? [];
  const acknowledged = acknowledgedOf(results);
  assertHoldsAll(final, row.initial ?? [], acknowledged, trace);
  for (const [actor, result] of Object.entries(results)) {
    if (result.status === 'fulfilled') {
      assert.deepEqual({ written: result.value.written, value: result.value.value }, { written: true, value: actor }, trace);
      continue;
    }
    assert.ok(result.reason instanceof StackLockedError || result.reason instanceof StoreConflict, `${actor} refused with ${String(result.reason)} ${trace}`);
    const itsWrites = steps.filter((step) => step.actor === actor && step.call === 'write' && !step.name.startsWith(LOCKS));
    if (row.locked) assert.deepEqual(itsWrites, [], `${actor}, refused under the lock, wrote nothing ${trace}`);
    // Without a lock only the conditional write decides: a refused writer may have kept the `.bak` first, but only the very bytes the winner keeps there.
    else for (const write of itsWrites.filter((step) => step.name === `${row.object}.bak`)) assert.equal(decoded(write.bytes), store.text(`${row.object}.bak`), trace);
  }
  const replaced = row.initial !== undefined || acknowledged.length > 1;
  assert.deepEqual(resourcesOf(store.text(`${row.object}.bak`)), acknowledged.length && replaced ? final.slice(0, -1) : undefined, `the .bak holds what the last write replaced ${trace}`);
  assert.deepEqual(locksLeft(store), [], `no lock is left behind ${trace}`);
  if (row.locked) assertExclusive(row.object, steps, trace);
  return ['a', 'b'].map((actor) => `${actor}${results[actor].status === 'fulfilled' ? '+' : '-'}`).join(' ');
}

/** Under the lock, one writer's calls on the object (and its `.bak`) all come before the other's first. */
function assertExclusive(object: string, steps: StoreStep[], trace: string): void {
  const spans = ['a', 'b']
    .map((actor) => steps.flatMap((step, index) => (step.actor === actor && step.name.startsWith(object) ? [index] : [])))
    .filter((indexes) => indexes.length)
    .map((indexes) => [indexes[0], indexes[indexes.length - 1]]);
  if (spans.length === 2) assert.ok(spans[0][1] < spans[1][0] || spans[1][1] < spans[0][0], `the writers overlap on ${object} ${trace}`);
}

describe('withStackWrite: two writers, every interleaving of their store calls', () => {
  // `outcomes`: every kind of ending was reached (both acknowledged one after the other, either refused, both refused racing for the lock).
  const rows: Array<InterleavingCase & { title: string; outcomes: string[]; atLeast: number }> = [
    { title: "a stack of a backend: Pulumi's lock, then the conditional write", object: DEV, initial: ['base'], locked: true, outcomes: ['a+ b+', 'a+ b-', 'a- b+', 'a- b-'], atLeast: 900 },
    { title: 'a stack both create', object: DEV, locked: true, outcomes: ['a+ b+', 'a+ b-', 'a- b+', 'a- b-'], atLeast: 100 },
    { title: 'a plain file: no lock, only the conditional write', object: PLAIN, initial: ['base'], locked: false, outcomes: ['a+ b+', 'a+ b-', 'a- b+'], atLeast: 250 },
    { title: 'a plain file both create: the write if absent', object: PLAIN, locked: false, outcomes: ['a+ b+', 'a+ b-', 'a- b+'], atLeast: 6 },
  ];
  for (const row of rows) {
    it(`${row.title}: no acknowledged write is lost, a refused writer leaves nothing, no lock is left`, async () => {
      const outcomes = new Set<string>();
      const schedules = await everySchedule(async (pick) => {
        const scheduler = new CallScheduler();
        const store = memoryStore(row.initial ? { [row.object]: checkpoint(...row.initial) } : {}, { before: scheduler.before });
        const write = (actor: string) => () => withStackWrite(store, row.object, { identity, create: row.initial === undefined }, appending(actor));
        const results = await scheduler.run({ a: write('a'), b: write('b') }, pick);
        outcomes.add(assertNothingLost(row, store, results, scheduler.steps, scheduler.trace()));
      });
      assert.deepEqual([...outcomes].sort(), row.outcomes, `${schedules} schedules`);
      assert.ok(schedules >= row.atLeast, `${schedules} schedules`);
    });
  }
});

type FaultTarget = 'object' | 'bak' | 'lock' | 'lockFolder';
interface Fault {
  call: StoreCall;
  target: FaultTarget;
  /** Which of the calls on the target fails (1: the first). */
  nth?: number;
  kind: 'StoreError' | 'Error' | 'StoreConflict';
}

/** A `before` hook failing the calls `faults` name, of a writer of `object`. */
function failing(object: string, faults: Fault[]): (call: StoreCall, name: string) => void {
  const seen = new Map<Fault, number>();
  const targetOf = (name: string): FaultTarget | undefined =>
    name === object ? 'object' : name === `${object}.bak` ? 'bak' : name === DEV_LOCKS ? 'lockFolder' : name.startsWith(DEV_LOCKS) ? 'lock' : undefined;
  return (call, name) => {
    for (const fault of faults.filter((f) => f.call === call && f.target === targetOf(name))) {
      seen.set(fault, (seen.get(fault) ?? 0) + 1);
      if (seen.get(fault) !== (fault.nth ?? 1)) continue;
      if (fault.kind === 'StoreError') throw new StoreError(`${name}: connection reset`);
      if (fault.kind === 'StoreConflict') throw new StoreConflict(`${name}: precondition failed`);
      throw new Error(`${name}: disk on fire`);
    }
  };
}

interface FaultRow {
  faults: Fault[];
  /** Only a stack of a backend has a lock to fail. */
  lockOnly?: boolean;
  /** The refusal (absent: the write is acknowledged). */
  error?: { type: 'StoreError' | 'Error' | 'StoreConflict' | 'StackLockedError'; message: RegExp };
  /** Whether the object holds the edit afterwards. */
  changed: boolean;
  /** Whether the `.bak` holds the state replaced (none before). */
  bak: boolean;
  lockLeft?: boolean;
  warning?: RegExp;
}

const fault = (call: StoreCall, target: FaultTarget, kind: Fault['kind'], nth?: number): Fault => ({ call, target, kind, nth });
const reset = /: connection reset$/;
const onFire = /: disk on fire$/;
const leftBehind =
  /^our lock \.pulumi\/locks\/organization\/app\/dev\/[0-9a-f-]+\.json could not be removed \(.*: (connection reset|disk on fire)\); it is left behind: `pulumi cancel` or --break-lock removes it$/;
const faultRows: Array<[string, FaultRow]> = [
  ['the read of the object fails (a store error)', { faults: [fault('read', 'object', 'StoreError')], error: { type: 'StoreError', message: reset }, changed: false, bak: false }],
  ['the read of the object fails (another error)', { faults: [fault('read', 'object', 'Error')], error: { type: 'Error', message: onFire }, changed: false, bak: false }],
  ['the check that the object is unchanged fails', { faults: [fault('read', 'object', 'StoreError', 2)], error: { type: 'StoreError', message: reset }, changed: false, bak: false }],
  ['the last check before the .bak fails', { faults: [fault('read', 'object', 'Error', 3)], error: { type: 'Error', message: onFire }, changed: false, bak: false }],
  ['the write of the .bak fails (a store error)', { faults: [fault('write', 'bak', 'StoreError')], error: { type: 'StoreError', message: reset }, changed: false, bak: false }],
  ['the write of the .bak fails (another error)', { faults: [fault('write', 'bak', 'Error')], error: { type: 'Error', message: onFire }, changed: false, bak: false }],
  ['the write of the object fails (a store error)', { faults: [fault('write', 'object', 'StoreError')], error: { type: 'StoreError', message: reset }, changed: false, bak: true }],
  ['the write of the object fails (another error)', { faults: [fault('write', 'object', 'Error')], error: { type: 'Error', message: onFire }, changed: false, bak: true }],
  [
    'the write of the object is refused as changed',
    {
      faults: [fault('write', 'object', 'StoreConflict')],
      error: { type: 'StoreConflict', message: /^\S+ changed since it was read \(another writer\); it was not written, and \S+\.bak now holds the state read before the change$/ },
      changed: false,
      bak: true,
    },
  ],
  ['the delete of our lock fails (a store error)', { lockOnly: true, faults: [fault('delete', 'lock', 'StoreError')], changed: true, bak: true, lockLeft: true, warning: leftBehind }],
  ['the delete of our lock fails (another error)', { lockOnly: true, faults: [fault('delete', 'lock', 'Error')], changed: true, bak: true, lockLeft: true, warning: leftBehind }],
  [
    'the write of the object and the delete of our lock both fail',
    {
      lockOnly: true,
      faults: [fault('write', 'object', 'StoreError'), fault('delete', 'lock', 'StoreError')],
      error: { type: 'StoreError', message: reset },
      changed: false,
      bak: true,
      lockLeft: true,
      warning: leftBehind,
    },
  ],
  [
    'the listing of the lock folder fails (a store error)',
    { lockOnly: true, faults: [fault('listPage', 'lockFolder', 'StoreError')], error: { type: 'StoreError', message: reset }, changed: false, bak: false },
  ],
  [
    'the listing of the lock folder fails (another error)',
    { lockOnly: true, faults: [fault('listPage', 'lockFolder', 'Error')], error: { type: 'Error', message: onFire }, changed: false, bak: false },
  ],
  [
    'the listing after our lock is written fails: our lock is removed',
    { lockOnly: true, faults: [fault('listPage', 'lockFolder', 'StoreError', 2)], error: { type: 'StoreError', message: reset }, changed: false, bak: false },
  ],
  [
    'the listing after our lock fails (another error)',
    { lockOnly: true, faults: [fault('listPage', 'lockFolder', 'Error', 2)], error: { type: 'Error', message: onFire }, changed: false, bak: false },
  ],
  [
    'the write of our lock fails (a store error)',
    {
      lockOnly: true,
      faults: [fault('write', 'lock', 'StoreError')],
      error: { type: 'StackLockedError', message: /^cannot take Pulumi's lock \.pulumi\/locks\/organization\/app\/dev\/[0-9a-f-]+\.json: .*connection reset; nothing was written$/ },
      changed: false,
      bak: false,
    },
  ],
  [
    'the write of our lock fails (another error)',
    {
      lockOnly: true,
      faults: [fault('write', 'lock', 'Error')],
      error: { type: 'StackLockedError', message: /^cannot take Pulumi's lock \S+: .*disk on fire; nothing was written$/ },
      changed: false,
      bak: false,
    },
  ],
];

const errorTypes = { StoreError, StoreConflict, StackLockedError, Error };

describe('withStackWrite: a store call fails', () => {
  for (const object of [DEV, PLAIN]) {
    for (const [title, row] of faultRows.filter(([, r]) => object === DEV || !r.lockOnly)) {
      it(`${object}: ${title}`, async () => {
        const store = memoryStore({ [object]: checkpoint('base') }, { before: failing(object, row.faults) });
        const warnings: string[] = [];
        const writing = withStackWrite(store, object, { identity, warn: (message) => warnings.push(message) }, appending('x'));
        if (row.error) {
          const { type, message } = row.error;
          await assert.rejects(writing, (error: Error) => {
            assert.ok(error instanceof errorTypes[type], `${error.name}: ${error.message}`);
            if (type === 'Error') assert.ok(!(error instanceof StoreError), 'another error is not made a store error');
            if (type === 'StoreError') assert.ok(!(error instanceof StoreConflict), 'a failure is not a conflict');
            assert.match(error.message, message);
            return true;
          });
        } else assert.deepEqual(await writing, { value: 'x', written: true, backup: `${object}.bak` });
        assert.deepEqual(resourcesOf(store.text(object)), row.changed ? ['base', 'x'] : ['base'], 'the object');
        assert.equal(store.text(`${object}.bak`), row.bak ? checkpoint('base') : undefined, 'the .bak');
        assert.deepEqual(locksLeft(store).length, row.lockLeft ? 1 : 0, 'the locks left');
        assert.deepEqual(warnings.length, row.warning ? 1 : 0, warnings.join('\n'));
        if (row.warning) assert.match(warnings[0], row.warning);
      });
    }
  }
});

describe("withStackWrite: another writer's write lock held past the wait", () => {
  it("the store's refusal is passed on as it is, naming the lock, and the object is as it was", async () => {
    const busy = `${PLAIN} is being written by another program: its lock ${PLAIN}.lock was not released within 5 seconds; nothing was written`;
    let writes = 0;
    const store = memoryStore(
      { [PLAIN]: checkpoint('base') },
      {
        before: (call, name) => {
          // The object's own conditional write (its .bak is another name, written before it).
          if (call === 'write' && name === PLAIN && ++writes === 1) throw new StoreBusy(busy);
        },
      },
    );
    await assert.rejects(withStackWrite(store, PLAIN, { identity }, appending('x')), (error: Error) => error instanceof StoreBusy && error.message === busy);
    assert.deepEqual(resourcesOf(store.text(PLAIN)), ['base']);
  });
});

/** A `before` hook in which another writer replaces `name` at the `nth` call `call` on it (once). */
function interloper(store: () => MemoryStore, call: StoreCall, name: string, nth: number, text: string): (call: StoreCall, name: string) => Promise<void> {
  let seen = 0;
  return async (made, on) => {
    if (made === call && on === name && ++seen === nth) await store().write(name, encoder.encode(text));
  };
}

describe('withStackWrites: several objects under their locks', () => {
  const both = () => ({ [DEV]: checkpoint('dev'), [PROD]: checkpoint('prod') });

  it('a writer that comes between the two writes: refused, naming what was already written', async () => {
    // The second object's own write (after its `.bak`): the 1st write of it.
    const store: MemoryStore = memoryStore(both(), { before: interloper(() => store, 'write', PROD, 1, checkpoint('prod', 'other')) });
    await assert.rejects(
      withStackWrites(store, [DEV, PROD], { identity }, async (current) => ({ bytes: current.map((c) => appending('x')(c).bytes), value: 'x' })),
      (error: Error) =>
        error instanceof StoreConflict &&
        /^\.pulumi\/stacks\/app\/prod\.json changed since it was read \(another writer\); it was not written, and \.pulumi\/stacks\/app\/prod\.json\.bak now holds the state read before the change; \.pulumi\/stacks\/app\/dev\.json was written$/.test(
          error.message,
        ),
    );
    assert.deepEqual(resourcesOf(store.text(DEV)), ['dev', 'x'], 'the first is written');
    assert.equal(store.text(`${DEV}.bak`), checkpoint('dev'));
    assert.equal(store.text(PROD), checkpoint('prod', 'other'), "the other writer's is kept");
    assert.equal(store.text(`${PROD}.bak`), checkpoint('prod'));
    assert.deepEqual(locksLeft(store), []);
  });

  it('a store failure on the second write after the first was written: its error keeps its kind and names what was written', async () => {
    let writes = 0;
    const store: MemoryStore = memoryStore(both(), {
      before: (call, name) => {
        if (call === 'write' && name === PROD && ++writes === 1) throw new StoreError(`${PROD}.bak: connection reset`);
      },
    });
    await assert.rejects(
      withStackWrites(store, [DEV, PROD], { identity }, async (current) => ({ bytes: current.map((c) => appending('x')(c).bytes), value: 'x' })),
      (error: Error) => error instanceof StoreError && !(error instanceof StoreConflict) && error.message === `${PROD}.bak: connection reset; ${DEV} was written`,
    );
    assert.deepEqual(resourcesOf(store.text(DEV)), ['dev', 'x']);
    assert.equal(store.text(PROD), checkpoint('prod'));
    assert.deepEqual(locksLeft(store), []);
  });

  it('a writer that comes after the reads, before any write: refused, nothing written', async () => {
    // The check of the second object before anything is written: its 2nd read.
    const store: MemoryStore = memoryStore(both(), { before: interloper(() => store, 'read', PROD, 2, checkpoint('prod', 'other')) });
    await assert.rejects(
      withStackWrites(store, [DEV, PROD], { identity }, async (current) => ({ bytes: current.map((c) => appending('x')(c).bytes), value: 'x' })),
      (error: Error) => error instanceof StoreConflict && error.message === '.pulumi/stacks/app/prod.json changed since it was read (another writer); nothing was written',
    );
    assert.equal(store.text(DEV), checkpoint('dev'));
    assert.equal(store.text(PROD), checkpoint('prod', 'other'));
    assert.deepEqual(
      [...store.files.keys()].filter((name) => name.endsWith('.bak')),
      [],
    );
    assert.deepEqual(locksLeft(store), []);
  });

  it('an object answered no bytes is left as it is, the others written', async () => {
    const store = memoryStore(both());
    const outcome = await withStackWrites(store, [DEV, PROD], { identity }, async ([, prod]) => ({ bytes: [undefined, appending('x')(prod).bytes], value: 'x' }));
    assert.deepEqual(outcome, { value: 'x', written: [PROD], backups: [`${PROD}.bak`] });
    assert.equal(store.text(DEV), checkpoint('dev'));
    assert.deepEqual(resourcesOf(store.text(PROD)), ['prod', 'x']);
  });

  /** Schedules of two writers: each paused after each of its calls while the other runs, then seeded random ones. */
  function schedules(): Array<[string, Pick]> {
    const paused = ['a', 'b'].flatMap((actor) => Array.from({ length: 26 }, (_, calls): [string, Pick] => [`${actor} paused after ${calls} calls`, pauseAfter(actor, calls)]));
    const random = Array.from({ length: 100 }, (_, seed): [string, Pick] => [`random schedule ${seed}`, randomPick(mulberry32(seed))]);
    return [...paused, ...random];
  }

  it('two writers naming the stacks in opposite orders both settle: each takes the locks in one order', async () => {
    const outcomes = new Set<string>();
    for (const [title, pick] of schedules()) {
      const scheduler = new CallScheduler();
      const store = memoryStore(both(), { before: scheduler.before });
      const write = (actor: string, names: string[]) => () => withStackWrites(store, names, { identity }, async (current) => ({ bytes: current.map((c) => appending(actor)(c).bytes), value: actor }));
      // run() throws when a writer never settles.
      const results = await scheduler.run({ a: write('a', [DEV, PROD]), b: write('b', [PROD, DEV]) }, pick);
      const trace = `${title}: ${scheduler.trace()}`;
      for (const actor of ['a', 'b']) {
        const locks = scheduler.steps.filter((step) => step.actor === actor && step.call === 'write' && step.name.startsWith(LOCKS)).map((step) => step.name.split('/')[4]);
        assert.deepEqual(locks, ['dev', 'prod'].slice(0, locks.length), `${actor} locks dev, then prod ${trace}`);
      }
      for (const [object, first] of [
        [DEV, 'dev'],
        [PROD, 'prod'],
      ]) {
        assertHoldsAll(resourcesOf(store.text(object)), [first], acknowledgedOf(results), `in ${object}: ${trace}`);
      }
      for (const result of Object.values(results)) if (result.status === 'rejected') assert.ok(result.reason instanceof StackLockedError, `${String(result.reason)} ${trace}`);
      assert.deepEqual(locksLeft(store), [], trace);
      outcomes.add(['a', 'b'].map((actor) => `${actor}${results[actor].status === 'fulfilled' ? '+' : '-'}`).join(' '));
    }
    assert.deepEqual([...outcomes].sort(), ['a+ b+', 'a+ b-', 'a- b+', 'a- b-']);
  });
});

describe('withStackWrite: an absent object, an edit that answers nothing', () => {
  /** A store recording each call made on it. */
  const recording = (files: Record<string, string>) => {
    const calls: string[] = [];
    const store = memoryStore(files, { before: (call, name) => void calls.push(`${call} ${name.startsWith(LOCKS) ? name.replace(/[0-9a-f-]+\.json$/, '<own>.json') : name}`) });
    return { store, calls };
  };
  const lockCalls = (calls: string[]) => calls.filter((call) => call.includes(LOCKS));
  const heldLock = [`listPage ${DEV_LOCKS}`, `write ${DEV_LOCKS}<own>.json`, `listPage ${DEV_LOCKS}`, `delete ${DEV_LOCKS}<own>.json`];

  for (const [object, locks] of [
    [DEV, heldLock],
    [PLAIN, []],
  ] as const) {
    it(`${object}: create writes an absent object, keeping no .bak`, async () => {
      const { store, calls } = recording({});
      assert.deepEqual(await withStackWrite(store, object, { identity, create: true }, appending('x')), { value: 'x', written: true, backup: undefined });
      assert.deepEqual(resourcesOf(store.text(object)), ['x']);
      assert.deepEqual([...store.files.keys()], [object]);
      assert.deepEqual(lockCalls(calls), locks);
    });

    it(`${object}: absent without create is StoreMissing, the edit never called, nothing written`, async () => {
      const { store, calls } = recording({});
      let edited = false;
      await assert.rejects(
        withStackWrite(store, object, { identity }, (current) => ((edited = true), appending('x')(current))),
        (error: Error) => error instanceof StoreMissing && error.message === `${object} does not exist (it was removed meanwhile?); nothing was written`,
      );
      assert.equal(edited, false);
      assert.deepEqual([...store.files.keys()], []);
      assert.deepEqual(lockCalls(calls), locks);
    });

    it(`${object}: an edit answering no bytes writes nothing${locks.length ? ', the lock taken and released' : ''}`, async () => {
      const { store, calls } = recording({ [object]: checkpoint('base') });
      const version = store.files.get(object)!.version;
      assert.deepEqual(await withStackWrite(store, object, { identity }, () => ({ value: 'unchanged' })), { value: 'unchanged', written: false, backup: undefined });
      assert.equal(store.files.get(object)!.version, version);
      assert.deepEqual([...store.files.keys()], [object]);
      assert.deepEqual(lockCalls(calls), locks);
      assert.deepEqual(
        calls.filter((call) => call.startsWith('write') && !call.includes(LOCKS)),
        [],
      );
    });
  }
});

describe('withStackWrite with takeOverAbandoned: a lock whose process of this machine is gone is taken over; any other still refuses', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const staleness = { now, hostname: 'here', pidAlive: (pid: number) => pid === 1000, staleAfterMs: 3_600_000 };
  const lock = (pid: number, hostname: string, ageMs = 60_000) => JSON.stringify({ pid, username: 'tester', hostname, timestamp: new Date(now - ageMs).toISOString() });
  const rows: Array<{ title: string; lock: string; taken: boolean }> = [
    { title: 'its pid no longer runs here', lock: lock(999, 'here'), taken: true },
    { title: 'its pid runs here', lock: lock(1000, 'here'), taken: false },
    { title: 'of another machine', lock: lock(999, 'there'), taken: false },
    { title: 'stale by age only (another machine, 2 h old)', lock: lock(999, 'there', 7_200_000), taken: false },
  ];
  for (const row of rows) {
    it(`${row.title}: ${row.taken ? 'taken over and named' : 'refused, nothing written'}`, async () => {
      const store = memoryStore({ [DEV]: checkpoint('base'), [`${DEV_LOCKS}old.json`]: row.lock });
      const warnings: string[] = [];
      const writing = withStackWrite(store, DEV, { identity, staleness, takeOverAbandoned: true, warn: (message) => warnings.push(message) }, appending('x'));
      if (row.taken) {
        assert.equal((await writing).written, true);
        assert.equal(warnings.length, 1);
        assert.match(warnings[0], /^taking over Pulumi's lock \S+old\.json \(created by tester@here \(pid 999\) .*stale: pid 999 is not running on this machine\): its process is gone$/);
        assert.deepEqual(locksLeft(store), []);
      } else {
        await assert.rejects(writing, (error: Error) => error instanceof StackLockedError && /currently locked by 1 lock/.test(error.message));
        assert.deepEqual(resourcesOf(store.text(DEV)), ['base']);
        assert.deepEqual(locksLeft(store), [`${DEV_LOCKS}old.json`]);
      }
    });
  }

  it('a writer that does not ask it, or does not know this machine (no staleness): even a gone process refuses', async () => {
    const store = memoryStore({ [DEV]: checkpoint('base'), [`${DEV_LOCKS}old.json`]: lock(999, 'here') });
    await assert.rejects(withStackWrite(store, DEV, { identity, staleness }, appending('x')), StackLockedError);
    await assert.rejects(withStackWrite(store, DEV, { identity, takeOverAbandoned: true }, appending('x')), StackLockedError);
    assert.deepEqual(locksLeft(store), [`${DEV_LOCKS}old.json`]);
  });

  it('a look (a dry run) removes nothing and lets the abandoned lock pass; a live one refuses', async () => {
    const store = memoryStore({ [DEV]: checkpoint('base'), [`${DEV_LOCKS}old.json`]: lock(999, 'here') });
    await refuseIfStackLocked(store, { project: 'app', name: 'dev' }, { staleness, takeOverAbandoned: true });
    assert.deepEqual(locksLeft(store), [`${DEV_LOCKS}old.json`]);
    await store.write(`${DEV_LOCKS}live.json`, encoder.encode(lock(1000, 'here')));
    await assert.rejects(refuseIfStackLocked(store, { project: 'app', name: 'dev' }, { staleness, takeOverAbandoned: true }), StackLockedError);
  });
});
