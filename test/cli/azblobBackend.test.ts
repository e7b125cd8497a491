/**
 * DIY backends in Azure Blob Storage (`azblob://`), against a real Azure Blob server (Azurite:
 * scripts/azurite.mjs) holding a history real Pulumi wrote there through the Automation API. The
 * s3:// tests (s3Backend.test.ts) run once more on a container, with the same expectations:
 * `history` equals `pulumi stack history`, `backend ls` its stacks; and what quota-state writes
 * (restore, prune, upgrade, state surgery) real Pulumi reads back. Faults go through a TCP proxy
 * between the CLI and Azurite.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { runOnBackendStacks } from '../../cli/backendStacks';
import { runStateCommand, stateStackOperands } from '../../cli/commands/state';
import { realIo } from '../../cli/realIo';
import { azblobBackendStore } from '../../shared/node/azblobStore';
import { createStateService } from '../../shared/state';
import { createBackendService } from '../../shared/backend';
import { parseAzblobBackendUrl } from '../../shared/backend/azblobUrl';
import { ensureHistories, generateHistoryInBucket } from '../../scripts/pulumi-histories.mjs';
import { azuriteBackend, startAzurite, type AzuriteServer } from '../../scripts/azurite.mjs';
import { runQuotaState, runQuotaStateAsync } from '../helpers/processes';
import { dotFacts } from '../helpers/dotFacts';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-azblob-'));
let server: AzuriteServer;
let pulumiBinary: string;
let azureEnv: Record<string, string>;

/** gocloud's emulator form: the account after the domain, over http. */
const containerUrl = (container: string, host = server.host) => `azblob://${container}?localemu=true&domain=${host}&protocol=http`;

/** The CLI with the container's credentials, a home without Pulumi credentials, and no backend in the environment. */
function ours(args: string[], extra: Record<string, string> = {}) {
  const result = runQuotaState(args, { cwd: scratch, env: { ...process.env, ...azureEnv, HOME: scratch, PULUMI_BACKEND_URL: '', ...extra } });
  return { ...result, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

function pulumi(url: string, args: string[]) {
  const { env, cleanup } = hermeticEnv({ ...process.env, ...azureEnv, PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: 'history-passphrase', PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' });
  try {
    const result = spawnSync(pulumiBinary, args, { cwd: scratch, env, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  } finally {
    cleanup();
  }
}

/** The test's own view of a container, through the Azure SDK with the emulator's key (not the product's store). */
const containerOf = (name: string) => new ContainerClient(`${server.serviceUrl}/${name}`, new StorageSharedKeyCredential(server.account, server.accountKey));

async function objectsOf(container: string): Promise<string[]> {
  const names: string[] = [];
  for await (const item of containerOf(container).listBlobsFlat()) names.push(item.name);
  return names.sort();
}

async function objectText(container: string, key: string): Promise<string> {
  return (await containerOf(container).getBlobClient(key).downloadToBuffer()).toString('utf8');
}

async function putText(container: string, key: string, text: string): Promise<void> {
  await containerOf(container).getBlockBlobClient(key).upload(text, Buffer.byteLength(text));
}

/** A copy of the generated container, to change without touching the original. */
async function copyContainer(from: string, to: string): Promise<void> {
  await containerOf(to).create();
  for (const key of await objectsOf(from)) {
    const bytes = await containerOf(from).getBlobClient(key).downloadToBuffer();
    await containerOf(to).getBlockBlobClient(key).upload(bytes, bytes.length);
  }
}

describe('azblob:// backends, against a real Azurite server and real Pulumi', function () {
  this.timeout(20 * 60 * 1000);

  before(async () => {
    server = await startAzurite({ log: (line) => console.log(`      ${line}`) });
    azureEnv = azuriteBackend(server, 'hist').env;
    await containerOf('hist').create();
    const generated = generateHistoryInBucket(containerUrl('hist'), { env: azureEnv, layout: 'project', compression: 'plain', log: (line) => console.log(`      ${line}`) });
    pulumiBinary = generated.pulumi;
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('history lists the entries real `pulumi stack history --json --page-size 0` lists; backend ls its stacks', () => {
    const theirs = JSON.parse(pulumi(containerUrl('hist'), ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as Array<Record<string, unknown>>;
    const result = ours(['history', 'organization/hist/dev', '--backend', containerUrl('hist'), '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    const { entries, problems } = result.json() as { entries: Array<Record<string, unknown>>; problems: unknown[] };
    assert.deepEqual(problems, []);
    const fields = ['kind', 'startTime', 'endTime', 'message', 'environment', 'config', 'result', 'resourceChanges'];
    const pick = (entry: Record<string, unknown>) => Object.fromEntries(fields.filter((f) => entry[f] !== undefined).map((f) => [f, entry[f]]));
    assert.ok(theirs.length >= 9);
    assert.deepEqual(entries.map(pick), theirs.map(pick));

    const stacks = JSON.parse(pulumi(containerUrl('hist'), ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>;
    const listed = ours(['backend', 'ls', containerUrl('hist'), '--format', 'json', '--counts']);
    assert.equal(listed.status, 0, listed.stderr);
    const backend = listed.json() as { layout: string; stacks: Array<{ name: string; history: number; resources: number; pendingOperations: number; locks: unknown[] }> };
    assert.deepEqual(
      backend.stacks.map((s) => s.name),
      stacks.map((s) => s.name).sort(),
    );
    const exported = JSON.parse(pulumi(containerUrl('hist'), ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources?: unknown[]; pending_operations?: unknown[] } };
    assert.equal(backend.stacks[0].resources, exported.deployment.resources?.length ?? 0);
    assert.equal(backend.stacks[0].pendingOperations, exported.deployment.pending_operations?.length ?? 0);
    assert.equal(backend.stacks[0].locks.length, 1, 'the interrupted update left its lock object');
  });

  it('diff between two versions in the container, and a container version against a local file', () => {
    const diff = ours(['diff', 'organization/hist/dev@3', 'organization/hist/dev@4', '--backend', containerUrl('hist')]);
    assert.equal(diff.status, 0, diff.stderr);
    assert.match(diff.stdout, /1 renamed/);
    // Either side local: the container's current state against the same script's stack file on file://.
    const local = ensureHistories().backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const mixed = ours(['diff', 'organization/hist/dev', join(local.folder, '.pulumi', 'stacks', 'hist', 'dev.json'), '--backend', containerUrl('hist')]);
    assert.equal(mixed.status, 0, mixed.stderr);
    // Two runs of one script: the same resources, their times and the manifest differ.
    assert.doesNotMatch(mixed.stdout.split('\n')[0], /added|removed/, mixed.stdout);
  });

  it('restore: real `pulumi stack export` reads the version restored; the state it replaced is the .bak object; a lock refuses', async () => {
    await copyContainer('hist', 'restore');
    const url = containerUrl('restore');
    const before = await objectText('restore', '.pulumi/stacks/hist/dev.json');
    // The interrupted update's lock is still there: refused, naming its holder, nothing written.
    const locked = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', url]);
    assert.equal(locked.status, 1);
    assert.match(locked.stderr, /locked by 1 lock\(s\)[\s\S]*created by \S*@\S* \(pid \d+\)/);
    assert.equal(await objectText('restore', '.pulumi/stacks/hist/dev.json'), before);
    const restored = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', url, '--break-lock', '--format', 'json']);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stderr, /removing Pulumi's lock/);
    assert.equal(await objectText('restore', '.pulumi/stacks/hist/dev.json.bak'), before);
    const version3 = JSON.parse(await objectText('restore', (await objectsOf('restore')).filter((k) => k.endsWith('.checkpoint.json'))[2])) as { checkpoint: { latest: { resources: unknown[] } } };
    const exported = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: unknown[] } };
    assert.deepEqual(exported.deployment.resources, version3.checkpoint.latest.resources);
    assert.deepEqual(
      (await objectsOf('restore')).filter((k) => k.startsWith('.pulumi/locks/')),
      [],
      'no lock left behind',
    );
  });

  it('prune keeps the newest entries: real `pulumi stack history` lists them', async () => {
    await copyContainer('hist', 'prune');
    const url = containerUrl('prune');
    const all = JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    const pruned = ours(['backend', 'prune', '--backend', url, '--keep', '3', '--break-lock']);
    assert.equal(pruned.status, 0, pruned.stderr);
    const kept = JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    assert.deepEqual(kept, all.slice(0, 3));
    const left = await objectsOf('prune');
    for (const key of left.filter((k) => k.endsWith('.history.json'))) assert.ok(left.includes(key.replace('.history.json', '.checkpoint.json')), key);
  });

  it('upgrade of a legacy container leaves the objects real `pulumi state upgrade` leaves, byte for byte (the backups moved too)', async () => {
    await containerOf('legacy').create();
    generateHistoryInBucket(containerUrl('legacy'), { env: azureEnv, layout: 'legacy', compression: 'plain' });
    // As on disk: the interrupted update's lock is not part of the comparison (both would refuse).
    for (const key of (await objectsOf('legacy')).filter((k) => k.startsWith('.pulumi/locks/'))) await containerOf('legacy').getBlobClient(key).delete();
    await copyContainer('legacy', 'legacy-theirs');
    const upgraded = ours(['backend', 'upgrade', '--backend', containerUrl('legacy')]);
    assert.equal(upgraded.status, 0, upgraded.stderr);
    assert.match(upgraded.stdout, /upgraded 1 of 1 stack to the project layout/);
    pulumi(containerUrl('legacy-theirs'), ['state', 'upgrade', '--yes']);
    const movedBackups = (keys: string[]) => keys.map((k) => k.replace(/^\.pulumi\/backups\/dev\//, '.pulumi/backups/hist/dev/')).sort();
    const withoutLocks = (keys: string[]) => keys.filter((k) => !k.startsWith('.pulumi/locks/'));
    const mine = withoutLocks(await objectsOf('legacy'));
    const theirs = withoutLocks(await objectsOf('legacy-theirs'));
    assert.deepEqual(mine, movedBackups(theirs));
    for (const key of theirs) assert.equal(await objectText('legacy', movedBackups([key])[0]), await objectText('legacy-theirs', key), key);
    const history = JSON.parse(pulumi(containerUrl('legacy'), ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    assert.equal(history.length, 9);
  });

  it("the key prefix (prefix= outside the URL's path) where real Pulumi puts it; the URLs both refuse, each naming the parameter", async () => {
    await containerOf('prefixed').create();
    const project = mkdtempSync(join(scratch, 'project-'));
    writeFileSync(join(project, 'Pulumi.yaml'), 'name: p\nruntime: nodejs\n');
    const url = `azblob://prefixed/team?localemu=true&domain=${server.host}&protocol=http&prefix=outer/`;
    const { env, cleanup } = hermeticEnv({ ...process.env, ...azureEnv, PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: 'x' });
    try {
      const made = spawnSync(pulumiBinary, ['stack', 'init', 'dev'], { cwd: project, env, encoding: 'utf8' });
      assert.equal(made.status, 0, made.stderr);
    } finally {
      cleanup();
    }
    assert.ok((await objectsOf('prefixed')).includes('outer/team/.pulumi/stacks/p/dev.json'));
    const listed = ours(['backend', 'ls', url, '--format', 'json']);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(
      (listed.json() as { stacks: Array<{ name: string }> }).stacks.map((stack) => stack.name),
      ['organization/p/dev'],
    );

    const emulator = `localemu=true&domain=${server.host}&protocol=http`;
    const refused: Array<[url: string, pulumiSays: RegExp, weSay: RegExp, env?: Record<string, string>]> = [
      [`azblob://hist?${emulator}&region=x`, /unknown query parameter "region"/, /unknown query parameter "region" \(Pulumi accepts: domain, protocol, cdn, localemu, storage_account, prefix, key\)/],
      [`azblob://hist?${emulator}&prefix=`, /unknown query parameter "prefix"/, /query parameter "prefix" is empty/],
      [`azblob://hist?${emulator}&domain=x`, /multiple values of domain not allowed/, /query parameter "domain" is given 2 times/],
      [`azblob://hist?localemu=yes&domain=${server.host}&protocol=http`, /parsing "yes": invalid syntax/, /invalid value for "localemu": "yes" is not a boolean/],
      [`azblob://hist?localemu=true&domain=${server.host}&protocol=ftp`, /invalid protocol "ftp"/, /invalid protocol "ftp"/],
      [`azblob://hist?${emulator}`, /Options\.AccountName is required/, /no storage account/, { AZURE_STORAGE_ACCOUNT: '' }],
      [`azblob://hist?${emulator}&key=x`, /List not supported for SingleKey buckets/, /query parameter "key" makes gocloud read and write one object/],
    ];
    for (const [bad, pulumiSays, weSay, extra = {}] of refused) {
      const theirs = hermeticEnv({ ...process.env, ...azureEnv, ...extra, PULUMI_BACKEND_URL: bad, PULUMI_CONFIG_PASSPHRASE: 'x' });
      try {
        const result = spawnSync(pulumiBinary, ['stack', 'ls'], { cwd: project, env: theirs.env, encoding: 'utf8' });
        assert.notEqual(result.status, 0, bad);
        assert.match(result.stderr, pulumiSays, bad);
      } finally {
        theirs.cleanup();
      }
      const mine = ours(['backend', 'ls', bad], extra);
      assert.equal(mine.status, 2, bad);
      assert.match(mine.stderr, weSay, bad);
    }
  });

  it('graph of a stack in the container equals real `pulumi stack graph`', () => {
    const theirsFile = join(scratch, 'theirs.dot');
    pulumi(containerUrl('hist'), ['stack', 'graph', theirsFile, '--stack', 'organization/hist/dev']);
    const graph = ours(['graph', 'organization/hist/dev', '--backend', containerUrl('hist'), '--format', 'dot']);
    assert.equal(graph.status, 0, graph.stderr);
    assert.deepEqual(dotFacts(graph.stdout), dotFacts(readFileSync(theirsFile, 'utf8')));
  });

  it('check and state surgery name a STACK in the container: the object is edited under the lock, its .bak kept, Pulumi reads it', async () => {
    const checked = ours(['check', 'organization/hist/dev', '--backend', containerUrl('hist'), '--format', 'json']);
    assert.ok(checked.status === 0 || checked.status === 1, checked.stderr);
    assert.match(checked.stdout, /azblob:\/\/hist\/\.pulumi\/stacks\/hist\/dev\.json/);
    assert.doesNotMatch(checked.stdout + checked.stderr, /quota-state-bucket-/, 'messages name the object, not the private copy');
    // The object is read as the command's input, under its URL: SARIF's artifact is the object's URL.
    const sarif = ours(['check', 'organization/hist/dev', '--backend', containerUrl('hist'), '--format', 'sarif']);
    const [run] = (
      JSON.parse(sarif.stdout) as {
        runs: Array<{ artifacts?: Array<{ location: { uri: string } }>; results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }>;
      }
    ).runs;
    const uris = new Set(run.results.flatMap((r) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri)));
    assert.deepEqual([...uris], uris.size ? [`${containerUrl('hist').replace(/\?.*$/, '')}/.pulumi/stacks/hist/dev.json${containerUrl('hist').replace(/^[^?]*/, '')}`] : []);

    await copyContainer('hist', 'surgery');
    const url = containerUrl('surgery');
    const before = await objectText('surgery', '.pulumi/stacks/hist/dev.json');
    const exported = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string; type: string }> } };
    const target = exported.deployment.resources.find((r) => r.type.startsWith('hist:'))!;
    const removed = ours(['state', 'remove', '--backend', url, 'organization/hist/dev', target.urn, '--target-dependents', '--break-lock']);
    assert.equal(removed.status, 0, removed.stdout + removed.stderr);
    assert.equal(await objectText('surgery', '.pulumi/stacks/hist/dev.json.bak'), before);
    const after = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string }> } };
    assert.ok(!after.deployment.resources.some((r) => r.urn === target.urn), 'Pulumi no longer sees the resource');
    assert.deepEqual(
      (await objectsOf('surgery')).filter((k) => k.startsWith('.pulumi/locks/')),
      [],
    );
  });

  it("a concurrent writer between the read and the write: the write is refused, the other writer's state kept", async () => {
    await copyContainer('hist', 'race');
    // In this process, the SDK's credential chain reads this process's environment.
    Object.assign(process.env, azureEnv);
    const store = azblobBackendStore(parseAzblobBackendUrl(containerUrl('race'), azureEnv), { timeoutMs: 10_000 });
    const backend = createBackendService();
    const { parse } = createStateService();
    const read = await backend.read(store);
    const stack = read.stacks[0];
    const theirs = '{"version":3,"checkpoint":{"stack":"organization/hist/dev","latest":{}}}';
    const plan = backend.planRestore(parse(await objectText('race', '.pulumi/stacks/hist/dev.json')), stack, 'the current state');
    const bak = await objectText('race', '.pulumi/stacks/hist/dev.json.bak').catch(() => undefined);
    await assert.rejects(
      backend.applyRestore(store, stack, plan, {
        identity: { pid: process.pid, username: 'test', hostname: 'here' },
        breakLock: true,
        compress: async (bytes) => bytes,
        beforeWrite: () => putText('race', '.pulumi/stacks/hist/dev.json', theirs),
      }),
      /changed since it was read \(another writer\); nothing was written/,
    );
    assert.equal(await objectText('race', '.pulumi/stacks/hist/dev.json'), theirs);
    assert.equal(await objectText('race', '.pulumi/stacks/hist/dev.json.bak').catch(() => undefined), bak, 'the .bak object is untouched');
    store.destroy();
  });

  it('state surgery on a STACK in the container, a writer between the read and the upload: made again on its state, or refused with nothing written', async () => {
    await copyContainer('hist', 'race-state');
    Object.assign(process.env, azureEnv);
    const key = '.pulumi/stacks/hist/dev.json';
    const bak = await objectText('race-state', `${key}.bak`).catch(() => undefined);
    const theirs = (n: number) =>
      `{"version":3,"checkpoint":{"stack":"organization/hist/dev","latest":{"resources":[{"urn":"urn:pulumi:dev::hist::pulumi:pulumi:Stack::hist-dev","type":"pulumi:pulumi:Stack","custom":false}]}}}${' '.repeat(n)}`;
    /** `state protect --all` on the container's stack, in this process; `intrude` runs between the edit and its upload. */
    const protect = async (intrude: () => Promise<void>) => {
      const said: string[] = [];
      const io = { ...realIo(scratch), stdout: (text: string) => void said.push(text), stderr: (text: string) => void said.push(text) };
      const code = await runOnBackendStacks(
        ['protect', '--backend', containerUrl('race-state'), 'organization/hist/dev', '--all', '--break-lock'],
        io,
        true,
        (args, io, stacks) => runStateCommand(args, io, stacks, { edited: intrude }),
        stateStackOperands,
      );
      return { code, said: said.join('\n') };
    };
    const locks = async () => (await objectsOf('race-state')).filter((k) => k.startsWith('.pulumi/locks/'));

    // Another writer that keeps replacing the object: refused once the retries are spent, its state kept, the .bak untouched.
    let writes = 0;
    const refused = await protect(() => putText('race-state', key, theirs(++writes)));
    assert.equal(refused.code, 1, refused.said);
    assert.match(refused.said, /hist\/dev\.json changed since it was read \(another writer\); nothing was written/);
    assert.ok(writes > 1, 'tried again meanwhile');
    assert.equal(await objectText('race-state', key), theirs(writes));
    assert.equal(await objectText('race-state', `${key}.bak`).catch(() => undefined), bak, 'the .bak object is untouched');
    assert.deepEqual(await locks(), []);

    // A writer that comes once: the edit is made again on its state, nothing lost.
    let once = false;
    const redone = await protect(async () => {
      if (once) return;
      once = true;
      await putText('race-state', key, theirs(0));
    });
    assert.equal(redone.code, 0, redone.said);
    assert.equal(await objectText('race-state', `${key}.bak`), theirs(0), 'the .bak is the state the edit was made on');
    const after = JSON.parse(await objectText('race-state', key)) as { checkpoint: { latest: { resources: Array<{ urn: string; protect?: boolean }> } } };
    assert.deepEqual(
      after.checkpoint.latest.resources.map((r) => [r.urn, r.protect]),
      [['urn:pulumi:dev::hist::pulumi:pulumi:Stack::hist-dev', true]],
    );
    assert.deepEqual(await locks(), []);
  });

  describe('faults, through a TCP proxy between the CLI and Azurite', () => {
    let proxy: FaultProxy;
    before(async () => {
      proxy = await startFaultProxy({ host: '127.0.0.1', port: server.port });
    });
    after(async () => proxy?.close());
    const viaProxy = (container: string) => containerUrl(container, `127.0.0.1:${proxy.port}`);

    it('wrong credentials and an unknown container: a clear message naming the backend, exit 2', () => {
      const wrongKey = Buffer.from('not the emulator key, not the secret').toString('base64');
      const refused = ours(['backend', 'ls', containerUrl('hist')], { AZURE_STORAGE_KEY: wrongKey });
      assert.equal(refused.status, 2);
      assert.match(refused.stderr, /azblob:\/\/hist at http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/hist refused the credentials \((AuthorizationFailure|AuthenticationFailed|403)\)/);
      assert.ok(!refused.stderr.includes(wrongKey.slice(0, 16)), 'the key is never shown');
      const unknown = ours(['backend', 'ls', containerUrl('no-such-container')]);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /there is no container in azblob:\/\/no-such-container at http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/no-such-container/);
    });

    it('a stalled server: a bounded, configurable timeout', async () => {
      proxy.stall();
      try {
        const stalled = await runQuotaStateAsync(['backend', 'ls', viaProxy('hist')], { cwd: scratch, env: { ...process.env, ...azureEnv, HOME: scratch, QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '1' } });
        assert.equal(stalled.status, 2, stalled.stderr);
        assert.match(
          stalled.stderr,
          /listing \.pulumi\/: azblob:\/\/hist at http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/hist did not answer within 1 s \(QUOTA_STATE_REMOTE_TIMEOUT_SECONDS sets the limit\)/,
        );
      } finally {
        proxy.pass();
      }
    });

    it('a connection cut in the middle of a restore: the old state intact, nothing lost', async () => {
      await copyContainer('hist', 'cut');
      const before = await objectText('cut', '.pulumi/stacks/hist/dev.json');
      // Every PUT of the stack object is cut midway (the retry too); the .bak and the lock pass.
      proxy.cut({ when: /^PUT \/devstoreaccount1\/cut\/\.pulumi\/stacks\/hist\/dev\.json(\?|$)/, afterBytes: 200 });
      try {
        const result = await runQuotaStateAsync(['restore', 'organization/hist/dev', '--to', '3', '--backend', viaProxy('cut'), '--break-lock'], {
          cwd: scratch,
          env: { ...process.env, ...azureEnv, HOME: scratch, QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '5' },
        });
        assert.equal(result.status, 2, result.stderr);
      } finally {
        proxy.pass();
      }
      assert.equal(await objectText('cut', '.pulumi/stacks/hist/dev.json'), before, 'the stack object is intact');
      assert.deepEqual(
        (await objectsOf('cut')).filter((k) => k.startsWith('.pulumi/locks/')),
        [],
        'our lock was removed',
      );
      // Real Pulumi still reads it.
      pulumi(containerUrl('cut'), ['stack', 'export', '--stack', 'organization/hist/dev']);
    });

    it('a connection cut in the middle of a state surgery: the stack object intact, the failure named', async () => {
      const before = await objectText('cut', '.pulumi/stacks/hist/dev.json');
      const exported = JSON.parse(pulumi(containerUrl('cut'), ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string; type: string }> } };
      const target = exported.deployment.resources.find((r) => r.type.startsWith('hist:'))!;
      proxy.cut({ when: /^PUT \/devstoreaccount1\/cut\/\.pulumi\/stacks\/hist\/dev\.json(\?|$)/, afterBytes: 200 });
      try {
        const result = await runQuotaStateAsync(['state', 'remove', '--backend', viaProxy('cut'), 'organization/hist/dev', target.urn, '--target-dependents', '--break-lock'], {
          cwd: scratch,
          env: { ...process.env, ...azureEnv, HOME: scratch, QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '5' },
        });
        assert.equal(result.status, 2, result.stdout + result.stderr);
        assert.match(result.stderr, /\.pulumi\/stacks\/hist\/dev\.json: azblob:\/\/cut at http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/cut/);
      } finally {
        proxy.pass();
      }
      assert.equal(await objectText('cut', '.pulumi/stacks/hist/dev.json'), before, 'the stack object is intact');
      assert.deepEqual(
        (await objectsOf('cut')).filter((k) => k.startsWith('.pulumi/locks/')),
        [],
      );
    });
  });
});
