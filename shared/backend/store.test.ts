/**
 * The store interface's helpers (store.ts) over the tests' memory store (test/helpers/memoryStore.ts):
 * listings page after page, reads of what may be absent, moves; how messages name an object; and the
 * store errors, recognized by `instanceof` across two copies of this module (a lazily loaded store's
 * bundle and its caller's each hold one).
 */
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { memoryStore, type StoreCall } from '../../test/helpers/memoryStore';
import * as first from './store';
import { backendFolderProblem, listAll, moveObject, objectExists, objectUrl, readBytes, readIfPresent, StoreConflict, StoreError, StoreMissing, type BackendStore } from './store';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const FILES = {
  '.pulumi/history/app/dev/dev-1.history.json': 'h1',
  '.pulumi/locks/organization/app/dev/0f0e.json': '{}',
  '.pulumi/meta.yaml': 'version: 1\n',
  '.pulumi/stacks/app/dev.json': '{"version":3}',
  '.pulumi/stacks/app/prod.json': '{"version":3,"x":1}',
  'elsewhere.txt': 'not in .pulumi',
};
const ALL = Object.keys(FILES).sort();
const decoded = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : decoder.decode(bytes));

describe('listAll: every object under a prefix, page after page', () => {
  const prefixes: Array<[string, string[]]> = [
    ['', ALL],
    ['.pulumi/', ALL.filter((name) => name.startsWith('.pulumi/'))],
    ['.pulumi/stacks/app/', ['.pulumi/stacks/app/dev.json', '.pulumi/stacks/app/prod.json']],
    ['.pulumi/stacks/app/dev.json', ['.pulumi/stacks/app/dev.json']],
    ['.pulumi/nothing/', []],
  ];
  for (const pageSize of [undefined, 1, 2, 1000]) {
    for (const [prefix, expected] of prefixes) {
      it(`pages of ${pageSize ?? 'any'} object(s), prefix ${JSON.stringify(prefix)}: ${expected.length} object(s), ${pageSize ? Math.max(1, Math.ceil(expected.length / pageSize)) : 1} page(s)`, async () => {
        const cursors: Array<string | undefined> = [];
        const store = memoryStore(FILES, { pageSize });
        const listPage = store.listPage.bind(store);
        store.listPage = (asked, cursor) => (cursors.push(cursor), listPage(asked, cursor));
        const objects = await listAll(store, prefix);
        assert.deepEqual(
          objects.map((o) => o.name),
          expected,
        );
        for (const object of objects) assert.equal(object.size, encoder.encode(FILES[object.name as keyof typeof FILES]).length, object.name);
        // Each page after the first starts after the last name of the page before.
        const pages = pageSize ? Math.max(1, Math.ceil(expected.length / pageSize)) : 1;
        assert.deepEqual(cursors, [undefined, ...expected.filter((_, index) => (index + 1) % (pageSize ?? Infinity) === 0).slice(0, pages - 1)]);
      });
    }
  }

  it('goes on past an empty page that still has a next (a bucket may answer one)', async () => {
    const pages: Record<string, { objects: Array<{ name: string; size: number; modifiedMs: number }>; next?: string }> = {
      start: { objects: [{ name: 'a', size: 1, modifiedMs: 1 }], next: 'one' },
      one: { objects: [], next: 'two' },
      two: { objects: [{ name: 'b', size: 2, modifiedMs: 2 }] },
    };
    const store: BackendStore = { url: 'memory://pages', listPage: async (_prefix, cursor) => pages[cursor ?? 'start'], read: async () => assert.fail('no read') };
    assert.deepEqual(
      (await listAll(store, '')).map((o) => o.name),
      ['a', 'b'],
    );
  });

  it("a failing page's error is the listing's", async () => {
    const store = memoryStore(FILES, { pageSize: 2 });
    let pages = 0;
    const listPage = store.listPage.bind(store);
    store.listPage = async (prefix, cursor) => {
      if (++pages === 2) throw new StoreError('page 2: connection reset');
      return listPage(prefix, cursor);
    };
    await assert.rejects(listAll(store, ''), (error: Error) => error instanceof StoreError && error.message === 'page 2: connection reset');
  });
});

/** A memory store failing every read of `name` with `error`, recording each read's options. */
function readsOf(name: string, error?: Error) {
  const lengths: Array<number | undefined> = [];
  const store = memoryStore(FILES, {
    before: (call: StoreCall, on: string) => {
      if (call === 'read' && on === name && error) throw error;
    },
  });
  const read = store.read.bind(store);
  store.read = (on, options) => (lengths.push(options?.length), read(on, options));
  return { store, lengths };
}

describe('reads of an object that may be absent', () => {
  const present = '.pulumi/stacks/app/dev.json';
  const absent = '.pulumi/stacks/app/gone.json';

  it('readIfPresent: the bytes and their version; a length reads at least that much', async () => {
    const { store } = readsOf(present);
    const whole = await readIfPresent(store, present);
    assert.equal(decoded(whole?.bytes), FILES[present]);
    assert.equal(whole?.version, String(store.files.get(present)!.version));
    assert.equal(decoded((await readIfPresent(store, present, { length: 4 }))?.bytes.subarray(0, 4)), FILES[present].slice(0, 4));
    assert.equal(decoded(await readBytes(store, present)), FILES[present]);
  });

  it('readIfPresent and objectExists: an absent object is undefined, false', async () => {
    const { store, lengths } = readsOf(absent);
    assert.equal(await readIfPresent(store, absent), undefined);
    assert.equal(await objectExists(store, absent), false);
    assert.equal(await objectExists(store, present), true);
    assert.deepEqual(lengths, [undefined, 1, 1], 'objectExists reads one byte, not the whole');
    await assert.rejects(readBytes(store, absent), StoreMissing);
  });

  const failures: Array<[string, Error]> = [
    ['a store error', new StoreError('dev.json: connection reset')],
    ['a conflict (a store error, not a missing object)', new StoreConflict('dev.json: precondition failed')],
    ['another error', new TypeError('dev.json: not a buffer')],
  ];
  for (const [what, error] of failures) {
    it(`readIfPresent and objectExists: ${what} is no absence, it is thrown as it is`, async () => {
      const { store } = readsOf(present, error);
      await assert.rejects(readIfPresent(store, present), (thrown) => thrown === error);
      await assert.rejects(objectExists(store, present), (thrown) => thrown === error);
    });
  }
});

describe('moveObject', () => {
  const from = '.pulumi/stacks/app/dev.json';

  for (const [title, to] of [
    ['to a new name', '.pulumi/stacks/app/moved.json'],
    ['replacing what is there', '.pulumi/stacks/app/prod.json'],
  ]) {
    it(`copies the object ${title} and removes the original`, async () => {
      const store = memoryStore(FILES);
      await moveObject(store, from, to);
      assert.equal(store.text(to), FILES[from]);
      assert.equal(store.files.has(from), false);
      assert.deepEqual([...store.files.keys()].sort(), [...ALL.filter((name) => name !== from && name !== to), to].sort());
    });
  }

  it('an absent original is StoreMissing, nothing changed', async () => {
    const store = memoryStore(FILES);
    await assert.rejects(moveObject(store, '.pulumi/stacks/app/gone.json', from), StoreMissing);
    assert.deepEqual([...store.files.keys()].sort(), ALL);
    assert.equal(store.text(from), FILES[from]);
  });

  it('a copy that cannot be written keeps the original', async () => {
    const store = memoryStore(FILES, {
      before: (call) => {
        if (call === 'write') throw new StoreError('moved.json: quota exceeded');
      },
    });
    await assert.rejects(moveObject(store, from, '.pulumi/stacks/app/moved.json'), /quota exceeded/);
    assert.equal(store.text(from), FILES[from]);
    assert.equal(store.files.has('.pulumi/stacks/app/moved.json'), false);
  });
});

describe('objectUrl: how messages name an object', () => {
  const bucket = 's3://bucket/prefix?region=eu-west-1&endpoint=http://127.0.0.1:9000';
  const rows: Array<[backend: string, name: string, url: string]> = [
    [bucket, '.pulumi/stacks/app/dev.json', 's3://bucket/prefix/.pulumi/stacks/app/dev.json?region=eu-west-1&endpoint=http://127.0.0.1:9000'],
    ['s3://bucket?region=x', '.pulumi/meta.yaml', 's3://bucket/.pulumi/meta.yaml?region=x'],
    ['s3://bucket/?region=x', '.pulumi/meta.yaml', 's3://bucket/.pulumi/meta.yaml?region=x'],
    ['s3://bucket', '.pulumi/meta.yaml', 's3://bucket/.pulumi/meta.yaml'],
    ['s3://bucket/prefix?endpoint=http://host:9000/path', '.pulumi/meta.yaml', 's3://bucket/prefix/.pulumi/meta.yaml?endpoint=http://host:9000/path'],
    ['gs://bucket/prefix#fragment', '.pulumi/meta.yaml', 'gs://bucket/prefix/.pulumi/meta.yaml#fragment'],
    ['file:///srv/state', '.pulumi/meta.yaml', 'file:///srv/state/.pulumi/meta.yaml'],
    ['file:///srv/state/', '.pulumi/meta.yaml', 'file:///srv/state/.pulumi/meta.yaml'],
    ['file:///', '.pulumi/meta.yaml', 'file:///.pulumi/meta.yaml'],
    ['memory://test', '.pulumi/locks/organization/app/dev/0f0e.json', 'memory://test/.pulumi/locks/organization/app/dev/0f0e.json'],
  ];
  for (const [backend, name, url] of rows) {
    it(`${backend} + ${name}`, () => assert.equal(objectUrl(backend, name), url));
  }
});

describe('backendFolderProblem', () => {
  for (const [problem, text] of [
    ['missing', '/srv/state is missing.'],
    ['file', '/srv/state is a file, not a folder holding a Pulumi DIY backend.'],
  ] as const) {
    it(problem, () => assert.equal(backendFolderProblem('/srv/state', problem), text));
  }
});

/** A second copy of store.ts, as a lazily loaded bundle holds its own: loaded afresh, the first left in the cache. */
function secondCopy(): typeof first {
  const load = createRequire(__filename);
  const path = load.resolve('./store');
  const cached = load.cache[path];
  delete load.cache[path];
  try {
    return load('./store') as typeof first;
  } finally {
    load.cache[path] = cached;
  }
}

describe('the store errors: branded, recognized across copies of the module', () => {
  const second = secondCopy();
  const BRANDS = Symbol.for('quota-state.store-error-brands');

  it('the second copy is another module, with classes of its own', () => {
    assert.notEqual(second.StoreError, StoreError);
    assert.notEqual(second.StoreConflict, StoreConflict);
    assert.equal((createRequire(__filename)('./store') as typeof first).StoreError, StoreError, 'the cache still holds the first');
  });

  const kinds = ['StoreError', 'StoreConflict', 'StoreMissing'] as const;
  /** What an error of each kind is an instance of. */
  const isA: Record<(typeof kinds)[number], Array<(typeof kinds)[number]>> = {
    StoreError: ['StoreError'],
    StoreConflict: ['StoreConflict', 'StoreError'],
    StoreMissing: ['StoreMissing', 'StoreError'],
  };
  for (const [made, asked] of [
    ['first', 'second'],
    ['second', 'first'],
    ['first', 'first'],
  ] as const) {
    for (const kind of kinds) {
      it(`a ${kind} of the ${made} copy, asked by the ${asked} copy's classes: ${isA[kind].join(' and ')}, nothing else`, () => {
        const copies = { first, second };
        const error = new copies[made][kind]('x.json: something');
        for (const other of kinds) assert.equal(error instanceof copies[asked][other], isA[kind].includes(other), `instanceof ${other}`);
        assert.ok(error instanceof Error);
        assert.equal(error.message, 'x.json: something');
      });
    }
  }

  const carriers: Array<[string, unknown, Array<(typeof kinds)[number]>]> = [
    ['an Error carrying the conflict brand', Object.defineProperty(new Error('x'), BRANDS, { value: ['StoreConflict', 'StoreError'] }), ['StoreConflict', 'StoreError']],
    ['a plain object carrying the missing brand', { [BRANDS]: ['StoreMissing', 'StoreError'] }, ['StoreMissing', 'StoreError']],
    ['a brand under a local symbol of the same name', { [Symbol('quota-state.store-error-brands')]: ['StoreError'] }, []],
    ['an Error without a brand', new Error('x'), []],
    ['a brand that is a string, not a list', { [BRANDS]: 'NotAStoreError' }, []],
    ['a brand that is a number', { [BRANDS]: 7 }, []],
    ['a plain object', { message: 'x' }, []],
    ['null', null, []],
    ['a string', 'StoreError', []],
  ];
  for (const [what, value, brands] of carriers) {
    it(`${what}: ${brands.length ? brands.join(' and ') : 'no store error'}`, () => {
      for (const kind of kinds) {
        assert.equal(value instanceof first[kind], brands.includes(kind), `first ${kind}`);
        assert.equal(value instanceof second[kind], brands.includes(kind), `second ${kind}`);
      }
    });
  }

  it("a subclass of the tests' own is branded as its nearest store class", () => {
    class Timeout extends StoreConflict {}
    const error = new Timeout('slow');
    assert.ok(error instanceof second.StoreConflict && error instanceof second.StoreError && !(error instanceof second.StoreMissing));
    assert.deepEqual((error as unknown as Record<symbol, unknown>)[BRANDS], ['StoreConflict', 'StoreError']);
  });

  it('the brand is not enumerable: errors print and serialize as before', () => {
    const error = new StoreMissing('gone.json: not found');
    assert.equal(Object.prototype.propertyIsEnumerable.call(error, BRANDS), false);
    assert.deepEqual(Object.keys(error), []);
    assert.equal(JSON.stringify(error), '{}');
  });
});
