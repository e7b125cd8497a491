/**
 * DIY backends in Google Cloud Storage (`gs://`), against a real GCS JSON API server
 * (fake-gcs-server, built from its Go module: scripts/fake-gcs.mjs) holding a history real Pulumi
 * wrote there through the Automation API. First the store's contract (the one
 * shared/backend/store.test.ts checks on the memory store) on the real server: conditional writes,
 * absent-only writes, StoreMissing, listings of more than one page, concurrent writers, a missing
 * bucket. Then the backend model through the store, judged by real Pulumi: its history and stacks
 * are Pulumi's, and what a restore writes Pulumi reads back. Faults go through a TCP proxy.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { gcsBackendStore } from '../../shared/node/gcsStore';
import { createStateService } from '../../shared/state';
import { createBackendService, listAll, parseGcsBackendUrl, type GcsBackendUrl, StoreConflict, StoreError, StoreMissing, type WritableBackendStore } from '../../shared/backend';
import { generateHistoryInBucket } from '../../scripts/pulumi-histories.mjs';
import { createGcsBucket, startFakeGcs, type FakeGcsServer } from '../../scripts/fake-gcs.mjs';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';
import { dotFacts } from '../helpers/dotFacts';
import { runQuotaState, runQuotaStateAsync } from '../helpers/processes';

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-gcs-'));
let server: FakeGcsServer;
let pulumiBinary: string;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Pulumi insists on finding credentials even for an emulator; gocloud then sends it none. */
const gcsEnv = () => ({ STORAGE_EMULATOR_HOST: server.host, GOOGLE_OAUTH_ACCESS_TOKEN: 'x' });
const storeOf = (url: string, host = server.host, timeoutMs = 10_000) => gcsBackendStore(parseGcsBackendUrl(url, { STORAGE_EMULATOR_HOST: host }), { timeoutMs });

/** The CLI with the emulator's address (`host`), a home without Pulumi credentials, and no backend in the environment. */
function ours(args: string[], extra: Record<string, string> = {}, host = server.host) {
  const result = runQuotaState(args, { cwd: scratch, env: { ...process.env, STORAGE_EMULATOR_HOST: host, HOME: scratch, PULUMI_BACKEND_URL: '', ...extra } });
  return { ...result, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

const locksOf = async (bucket: string) => (await objectsOf(bucket)).filter((key) => key.startsWith('.pulumi/locks/'));

function pulumi(url: string, args: string[]) {
  const { env, cleanup } = hermeticEnv({ ...process.env, ...gcsEnv(), PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: 'history-passphrase', PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' });
  try {
    const result = spawnSync(pulumiBinary, args, { cwd: scratch, env, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  } finally {
    cleanup();
  }
}

// The test's own view of the server, through the JSON API (not the product's store).
const api = (path: string, init?: RequestInit) => fetch(`${server.endpoint}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
const objectPath = (bucket: string, key: string) => `/storage/v1/b/${bucket}/o/${encodeURIComponent(key)}`;

async function objectsOf(bucket: string): Promise<string[]> {
  const names: string[] = [];
  let pageToken = '';
  do {
    const page = (await (await api(`/storage/v1/b/${bucket}/o?maxResults=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`)).json()) as {
      items?: Array<{ name: string }>;
      nextPageToken?: string;
    };
    names.push(...(page.items ?? []).map((item) => item.name));
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return names.sort();
}

async function objectText(bucket: string, key: string): Promise<string | undefined> {
  const response = await api(`${objectPath(bucket, key)}?alt=media`);
  if (response.status === 404) return undefined;
  assert.equal(response.status, 200, `GET ${bucket}/${key}`);
  return response.text();
}

/** Another writer: a plain upload, no precondition. */
async function putObject(bucket: string, key: string, body: string | Uint8Array): Promise<void> {
  const response = await api(`/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${encodeURIComponent(key)}`, { method: 'POST', body });
  assert.equal(response.status, 200, `upload ${bucket}/${key}: ${await response.text()}`);
}

/** A copy of the generated bucket, to change without touching the original. */
async function copyBucket(from: string, to: string): Promise<void> {
  await createGcsBucket(server, to);
  for (const key of await objectsOf(from)) {
    const bytes = new Uint8Array(await (await api(`${objectPath(from, key)}?alt=media`)).arrayBuffer());
    await putObject(to, key, bytes);
  }
}

/** Runs `task` over `items`, `width` at a time. */
async function bounded<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

describe('gs:// backends, against a real fake-gcs-server and real Pulumi', function () {
  this.timeout(20 * 60 * 1000);

  before(async () => {
    server = await startFakeGcs({ log: (line) => console.log(`      ${line}`), buckets: ['hist', 'contract'] });
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  describe("the store's contract on the real server", () => {
    let store: WritableBackendStore & { destroy(): void };
    before(() => {
      store = storeOf('gs://contract/under/here');
    });
    after(() => store.destroy());

    it('an absent-only write creates once; the second is a StoreConflict and changes nothing', async () => {
      await store.write('lock.json', encoder.encode('first'), { ifVersion: null });
      await assert.rejects(
        store.write('lock.json', encoder.encode('second'), { ifVersion: null }),
        (error: Error) => error instanceof StoreConflict && /gs:\/\/contract\/under\/here\/lock\.json changed since it was read/.test(error.message),
      );
      assert.equal(await objectText('contract', 'under/here/lock.json'), 'first', 'the object lives under the URL path');
    });

    it('a write conditional on the version read: made while it is current, a StoreConflict once another writer came', async () => {
      await store.write('state.json', encoder.encode('v1'));
      const read = await store.read('state.json');
      assert.equal(decoder.decode(read.bytes), 'v1');
      await store.write('state.json', encoder.encode('v2'), { ifVersion: read.version });
      const second = await store.read('state.json');
      assert.notEqual(second.version, read.version);
      await assert.rejects(store.write('state.json', encoder.encode('stale'), { ifVersion: read.version }), StoreConflict);
      await putObject('contract', 'under/here/state.json', 'theirs');
      await assert.rejects(store.write('state.json', encoder.encode('mine'), { ifVersion: second.version }), StoreConflict);
      assert.equal(await objectText('contract', 'under/here/state.json'), 'theirs');
    });

    it('reads: the first bytes with a length, an empty object, a missing one is StoreMissing naming it; delete of a missing one is no error', async () => {
      await store.write('magic.gz', encoder.encode('0123456789'));
      const head = await store.read('magic.gz', { length: 2 });
      assert.ok(head.bytes.length >= 2 && decoder.decode(head.bytes).startsWith('01'));
      assert.equal(head.version, (await store.read('magic.gz')).version);
      await store.write('empty', new Uint8Array());
      assert.equal((await store.read('empty', { length: 1 })).bytes.length, 0);
      await assert.rejects(store.read('nothing.json'), (error: Error) => error instanceof StoreMissing && error.message.includes('gs://contract/under/here/nothing.json'));
      await store.delete('nothing.json');
      await store.delete('magic.gz');
      assert.equal(await objectText('contract', 'under/here/magic.gz'), undefined);
    });

    it('a listing of more than one page: every object once, in name order, names relative to the URL path', async () => {
      const names = Array.from({ length: 1003 }, (_, i) => `many/${String(i).padStart(4, '0')}.json`);
      await bounded(names, 16, (name) => store.write(name, encoder.encode(name)));
      const first = await store.listPage('many/');
      assert.equal(first.objects.length, 1000);
      assert.ok(first.next, 'a next page');
      const all = await listAll(store, 'many/');
      assert.deepEqual(
        all.map((object) => object.name),
        names,
      );
      assert.ok(all.every((object) => object.size === 14 && object.modifiedMs > 0));
      assert.deepEqual(await listAll(store, 'nowhere/'), []);
    });

    it('concurrent writers on one version: exactly one wins, the others are StoreConflicts', async () => {
      await store.write('race.json', encoder.encode('start'));
      const { version } = await store.read('race.json');
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.write('race.json', encoder.encode(`writer ${i}`), { ifVersion: version })));
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      assert.equal(won.length, 1, JSON.stringify(outcomes));
      for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof StoreConflict, String(outcome.reason));
      assert.match((await objectText('contract', 'under/here/race.json'))!, /^writer \d$/);
    });

    it('concurrent absent-only writers (lock files): exactly one creates', async () => {
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.write('only-one.lock', encoder.encode(`${i}`), { ifVersion: null })));
      assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    });

    it('a missing bucket is an error naming it for every call, never an empty backend', async () => {
      const missing = storeOf('gs://no-such-bucket');
      try {
        const named = (error: Error) =>
          error instanceof StoreError && !(error instanceof StoreMissing) && /there is no bucket "no-such-bucket" \(gs:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+\)/.test(error.message);
        await assert.rejects(missing.listPage(''), named);
        await assert.rejects(missing.read('.pulumi/meta.yaml'), named);
        await assert.rejects(missing.write('x', encoder.encode('x'), { ifVersion: null }), named);
        await assert.rejects(missing.delete('x'), named);
      } finally {
        missing.destroy();
      }
    });
  });

  describe('credentials, in the order Pulumi takes them, reach the server and never a message', () => {
    /**
     * A local endpoint that refuses every storage call (401), recording the Authorization header each
     * carried, and answers a key's token exchange (POST /token) with a token of its own.
     */
    let recorder: Server;
    let endpoint: string;
    const seen: string[] = [];
    before(async () => {
      recorder = createServer((request, response) => {
        if (request.method === 'POST' && request.url === '/token') {
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ access_token: 'token-from-the-key', token_type: 'Bearer', expires_in: 3600 }));
          return;
        }
        seen.push(request.headers.authorization ?? '(none)');
        response.statusCode = 401;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ error: { code: 401, message: 'Invalid Credentials' } }));
      });
      await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(recorder.address() as { port: number }).port}`;
    });
    after(async () => {
      await new Promise((resolve) => recorder.close(resolve));
    });

    /** Reads through a store whose credentials come from `environment`, against the recorder; the error it ends with. */
    async function refusedWith(environment: Record<string, string>): Promise<Error> {
      const saved = {
        GOOGLE_CREDENTIALS: process.env.GOOGLE_CREDENTIALS,
        GOOGLE_OAUTH_ACCESS_TOKEN: process.env.GOOGLE_OAUTH_ACCESS_TOKEN,
        HTTPS_PROXY: process.env.HTTPS_PROXY,
        NO_PROXY: process.env.NO_PROXY,
      };
      // Nothing leaves the machine: all but the recorder's address goes to a closed local port (Google's token endpoint).
      Object.assign(process.env, environment, { HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' });
      try {
        // The recorder stands where Google's endpoint would: an endpoint that, unlike an emulator's, gets the credentials.
        const target: GcsBackendUrl = { ...parseGcsBackendUrl('gs://hist', environment), emulatorEndpoint: endpoint };
        const store = gcsBackendStore(target, { timeoutMs: 5_000 });
        try {
          await store.read('.pulumi/meta.yaml');
        } catch (error) {
          return error as Error;
        } finally {
          store.destroy();
        }
        return assert.fail('the read succeeded');
      } finally {
        for (const [name, value] of Object.entries(saved))
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
      }
    }

    it('GOOGLE_OAUTH_ACCESS_TOKEN: sent as the bearer token; a refusal names the backend and the object, not the token', async () => {
      seen.length = 0;
      const error = await refusedWith({ GOOGLE_OAUTH_ACCESS_TOKEN: 'secret-token-123' });
      assert.ok(error instanceof StoreError);
      assert.match(error.message, /^gs:\/\/hist\/\.pulumi\/meta\.yaml: gs:\/\/hist at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\); they come from GOOGLE_CREDENTIALS/);
      assert.doesNotMatch(error.message, /secret-token-123/);
      assert.deepEqual(seen, ['Bearer secret-token-123']);
    });

    it("GOOGLE_CREDENTIALS (a key's JSON text) wins over the token; the key is in no message", async () => {
      seen.length = 0;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
      // The Node SDK (gtoken) exchanges a key at Google's fixed token URL, not the key's token_uri as Go's oauth2 does:
      // offline, the exchange fails, and the token of the variable after it is never sent.
      const key = { type: 'service_account', project_id: 'test', private_key_id: 'k1', private_key: privateKey, client_email: 'test@test.iam.gserviceaccount.com', token_uri: `${endpoint}/token` };
      const error = await refusedWith({ GOOGLE_CREDENTIALS: JSON.stringify(key), GOOGLE_OAUTH_ACCESS_TOKEN: 'secret-token-123' });
      assert.ok(error instanceof StoreError, String(error));
      assert.match(error.message, /^gs:\/\/hist\/\.pulumi\/meta\.yaml: /);
      assert.ok(!seen.includes('Bearer secret-token-123'), seen.join(', '));
      assert.doesNotMatch(error.message, /PRIVATE KEY|secret-token-123/);
    });

    it('GOOGLE_CREDENTIALS that is not JSON: a clear error that does not repeat it', async () => {
      const error = await refusedWith({ GOOGLE_CREDENTIALS: '/path/to/key-SECRET.json' }).catch((thrown: Error) => thrown);
      assert.ok(error instanceof StoreError);
      assert.match(error.message, /^gs:\/\/hist: GOOGLE_CREDENTIALS is not JSON/);
      assert.doesNotMatch(error.message, /SECRET/);
    });
  });

  describe('a history real Pulumi wrote in the bucket', () => {
    before(() => {
      pulumiBinary = generateHistoryInBucket('gs://hist', { env: gcsEnv(), layout: 'project', compression: 'plain', log: (line) => console.log(`      ${line}`) }).pulumi;
    });

    it("the model's history is real `pulumi stack history --json --page-size 0`; its stacks are `pulumi stack ls`", async () => {
      const store = storeOf('gs://hist');
      try {
        const backend = createBackendService();
        const read = await backend.read(store);
        assert.deepEqual(read.problems, []);
        const stacks = JSON.parse(pulumi('gs://hist', ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>;
        assert.deepEqual(
          read.stacks.map((stack) => stack.ref),
          stacks.map((stack) => stack.name).sort(),
        );
        const theirs = JSON.parse(pulumi('gs://hist', ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as Array<Record<string, unknown>>;
        const history = await backend.history(store, read.stacks[0]);
        assert.ok(theirs.length >= 9);
        const fields = ['kind', 'startTime', 'endTime', 'message', 'environment', 'config', 'result', 'resourceChanges'];
        const pick = (entry: object) => Object.fromEntries(Object.entries(entry).filter(([field, value]) => fields.includes(field) && value !== undefined));
        assert.deepEqual(history.problems, []);
        assert.deepEqual(history.entries.map(pick), theirs.map(pick));
      } finally {
        store.destroy();
      }
    });

    it('a restore: real `pulumi stack export` reads the version restored, the state it replaced is the .bak object', async () => {
      await copyBucket('hist', 'restore');
      const store = storeOf('gs://restore');
      try {
        const backend = createBackendService();
        const { parse } = createStateService();
        const read = await backend.read(store);
        const stack = read.stacks[0];
        const before = await objectText('restore', '.pulumi/stacks/hist/dev.json');
        const checkpoints = (await objectsOf('restore')).filter((key) => key.endsWith('.checkpoint.json'));
        const version3 = JSON.parse((await objectText('restore', checkpoints[2]))!) as { checkpoint: unknown };
        const plan = backend.planRestore(parse(JSON.stringify({ version: 3, checkpoint: version3.checkpoint })), stack, 'version 3');
        await backend.applyRestore(store, stack, plan, { identity: { pid: process.pid, username: 'test', hostname: 'here' }, breakLock: true, compress: async (bytes) => bytes });
        assert.equal(await objectText('restore', '.pulumi/stacks/hist/dev.json.bak'), before);
        const exported = JSON.parse(pulumi('gs://restore', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: unknown[] } };
        assert.deepEqual(exported.deployment.resources, (version3.checkpoint as { latest: { resources: unknown[] } }).latest.resources);
        assert.deepEqual(
          (await objectsOf('restore')).filter((key) => key.startsWith('.pulumi/locks/')),
          [],
          'no lock left behind',
        );
      } finally {
        store.destroy();
      }
    });

    it("a writer between the read and the write: the restore is refused, the other writer's state and the .bak kept", async () => {
      await copyBucket('hist', 'race');
      const store = storeOf('gs://race');
      try {
        const backend = createBackendService();
        const { parse } = createStateService();
        const stack = (await backend.read(store)).stacks[0];
        const theirs = '{"version":3,"checkpoint":{"stack":"organization/hist/dev","latest":{}}}';
        const plan = backend.planRestore(parse((await objectText('race', '.pulumi/stacks/hist/dev.json'))!), stack, 'the current state');
        const bak = await objectText('race', '.pulumi/stacks/hist/dev.json.bak');
        await assert.rejects(
          backend.applyRestore(store, stack, plan, {
            identity: { pid: process.pid, username: 'test', hostname: 'here' },
            breakLock: true,
            compress: async (bytes) => bytes,
            beforeWrite: () => putObject('race', '.pulumi/stacks/hist/dev.json', theirs),
          }),
          /\.pulumi\/stacks\/hist\/dev\.json changed since it was read \(another writer\); nothing was written/,
        );
        assert.equal(await objectText('race', '.pulumi/stacks/hist/dev.json'), theirs);
        assert.equal(await objectText('race', '.pulumi/stacks/hist/dev.json.bak'), bak, 'the .bak object is untouched');
      } finally {
        store.destroy();
      }
    });

    describe('the CLI on the bucket (dist/), judged by real Pulumi', () => {
      it('history lists the entries `pulumi stack history` lists; backend ls its stacks, resources and lock', () => {
        const theirs = JSON.parse(pulumi('gs://hist', ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as Array<Record<string, unknown>>;
        const result = ours(['history', 'organization/hist/dev', '--backend', 'gs://hist', '--format', 'json']);
        assert.equal(result.status, 0, result.stderr);
        const { entries, problems } = result.json() as { entries: Array<Record<string, unknown>>; problems: unknown[] };
        assert.deepEqual(problems, []);
        const fields = ['kind', 'startTime', 'endTime', 'message', 'environment', 'config', 'result', 'resourceChanges'];
        const pick = (entry: Record<string, unknown>) => Object.fromEntries(fields.filter((f) => entry[f] !== undefined).map((f) => [f, entry[f]]));
        assert.deepEqual(entries.map(pick), theirs.map(pick));
        const listed = ours(['backend', 'ls', 'gs://hist', '--format', 'json', '--counts']);
        assert.equal(listed.status, 0, listed.stderr);
        const backend = listed.json() as { stacks: Array<{ name: string; resources: number; locks: unknown[] }> };
        const stacks = JSON.parse(pulumi('gs://hist', ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>;
        assert.deepEqual(
          backend.stacks.map((stack) => stack.name),
          stacks.map((stack) => stack.name).sort(),
        );
        const exported = JSON.parse(pulumi('gs://hist', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources?: unknown[] } };
        assert.equal(backend.stacks[0].resources, exported.deployment.resources?.length ?? 0);
        assert.equal(backend.stacks[0].locks.length, 1, 'the interrupted update left its lock object');
      });

      it('diff between two versions in the bucket; graph equals `pulumi stack graph`', () => {
        const diff = ours(['diff', 'organization/hist/dev@3', 'organization/hist/dev@4', '--backend', 'gs://hist']);
        assert.equal(diff.status, 0, diff.stderr);
        assert.match(diff.stdout, /1 renamed/);
        const theirsFile = join(scratch, 'theirs.dot');
        pulumi('gs://hist', ['stack', 'graph', theirsFile, '--stack', 'organization/hist/dev']);
        const graph = ours(['graph', 'organization/hist/dev', '--backend', 'gs://hist', '--format', 'dot']);
        assert.equal(graph.status, 0, graph.stderr);
        assert.deepEqual(dotFacts(graph.stdout), dotFacts(readFileSync(theirsFile, 'utf8')));
      });

      it('restore: refused while locked; with --break-lock Pulumi exports the version restored, the old state is the .bak', async () => {
        await copyBucket('hist', 'cli-restore');
        const before = await objectText('cli-restore', '.pulumi/stacks/hist/dev.json');
        const locked = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', 'gs://cli-restore']);
        assert.equal(locked.status, 1);
        assert.match(locked.stderr, /locked by 1 lock\(s\)/);
        assert.equal(await objectText('cli-restore', '.pulumi/stacks/hist/dev.json'), before);
        const restored = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', 'gs://cli-restore', '--break-lock']);
        assert.equal(restored.status, 0, restored.stderr);
        assert.equal(await objectText('cli-restore', '.pulumi/stacks/hist/dev.json.bak'), before);
        const checkpoints = (await objectsOf('cli-restore')).filter((key) => key.endsWith('.checkpoint.json'));
        const version3 = JSON.parse((await objectText('cli-restore', checkpoints[2]))!) as { checkpoint: { latest: { resources: unknown[] } } };
        const exported = JSON.parse(pulumi('gs://cli-restore', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: unknown[] } };
        assert.deepEqual(exported.deployment.resources, version3.checkpoint.latest.resources);
        assert.deepEqual(await locksOf('cli-restore'), []);
      });

      it('prune keeps the newest entries: `pulumi stack history` lists them', async () => {
        await copyBucket('hist', 'cli-prune');
        const all = JSON.parse(pulumi('gs://cli-prune', ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
        const pruned = ours(['backend', 'prune', '--backend', 'gs://cli-prune', '--keep', '3', '--break-lock']);
        assert.equal(pruned.status, 0, pruned.stderr);
        const kept = JSON.parse(pulumi('gs://cli-prune', ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
        assert.deepEqual(kept, all.slice(0, 3));
      });

      it('upgrade of a legacy bucket leaves the objects `pulumi state upgrade` leaves, byte for byte', async () => {
        await createGcsBucket(server, 'legacy');
        generateHistoryInBucket('gs://legacy', { env: gcsEnv(), layout: 'legacy', compression: 'plain' });
        // As on disk: the interrupted update's lock is not part of the comparison (both would refuse).
        for (const key of await locksOf('legacy')) assert.ok((await api(objectPath('legacy', key), { method: 'DELETE' })).ok, key);
        await copyBucket('legacy', 'legacy-theirs');
        const upgraded = ours(['backend', 'upgrade', '--backend', 'gs://legacy']);
        assert.equal(upgraded.status, 0, upgraded.stderr);
        assert.match(upgraded.stdout, /upgraded 1 of 1 stack to the project layout/);
        pulumi('gs://legacy-theirs', ['state', 'upgrade', '--yes']);
        const movedBackups = (keys: string[]) => keys.map((key) => key.replace(/^\.pulumi\/backups\/dev\//, '.pulumi/backups/hist/dev/')).sort();
        const withoutLocks = (keys: string[]) => keys.filter((key) => !key.startsWith('.pulumi/locks/'));
        const theirs = withoutLocks(await objectsOf('legacy-theirs'));
        assert.deepEqual(withoutLocks(await objectsOf('legacy')), movedBackups(theirs));
        for (const key of theirs) assert.equal(await objectText('legacy', movedBackups([key])[0]), await objectText('legacy-theirs', key), key);
        assert.equal((JSON.parse(pulumi('gs://legacy', ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[]).length, 9);
      });

      it('check and state surgery name a STACK in the bucket: edited under the lock, its .bak kept, Pulumi reads it', async () => {
        const checked = ours(['check', 'organization/hist/dev', '--backend', 'gs://hist', '--format', 'json']);
        assert.ok(checked.status === 0 || checked.status === 1, checked.stderr);
        assert.match(checked.stdout, /gs:\/\/hist\/\.pulumi\/stacks\/hist\/dev\.json/);
        await copyBucket('hist', 'cli-surgery');
        const before = await objectText('cli-surgery', '.pulumi/stacks/hist/dev.json');
        const exported = JSON.parse(pulumi('gs://cli-surgery', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string; type: string }> } };
        const target = exported.deployment.resources.find((resource) => resource.type.startsWith('hist:'))!;
        const removed = ours(['state', 'remove', '--backend', 'gs://cli-surgery', 'organization/hist/dev', target.urn, '--target-dependents', '--break-lock']);
        assert.equal(removed.status, 0, removed.stdout + removed.stderr);
        assert.equal(await objectText('cli-surgery', '.pulumi/stacks/hist/dev.json.bak'), before);
        const after = JSON.parse(pulumi('gs://cli-surgery', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string }> } };
        assert.ok(!after.deployment.resources.some((resource) => resource.urn === target.urn), 'Pulumi no longer sees the resource');
        assert.deepEqual(await locksOf('cli-surgery'), []);
      });

      it('an unknown bucket and an unknown parameter: a clear message, exit 2', () => {
        const unknown = ours(['backend', 'ls', 'gs://no-such-bucket']);
        assert.equal(unknown.status, 2);
        assert.match(unknown.stderr, /there is no bucket "no-such-bucket"/);
        const parameter = ours(['backend', 'ls', 'gs://hist?region=x']);
        assert.equal(parameter.status, 2);
        assert.match(parameter.stderr, /gs:\/\/hist\?region=x: unknown query parameter "region"/);
      });

      describe('faults, through a TCP proxy between the CLI and the server', () => {
        let proxy: FaultProxy;
        before(async () => {
          proxy = await startFaultProxy({ host: '127.0.0.1', port: server.port });
        });
        after(async () => proxy?.close());
        const viaProxy = () => `127.0.0.1:${proxy.port}`;

        it('a stalled server: a bounded, configurable timeout', async () => {
          proxy.stall();
          try {
            const stalled = await runQuotaStateAsync(['backend', 'ls', 'gs://hist'], {
              cwd: scratch,
              env: { ...process.env, STORAGE_EMULATOR_HOST: viaProxy(), HOME: scratch, PULUMI_BACKEND_URL: '', QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '1' },
            });
            assert.equal(stalled.status, 2, stalled.stderr);
            assert.match(stalled.stderr, /gs:\/\/hist at http:\/\/127\.0\.0\.1:\d+ did not answer within 1 s/);
          } finally {
            proxy.pass();
          }
        });

        it('a connection cut in the middle of a state surgery: the stack object intact, the failure named, no lock left', async () => {
          await copyBucket('hist', 'cli-cut');
          const before = await objectText('cli-cut', '.pulumi/stacks/hist/dev.json');
          const exported = JSON.parse(pulumi('gs://cli-cut', ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string; type: string }> } };
          const target = exported.deployment.resources.find((resource) => resource.type.startsWith('hist:'))!;
          proxy.cut({ when: /^POST \/upload\/storage\/v1\/b\/cli-cut\/o\?.*name=\.pulumi%2Fstacks%2Fhist%2Fdev\.json(&|$)/, afterBytes: 200 });
          try {
            const result = await runQuotaStateAsync(['state', 'remove', '--backend', 'gs://cli-cut', 'organization/hist/dev', target.urn, '--target-dependents', '--break-lock'], {
              cwd: scratch,
              env: { ...process.env, STORAGE_EMULATOR_HOST: viaProxy(), HOME: scratch, PULUMI_BACKEND_URL: '', QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '5' },
            });
            assert.equal(result.status, 2, result.stdout + result.stderr);
            assert.match(result.stderr, /\.pulumi\/stacks\/hist\/dev\.json: (could not reach|the connection to) gs:\/\/cli-cut at http:\/\/127\.0\.0\.1:\d+/);
          } finally {
            proxy.pass();
          }
          assert.equal(await objectText('cli-cut', '.pulumi/stacks/hist/dev.json'), before, 'the stack object is intact');
          assert.deepEqual(await locksOf('cli-cut'), []);
          pulumi('gs://cli-cut', ['stack', 'export', '--stack', 'organization/hist/dev']);
        });
      });
    });

    describe('faults, through a TCP proxy between the store and the server', () => {
      let proxy: FaultProxy;
      before(async () => {
        proxy = await startFaultProxy({ host: '127.0.0.1', port: server.port });
      });
      after(async () => proxy?.close());

      it('the server gone in the middle of a restore: the stack object intact, the failure named, Pulumi still reads it', async () => {
        await copyBucket('hist', 'cut');
        const before = await objectText('cut', '.pulumi/stacks/hist/dev.json');
        const store = storeOf('gs://cut', `127.0.0.1:${proxy.port}`, 5_000);
        try {
          const backend = createBackendService();
          const { parse } = createStateService();
          const stack = (await backend.read(store)).stacks[0];
          const plan = backend.planRestore(parse(JSON.stringify({ version: 3, checkpoint: { stack: 'organization/hist/dev', latest: {} } })), stack, 'an empty state');
          // Every upload of the stack object is cut midway (the retry too); the .bak and the lock pass.
          proxy.cut({ when: /^POST \/upload\/storage\/v1\/b\/cut\/o\?.*name=\.pulumi%2Fstacks%2Fhist%2Fdev\.json(&|$)/, afterBytes: 200 });
          await assert.rejects(
            backend.applyRestore(store, stack, plan, { identity: { pid: process.pid, username: 'test', hostname: 'here' }, breakLock: true, compress: async (bytes) => bytes }),
            (error: Error) =>
              error instanceof StoreError && /gs:\/\/cut\/\.pulumi\/stacks\/hist\/dev\.json: (could not reach|the connection to) gs:\/\/cut at http:\/\/127\.0\.0\.1:\d+/.test(error.message),
          );
          assert.ok(
            proxy.requests.some((line) => /name=\.pulumi%2Fstacks%2Fhist%2Fdev\.json(&|$)/.test(line)),
            proxy.requests.join('\n'),
          );
        } finally {
          proxy.pass();
          store.destroy();
        }
        assert.equal(await objectText('cut', '.pulumi/stacks/hist/dev.json'), before, 'the stack object is intact');
        assert.deepEqual(
          (await objectsOf('cut')).filter((key) => key.startsWith('.pulumi/locks/')),
          [],
          'our lock was removed',
        );
        pulumi('gs://cut', ['stack', 'export', '--stack', 'organization/hist/dev']);
      });

      it('a stalled server: the store fails within its timeout, naming the backend and the object', async () => {
        const store = storeOf('gs://hist', `127.0.0.1:${proxy.port}`, 1_000);
        proxy.stall();
        try {
          await assert.rejects(
            store.read('.pulumi/meta.yaml'),
            (error: Error) => error instanceof StoreError && /gs:\/\/hist\/\.pulumi\/meta\.yaml: gs:\/\/hist at http:\/\/127\.0\.0\.1:\d+ did not answer within 1 s/.test(error.message),
          );
        } finally {
          proxy.pass();
          store.destroy();
        }
      });
    });
  });
});
