/**
 * The azblob:// store (shared/node/azblobStore.ts) against a real Azure Blob server (Azurite,
 * scripts/azurite.mjs): the contract the memory store keeps (shared/backend/store.test.ts,
 * test/helpers/memoryStore.ts) — reads with their version, StoreMissing, writes only if unchanged or
 * only if absent, deletes, listings page after page — and what only a real server shows: many
 * writers at once, gocloud's key escaping, each credential kind gocloud reads, and the errors of a
 * missing container, a wrong key and a stalled server, naming the container and never a secret.
 */
import { strict as assert } from 'node:assert';
import { ContainerClient, generateAccountSASQueryParameters, AccountSASPermissions, AccountSASResourceTypes, AccountSASServices, StorageSharedKeyCredential } from '@azure/storage-blob';
import { parseAzblobBackendUrl } from '../../shared/backend/azblobUrl';
import { listAll, StoreConflict, StoreError, StoreMissing, type WritableBackendStore } from '../../shared/backend';
import { azblobBackendStore, escapeBlobKey, unescapeBlobKey } from '../../shared/node/azblobStore';
import { azuriteBackend, startAzurite, type AzuriteServer } from '../../scripts/azurite.mjs';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AZURE_VARIABLES = ['AZURE_STORAGE_ACCOUNT', 'AZURE_STORAGE_KEY', 'AZURE_STORAGE_SAS_TOKEN', 'AZURE_STORAGE_CONNECTION_STRING', 'AZURE_STORAGEBLOB_CONNECTIONSTRING', 'AZURE_TOKEN_CREDENTIALS'];

describe('the azblob:// store, against a real Azurite server', function () {
  this.timeout(5 * 60 * 1000);
  let server: AzuriteServer;
  const saved = Object.fromEntries(AZURE_VARIABLES.map((name) => [name, process.env[name]]));
  const stores: Array<{ destroy(): void }> = [];

  /** The store reads its secrets from this process's environment, as the CLI's does. */
  function useEnvironment(env: Record<string, string>) {
    for (const name of AZURE_VARIABLES) delete process.env[name];
    Object.assign(process.env, env);
  }
  function storeOf(url: string, options: { pageSize?: number; timeoutMs?: number; env?: Record<string, string> } = {}): WritableBackendStore {
    const env = options.env ?? azuriteBackend(server, 'unused').env;
    useEnvironment(env);
    const store = azblobBackendStore(parseAzblobBackendUrl(url, env), { timeoutMs: options.timeoutMs ?? 20_000, pageSize: options.pageSize });
    stores.push(store);
    return store;
  }
  const storeIn = (container: string, path = '', options: Parameters<typeof storeOf>[1] = {}) => storeOf(azuriteBackend(server, `${container}${path}`).url, options);
  /** The test's own view of a container, through the SDK with the emulator's key (not the product's store). */
  const containerOf = (name: string) => new ContainerClient(`${server.serviceUrl}/${name}`, new StorageSharedKeyCredential(server.account, server.accountKey));
  async function blobNames(container: string): Promise<string[]> {
    const names: string[] = [];
    for await (const item of containerOf(container).listBlobsFlat()) names.push(item.name);
    return names;
  }
  async function blobText(container: string, name: string): Promise<string> {
    return (await containerOf(container).getBlobClient(name).downloadToBuffer()).toString('utf8');
  }
  const put = (container: string, name: string, text: string) => containerOf(container).getBlockBlobClient(name).upload(text, Buffer.byteLength(text));

  before(async () => {
    server = await startAzurite();
    for (const name of ['contract', 'paging', 'race', 'escapes']) await containerOf(name).create();
  });
  after(async () => {
    for (const store of stores) store.destroy();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server?.stop();
  });

  describe('reads and writes', () => {
    it('a write reads back with its ETag as the version; a length reads at least the first bytes; an empty blob reads empty', async () => {
      const store = storeIn('contract');
      await store.write('.pulumi/meta.yaml', encoder.encode('version: 1\n'));
      const read = await store.read('.pulumi/meta.yaml');
      assert.equal(decoder.decode(read.bytes), 'version: 1\n');
      const { etag } = await containerOf('contract').getBlobClient('.pulumi/meta.yaml').getProperties();
      assert.equal(read.version, etag);
      const head = await store.read('.pulumi/meta.yaml', { length: 4 });
      assert.equal(decoder.decode(head.bytes.subarray(0, 4)), 'vers');
      assert.ok(head.bytes.length < 11, 'a range, not the whole blob');
      await store.write('empty.json', new Uint8Array());
      const empty = await store.read('empty.json', { length: 1 });
      assert.equal(empty.bytes.length, 0);
      assert.equal(empty.version, (await containerOf('contract').getBlobClient('empty.json').getProperties()).etag);
    });

    it('an absent object is StoreMissing naming it', async () => {
      const store = storeIn('contract');
      await assert.rejects(store.read('.pulumi/stacks/app/gone.json'), (error: Error) => error instanceof StoreMissing && /no object \.pulumi\/stacks\/app\/gone\.json/.test(error.message));
      await assert.rejects(store.read('.pulumi/stacks/app/gone.json', { length: 1 }), StoreMissing);
    });

    it('ifVersion: written while still that version, refused once another writer changed it (their bytes kept)', async () => {
      const store = storeIn('contract');
      const name = '.pulumi/stacks/app/dev.json';
      await store.write(name, encoder.encode('{"v":1}'));
      const first = await store.read(name);
      await store.write(name, encoder.encode('{"v":2}'), { ifVersion: first.version });
      assert.equal(await blobText('contract', name), '{"v":2}');
      await assert.rejects(
        store.write(name, encoder.encode('{"v":3}'), { ifVersion: first.version }),
        (error: Error) => error instanceof StoreConflict && /dev\.json changed since it was read/.test(error.message),
      );
      assert.equal(await blobText('contract', name), '{"v":2}');
      // A version of an object that is gone is no longer the object's either.
      await store.delete(name);
      await assert.rejects(store.write(name, encoder.encode('{"v":4}'), { ifVersion: first.version }), StoreConflict);
      await assert.rejects(store.read(name), StoreMissing);
    });

    it('a 100 MB stack goes up in blocks, committed only while still the version read', async () => {
      const store = storeIn('contract');
      const name = '.pulumi/stacks/app/large.json';
      // Not one repeated byte: a block list in the wrong order would read back different.
      const large = new Uint8Array(100 * 1024 * 1024 + 123);
      for (let i = 0; i < large.length; i += 1) large[i] = (i * 31 + (i >>> 16)) & 0xff;
      await store.write(name, large, { ifVersion: null });
      const first = await store.read(name);
      assert.equal(first.bytes.length, large.length);
      assert.ok(Buffer.from(first.bytes).equals(Buffer.from(large)), 'the blob reads back as written');
      const { committedBlocks = [] } = await containerOf('contract').getBlockBlobClient(name).getBlockList('committed');
      assert.equal(committedBlocks.length, Math.ceil(large.length / (4 * 1024 * 1024)), 'committed as blocks of 4 MiB');
      await assert.rejects(store.write(name, large, { ifVersion: null }), StoreConflict);
      const changed = large.slice();
      changed[changed.length - 1] ^= 0xff;
      await store.write(name, changed, { ifVersion: first.version });
      await assert.rejects(store.write(name, large, { ifVersion: first.version }), StoreConflict);
      const second = await store.read(name);
      assert.ok(Buffer.from(second.bytes).equals(Buffer.from(changed)), 'the refused write left the winner');
      await store.delete(name);
    });

    it('ifVersion null: written only when absent (a lock file)', async () => {
      const store = storeIn('contract');
      const lock = '.pulumi/locks/organization/app/dev/0f0e.json';
      await store.write(lock, encoder.encode('{"pid":1}'), { ifVersion: null });
      await assert.rejects(store.write(lock, encoder.encode('{"pid":2}'), { ifVersion: null }), StoreConflict);
      assert.equal(await blobText('contract', lock), '{"pid":1}');
    });

    it('delete: the object goes; one already gone is no error', async () => {
      const store = storeIn('contract');
      await store.write('doomed.json', encoder.encode('x'));
      await store.delete('doomed.json');
      await store.delete('doomed.json');
      assert.ok(!(await blobNames('contract')).includes('doomed.json'));
    });
  });

  describe('listings', () => {
    const NAMES = Array.from({ length: 23 }, (_, i) => `.pulumi/history/app/dev/dev-${String(i).padStart(3, '0')}.history.json`);
    before(async () => {
      for (const name of NAMES) await put('paging', `state/${name}`, name);
      await put('paging', 'state/.pulumi/meta.yaml', 'version: 1\n');
      await put('paging', 'elsewhere/.pulumi/meta.yaml', 'not this backend');
    });

    it('page after page of 5, in name order, names relative to the URL path, sizes and times', async () => {
      const store = storeIn('paging', '/state', { pageSize: 5 });
      const cursors: Array<string | undefined> = [];
      const listPage = store.listPage.bind(store);
      store.listPage = (prefix, cursor) => (cursors.push(cursor), listPage(prefix, cursor));
      const objects = await listAll(store, '.pulumi/history/');
      assert.deepEqual(
        objects.map((o) => o.name),
        NAMES,
      );
      assert.equal(cursors.length, 5, 'five pages of at most five');
      assert.equal(cursors[0], undefined);
      for (const object of objects) {
        assert.equal(object.size, Buffer.byteLength(object.name));
        const { lastModified } = await containerOf('paging').getBlobClient(`state/${object.name}`).getProperties();
        assert.equal(object.modifiedMs, lastModified?.getTime(), 'the blob time, in ms');
      }
      assert.deepEqual(
        (await listAll(store, '')).map((o) => o.name),
        ['.pulumi/history/app/dev/dev-000.history.json', ...NAMES.slice(1), '.pulumi/meta.yaml'].sort(),
      );
      assert.deepEqual(await listAll(store, '.pulumi/nothing/'), []);
    });

    it("more blobs than one of the server's pages (1,001 at gocloud's page size of 1,000)", async () => {
      await containerOf('many').create();
      const names = Array.from({ length: 1001 }, (_, i) => `.pulumi/stacks/scale/s${String(i).padStart(4, '0')}.json`);
      const queue = [...names];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let name = queue.shift(); name !== undefined; name = queue.shift()) await put('many', name, '{}');
        }),
      );
      const store = storeIn('many');
      const first = await store.listPage('.pulumi/stacks/');
      assert.equal(first.objects.length, 1000);
      assert.ok(first.next);
      const second = await store.listPage('.pulumi/stacks/', first.next);
      assert.deepEqual(
        second.objects.map((o) => o.name),
        [names[1000]],
      );
      assert.equal(second.next, undefined);
    });
  });

  it('concurrent writers: of eight conditional writes on one version, and eight lock files, exactly one each wins', async () => {
    const store = storeIn('race');
    const name = '.pulumi/stacks/app/dev.json';
    await store.write(name, encoder.encode('{"writer":"none"}'));
    const { version } = await store.read(name);
    const writers = Array.from({ length: 8 }, (_, i) => storeIn('race').write(name, encoder.encode(`{"writer":${i}}`), { ifVersion: version }));
    const outcomes = await Promise.allSettled(writers);
    const won = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [i] : []));
    assert.equal(won.length, 1, JSON.stringify(outcomes.map((o) => o.status)));
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof StoreConflict, String(outcome.reason));
    assert.equal(await blobText('race', name), `{"writer":${won[0]}}`);

    const lock = '.pulumi/locks/organization/app/dev/lock.json';
    const lockers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => storeIn('race').write(lock, encoder.encode(`{"locker":${i}}`), { ifVersion: null })));
    const holders = lockers.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [i] : []));
    assert.equal(holders.length, 1);
    assert.equal(await blobText('race', lock), `{"locker":${holders[0]}}`);
  });

  describe("gocloud's key escaping: both name the same blobs", () => {
    const cases: Array<[string, string]> = [
      ['.pulumi/stacks/app/dev.json', '.pulumi/stacks/app/dev.json'],
      ['a#b?c%d"e\\f', 'a__0x23__b__0x3f__c__0x25__d__0x22__e__0x5c__f'],
      ['dir/', 'dir__0x2f__'],
      ['../x', '..__0x2f__x'],
      ['tab\there', 'tab__0x9__here'],
      ['literal__0x41__', 'literal__0x5f___0x41__'],
    ];
    for (const [key, escaped] of cases) {
      it(`${JSON.stringify(key)} is the blob ${JSON.stringify(escaped)}`, () => {
        assert.equal(escapeBlobKey(key, false), escaped);
        assert.equal(unescapeBlobKey(escaped), key);
      });
    }
    it('a prefix keeps its trailing slash', () => assert.equal(escapeBlobKey('.pulumi/stacks/', true), '.pulumi/stacks/'));

    it('written, listed and read under the escaped name on the server', async () => {
      const store = storeIn('escapes');
      await store.write('.pulumi/odd#name?.json', encoder.encode('odd'));
      assert.deepEqual(await blobNames('escapes'), ['.pulumi/odd__0x23__name__0x3f__.json']);
      assert.deepEqual(
        (await listAll(store, '.pulumi/')).map((o) => o.name),
        ['.pulumi/odd#name?.json'],
      );
      assert.equal(decoder.decode((await store.read('.pulumi/odd#name?.json')).bytes), 'odd');
    });
  });

  describe('credentials, in the order gocloud reads them', () => {
    before(async () => {
      await containerOf('credentials').create();
      await put('credentials', '.pulumi/meta.yaml', 'version: 1\n');
    });
    const url = () => azuriteBackend(server, 'credentials').url;
    const readMeta = async (store: WritableBackendStore) => decoder.decode((await store.read('.pulumi/meta.yaml')).bytes);

    it('a SAS token (AZURE_STORAGE_SAS_TOKEN, with or without its leading ?)', async () => {
      const sas = generateAccountSASQueryParameters(
        {
          expiresOn: new Date(Date.now() + 60 * 60 * 1000),
          permissions: AccountSASPermissions.parse('rwdlac'),
          resourceTypes: AccountSASResourceTypes.parse('sco').toString(),
          services: AccountSASServices.parse('b').toString(),
        },
        new StorageSharedKeyCredential(server.account, server.accountKey),
      ).toString();
      for (const token of [sas, `?${sas}`]) {
        const env = { AZURE_STORAGE_ACCOUNT: server.account, AZURE_STORAGE_SAS_TOKEN: token };
        assert.deepEqual(parseAzblobBackendUrl(url(), env).credential, { kind: 'sas' });
        assert.equal(await readMeta(storeOf(url(), { env })), 'version: 1\n');
      }
    });

    it('a connection string (either variable): its endpoint, whatever the URL says', async () => {
      const connection = `DefaultEndpointsProtocol=http;AccountName=${server.account};AccountKey=${server.accountKey};BlobEndpoint=${server.serviceUrl};`;
      for (const variable of ['AZURE_STORAGE_CONNECTION_STRING', 'AZURE_STORAGEBLOB_CONNECTIONSTRING']) {
        const store = storeOf('azblob://credentials', { env: { [variable]: connection } });
        assert.equal(await readMeta(store), 'version: 1\n');
      }
    });

    it('no key, SAS or connection string: the default Azure chain, which finds nothing here', async () => {
      // Only the environment credential, so that no probe leaves the machine.
      const env = { AZURE_STORAGE_ACCOUNT: server.account, AZURE_TOKEN_CREDENTIALS: 'EnvironmentCredential' };
      const store = storeOf(url(), { env });
      await assert.rejects(
        store.read('.pulumi/meta.yaml'),
        (error: Error) => error instanceof StoreError && !(error instanceof StoreMissing) && /meta\.yaml: .*azblob:\/\/credentials/.test(error.message),
      );
    });

    it('a wrong key: refused, naming the container, never the key', async () => {
      const wrongKey = Buffer.from('not the emulator key, not at all').toString('base64');
      const store = storeOf(url(), { env: { AZURE_STORAGE_ACCOUNT: server.account, AZURE_STORAGE_KEY: wrongKey } });
      await assert.rejects(store.read('.pulumi/meta.yaml'), (error: Error) => {
        assert.match(
          error.message,
          /^\.pulumi\/meta\.yaml: azblob:\/\/credentials at http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/credentials refused the credentials \((AuthorizationFailure|AuthenticationFailed|403)\)/,
        );
        assert.ok(!error.message.includes(wrongKey));
        return error instanceof StoreError;
      });
    });
  });

  it('a missing container: a StoreError naming it, for listings, reads and writes', async () => {
    const store = storeIn('no-such-container');
    const expected = (what: string) => (error: Error) =>
      error instanceof StoreError && !(error instanceof StoreMissing) && error.message === `${what}: there is no container in azblob://no-such-container at ${server.serviceUrl}/no-such-container`;
    await assert.rejects(store.listPage('.pulumi/'), expected('listing .pulumi/'));
    await assert.rejects(store.read('.pulumi/meta.yaml'), expected('.pulumi/meta.yaml'));
    await assert.rejects(store.write('.pulumi/meta.yaml', encoder.encode('x')), expected('.pulumi/meta.yaml'));
  });

  it('a container name Azure refuses: the rule said', async () => {
    for (const name of ['ab', 'Upper-Case']) {
      await assert.rejects(
        storeIn(name).listPage(''),
        (error: Error) =>
          error instanceof StoreError && new RegExp(`^listing /: azblob://${name} at .* answered 400 (OutOfRangeInput|InvalidResourceName): a container name is 3 to 63 lowercase`).test(error.message),
      );
    }
  });

  describe('a stalled server, through a TCP proxy', () => {
    let proxy: FaultProxy;
    before(async () => {
      proxy = await startFaultProxy({ host: '127.0.0.1', port: server.port });
    });
    after(async () => proxy?.close());

    it('each call ends within its deadline with a StoreError naming the object', async () => {
      const url = `azblob://contract?localemu=true&domain=127.0.0.1:${proxy.port}&protocol=http`;
      const store = storeOf(url, { timeoutMs: 1000 });
      proxy.stall();
      try {
        await assert.rejects(
          store.read('.pulumi/meta.yaml'),
          (error: Error) =>
            error instanceof StoreError && /^\.pulumi\/meta\.yaml: azblob:\/\/contract at \S+ did not answer within 1 s \(QUOTA_STATE_REMOTE_TIMEOUT_SECONDS sets the limit\)$/.test(error.message),
        );
        await assert.rejects(
          store.listPage(''),
          (error: Error) => error instanceof StoreError && /^listing \/: .* did not answer within 1 s \(QUOTA_STATE_REMOTE_TIMEOUT_SECONDS sets the limit\)$/.test(error.message),
        );
      } finally {
        proxy.pass();
      }
      assert.equal(decoder.decode((await store.read('.pulumi/meta.yaml')).bytes), 'version: 1\n');
    });
  });
});
