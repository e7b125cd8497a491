/**
 * The store contract (what shared/backend/store.test.ts holds the memory store to) on the PostgreSQL
 * store, against a real PostgreSQL server (scripts/postgres.mjs): rows as Pulumi's driver keeps them,
 * absent objects, conditional and absent-only writes, concurrent writers, listings of more than one
 * page, and the faults: a wrong password, TLS asked of a server without it, a missing database, a
 * server gone. The test reads and writes the table through its own pg client, not the store.
 */
import { strict as assert } from 'node:assert';
import { Client } from 'pg';
import { listAll, parsePostgresBackendUrl, StoreConflict, StoreError, StoreMissing, type WritableBackendStore } from '../../shared/backend/vocabulary';
import { postgresBackendStore } from '../../shared/node/postgresStore';
import { startPostgres, type PostgresServer } from '../../scripts/postgres.mjs';

let server: PostgresServer;
const opened: Array<{ destroy(): void }> = [];
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const bytesOf = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));

function storeOf(url: string, env: Record<string, string> = {}): WritableBackendStore & { destroy(): void } {
  const store = postgresBackendStore(parsePostgresBackendUrl(url, env), { timeoutMs: 10_000 });
  opened.push(store);
  return store;
}

const urlOf = (database: string, query = 'sslmode=disable') => `postgres://${server.superuser}@127.0.0.1:${server.port}/${database}${query ? `?${query}` : ''}`;

/** The test's own view of a table: its rows, straight from the server. */
async function rows(database: string, table = 'pulumi_state'): Promise<Array<{ key: string; data: string }>> {
  const client = new Client({ host: '127.0.0.1', port: server.port, user: server.superuser, database, ssl: false });
  await client.connect();
  try {
    return (await client.query<{ key: string; data: string }>(`SELECT key, data::text AS data FROM ${table} ORDER BY key COLLATE "C"`)).rows;
  } finally {
    await client.end();
  }
}

describe('postgres:// store, against a real PostgreSQL server', function () {
  this.timeout(5 * 60 * 1000);

  before(async () => {
    server = await startPostgres({ log: (line) => console.log(`      ${line}`) });
    for (const database of ['dbg', 'paging', 'race', 'other']) server.createDatabase(database);
  });
  after(async () => {
    for (const store of opened) store.destroy();
    await server?.stop();
  });

  it('creates Pulumi\'s table and index when absent; rows are keyed by the URL\'s path, data {"data":base64}', async () => {
    const store = storeOf(urlOf('dbg'));
    await store.write('.pulumi/meta.yaml', bytesOf('version: 1\n'));
    assert.deepEqual(await rows('dbg'), [{ key: 'dbg/.pulumi/meta.yaml', data: `{"data":"${Buffer.from('version: 1\n').toString('base64')}"}` }]);
    const columns = server.sql(`SELECT column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns WHERE table_name = 'pulumi_state' ORDER BY ordinal_position`, 'dbg');
    assert.deepEqual(columns.trim().split('\n'), ['key text NO', 'data json NO', 'updated_at timestamp with time zone NO']);
    assert.match(server.sql(`SELECT indexdef FROM pg_indexes WHERE indexname = 'pulumi_state_key_prefix_idx'`, 'dbg'), /\(key text_pattern_ops\)/);
    // table= names another table; a bare path-less URL has no prefix.
    const custom = storeOf(`postgres://${server.superuser}@127.0.0.1:${server.port}?sslmode=disable&dbname=other&table=custom_state`);
    await custom.write('.pulumi/meta.yaml', bytesOf('version: 1\n'));
    assert.deepEqual(
      (await rows('other', 'custom_state')).map((r) => r.key),
      ['.pulumi/meta.yaml'],
    );
  });

  it('reads: bytes and a version, the first bytes with a length, StoreMissing naming the object for an absent key', async () => {
    const store = storeOf(urlOf('dbg'));
    const binary = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x10, 0x80]);
    await store.write('.pulumi/stacks/app/dev.json.gz', binary);
    const whole = await store.read('.pulumi/stacks/app/dev.json.gz');
    assert.deepEqual([...whole.bytes], [...binary]);
    assert.match(whole.version, /^\d+:[0-9a-f]{64}$/);
    const head = await store.read('.pulumi/stacks/app/dev.json.gz', { length: 2 });
    assert.deepEqual([...head.bytes.subarray(0, 2)], [0x1f, 0x8b]);
    assert.ok(head.bytes.length < binary.length, 'only the first bytes were read');
    assert.equal(head.version, whole.version);
    await store.write('.pulumi/empty', new Uint8Array());
    assert.equal((await store.read('.pulumi/empty')).bytes.length, 0);
    await assert.rejects(store.read('.pulumi/stacks/app/none.json'), (error: Error) => {
      assert.ok(error instanceof StoreMissing);
      assert.match(error.message, /postgres:\/\/quota@127\.0\.0\.1:\d+\/dbg\?sslmode=disable: no object \.pulumi\/stacks\/app\/none\.json/);
      return true;
    });
  });

  it('conditional writes: the version read passes, a stale one is refused; absent-only refuses an existing key; delete twice is no error', async () => {
    const store = storeOf(urlOf('dbg'));
    const name = '.pulumi/stacks/app/cond.json';
    await store.write(name, bytesOf('one'), { ifVersion: null });
    await assert.rejects(store.write(name, bytesOf('again'), { ifVersion: null }), (error: Error) => error instanceof StoreConflict && /already exists/.test(error.message));
    const first = await store.read(name);
    await store.write(name, bytesOf('two'), { ifVersion: first.version });
    const second = await store.read(name);
    assert.notEqual(second.version, first.version);
    await assert.rejects(
      store.write(name, bytesOf('three'), { ifVersion: first.version }),
      (error: Error) => error instanceof StoreConflict && /changed since it was read \(another writer\); nothing was written/.test(error.message),
    );
    assert.equal(text((await store.read(name)).bytes), 'two');
    // The same bytes written back in between (A, B, A) still change the version: the row's time is part of it.
    await store.write(name, bytesOf('two'));
    await assert.rejects(store.write(name, bytesOf('four'), { ifVersion: second.version }), StoreConflict);
    // A version of a key that is gone: refused.
    await store.delete(name);
    await store.delete(name);
    await assert.rejects(store.write(name, bytesOf('five'), { ifVersion: second.version }), StoreConflict);
    await assert.rejects(store.read(name), StoreMissing);
  });

  it('concurrent writers on one version: exactly one wins, the others are refused and nothing is mixed', async () => {
    const stores = [storeOf(urlOf('race')), storeOf(urlOf('race')), storeOf(urlOf('race'))];
    const name = '.pulumi/stacks/app/race.json';
    await stores[0].write(name, bytesOf('base'));
    for (let round = 0; round < 5; round++) {
      const { version } = await stores[0].read(name);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, writer) => stores[writer % stores.length].write(name, bytesOf(`round ${round} writer ${writer}`), { ifVersion: version })),
      );
      const won = outcomes.flatMap((outcome, writer) => (outcome.status === 'fulfilled' ? [writer] : []));
      assert.equal(won.length, 1, `round ${round}: ${won.length} writers won`);
      for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof StoreConflict, String(outcome.reason));
      assert.equal(text((await stores[1].read(name)).bytes), `round ${round} writer ${won[0]}`);
    }
    // Absent-only: of many creators of one lock, one.
    const created = await Promise.allSettled(Array.from({ length: 12 }, (_, writer) => stores[writer % stores.length].write('.pulumi/locks/x/lock.json', bytesOf(`${writer}`), { ifVersion: null })));
    assert.equal(created.filter((outcome) => outcome.status === 'fulfilled').length, 1);
  });

  it('listings page by key (more objects than a page), in byte order, under a prefix taken literally (% and _ are not wildcards)', async () => {
    const store = storeOf(urlOf('paging'));
    const names = Array.from({ length: 2345 }, (_, i) => `.pulumi/history/app/dev/dev-${String(i).padStart(5, '0')}.history.json`);
    // Written in one statement through the test's own client: 2345 round trips through the store would only be slower.
    await store.write('.pulumi/meta.yaml', bytesOf('version: 1\n'));
    const client = new Client({ host: '127.0.0.1', port: server.port, user: server.superuser, database: 'paging', ssl: false });
    await client.connect();
    try {
      await client.query(`INSERT INTO pulumi_state (key, data) SELECT 'paging/' || k, '{"data":"aGVsbG8="}' FROM unnest($1::text[]) AS k`, [
        [...names, 'a_b/x', 'aXb/x', 'a%b/y', 'Z/upper', 'é/accent'],
      ]);
    } finally {
      await client.end();
    }
    const pages: Array<string | undefined> = [];
    const listPage = store.listPage.bind(store);
    const counting = { ...store, listPage: (prefix: string, cursor?: string) => (pages.push(cursor), listPage(prefix, cursor)) };
    const listed = await listAll(counting, '.pulumi/history/');
    assert.deepEqual(
      listed.map((o) => o.name),
      names,
    );
    assert.equal(pages.length, 3, 'three pages of at most 1000');
    assert.ok(listed.every((o) => o.size === 5 && o.modifiedMs > 0));
    assert.deepEqual(
      (await listAll(store, 'a_b/')).map((o) => o.name),
      ['a_b/x'],
    );
    assert.deepEqual(
      (await listAll(store, 'a%')).map((o) => o.name),
      ['a%b/y'],
    );
    const everything = (await listAll(store, '')).map((o) => o.name);
    assert.deepEqual(
      everything,
      [...everything].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    assert.equal(everything.length, names.length + 6);
    assert.deepEqual(await listAll(store, '.pulumi/nothing/'), []);
  });

  describe('faults', () => {
    it('a wrong password: refused, naming the backend, never the password', async () => {
      server.createRole('writer', 'right-password', 'dbg');
      const wrong = storeOf(`postgres://writer:not-the-password@127.0.0.1:${server.port}/dbg?sslmode=disable&password=also-secret`);
      await assert.rejects(wrong.read('.pulumi/meta.yaml'), (error: Error) => {
        assert.ok(error instanceof StoreError && !(error instanceof StoreMissing));
        assert.match(error.message, /postgres:\/\/writer@127\.0\.0\.1:\d+\/dbg\?sslmode=disable refused the credentials \(password authentication failed for user "writer"\)/);
        assert.doesNotMatch(error.message, /not-the-password|also-secret/);
        return true;
      });
      // PGPASSWORD is read when the URL has none; a role without rights on the table is told so.
      const unprivileged = storeOf(`postgres://writer@127.0.0.1:${server.port}/dbg?sslmode=disable`, { PGPASSWORD: 'right-password' });
      await assert.rejects(unprivileged.read('.pulumi/meta.yaml'), /\/dbg\?sslmode=disable: not allowed on table pulumi_state \(permission denied for table pulumi_state\)/);
      server.sql('GRANT SELECT ON pulumi_state TO writer', 'dbg');
      const right = storeOf(`postgres://writer@127.0.0.1:${server.port}/dbg?sslmode=disable`, { PGPASSWORD: 'right-password' });
      assert.equal(text((await right.read('.pulumi/meta.yaml')).bytes), 'version: 1\n');
    });

    it('sslmode defaults to require (lib/pq): a server without TLS is a clear error suggesting sslmode=disable', async () => {
      const store = storeOf(urlOf('dbg', ''));
      await assert.rejects(store.read('.pulumi/meta.yaml'), /the server does not support TLS, and sslmode defaults to "require".*add sslmode=disable to the URL/);
      // prefer falls back to a plain connection, as lib/pq does.
      assert.equal(text((await storeOf(urlOf('dbg', 'sslmode=prefer')).read('.pulumi/meta.yaml')).bytes), 'version: 1\n');
      // PGSSLMODE is the default when the URL has none.
      assert.equal(text((await storeOf(urlOf('dbg', ''), { PGSSLMODE: 'disable' }).read('.pulumi/meta.yaml')).bytes), 'version: 1\n');
    });

    it('a missing database: named; a server that is gone: named, and the next call reconnects once it is back', async () => {
      await assert.rejects(storeOf(urlOf('no_such_db')).read('.pulumi/meta.yaml'), /\/no_such_db\?sslmode=disable: there is no database "no_such_db"/);
      const store = storeOf(urlOf('dbg'));
      const before = await store.read('.pulumi/meta.yaml');
      await server.halt();
      try {
        await assert.rejects(store.write('.pulumi/meta.yaml', bytesOf('version: 2\n'), { ifVersion: before.version }), (error: Error) => {
          assert.ok(error instanceof StoreError && !(error instanceof StoreConflict), String(error));
          assert.match(error.message, /^\.pulumi\/meta\.yaml: postgres:\/\/quota@127\.0\.0\.1:\d+\/dbg\?sslmode=disable: /);
          return true;
        });
      } finally {
        await server.start();
      }
      assert.equal(text((await store.read('.pulumi/meta.yaml')).bytes), 'version: 1\n', 'nothing was written');
    });
  });
});
