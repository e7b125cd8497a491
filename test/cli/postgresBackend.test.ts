/**
 * DIY backends in PostgreSQL (`postgres://`), against a real PostgreSQL server (scripts/postgres.mjs)
 * holding a history real Pulumi wrote there through the Automation API. The s3:// tests run once more
 * on the database, with the same expectations: `history` equals `pulumi stack history`, `backend ls`
 * its stacks; and what quota-state writes (restore, prune, upgrade, surgery) real Pulumi reads back.
 * Each scenario works on its own copy of Pulumi's table (`?table=NAME`, one SQL statement to copy),
 * so every key keeps the prefix Pulumi gave it (the database name, `hist/`). Faults: a wrong password,
 * TLS asked of a server without it, a missing database, a writer between the read and the write, the
 * server stopped in the middle of a restore, a stalled server (a TCP proxy between the CLI and it).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { createStateService } from '../../shared/state';
import { createBackendService, objectUrl, parsePostgresBackendUrl } from '../../shared/backend';
import { postgresBackendStore } from '../../shared/node/postgresStore';
import { ensureHistories, generateHistoryInBucket } from '../../scripts/pulumi-histories.mjs';
import { startPostgres, type PostgresServer } from '../../scripts/postgres.mjs';
import { runQuotaState, runQuotaStateAsync } from '../helpers/processes';
import { dotFacts } from '../helpers/dotFacts';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-postgres-cli-'));
let server: PostgresServer;
let pulumiBinary: string;
let client: Client;
const STACK_FILE = '.pulumi/stacks/hist/dev.json';

/** A table of the `hist` database as a backend URL; Pulumi's own table is `pulumi_state`. */
const urlOf = (table = 'pulumi_state', { port = server.port, database = 'hist', query = 'sslmode=disable' } = {}) =>
  `postgres://${server.superuser}@127.0.0.1:${port}/${database}?${query}${table === 'pulumi_state' ? '' : `&table=${table}`}`;

/** The CLI with a home without Pulumi credentials and no backend in the environment. */
function ours(args: string[], extra: Record<string, string> = {}) {
  const result = runQuotaState(args, { cwd: scratch, env: { ...process.env, HOME: scratch, PULUMI_BACKEND_URL: '', ...extra } });
  return { ...result, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

function pulumi(url: string, args: string[]) {
  const { env, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: 'history-passphrase', PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' });
  try {
    const result = spawnSync(pulumiBinary, args, { cwd: scratch, env, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  } finally {
    cleanup();
  }
}

/** The test's own view of a table (its pg client, not the product's store): names without the `hist/` prefix, in byte order. */
async function objectsOf(table: string): Promise<string[]> {
  const { rows } = await client.query<{ key: string }>(`SELECT key FROM ${table} ORDER BY key COLLATE "C"`);
  return rows.map((row) => row.key.replace(/^hist\//, ''));
}

async function objectText(table: string, name: string): Promise<string | undefined> {
  const { rows } = await client.query<{ data: string }>(`SELECT data->>'data' AS data FROM ${table} WHERE key = $1`, [`hist/${name}`]);
  return rows[0] && Buffer.from(rows[0].data, 'base64').toString('utf8');
}

/** Another writer: the row replaced as Pulumi's driver replaces it. */
async function putObject(table: string, name: string, text: string): Promise<void> {
  await client.query(`INSERT INTO ${table} (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = $2, updated_at = now()`, [
    `hist/${name}`,
    JSON.stringify({ data: Buffer.from(text).toString('base64') }),
  ]);
}

/** A copy of Pulumi's table (with its index), to change without touching the original. */
async function copyTable(from: string, to: string): Promise<void> {
  await client.query(`CREATE TABLE ${to} (LIKE ${from} INCLUDING ALL); INSERT INTO ${to} SELECT * FROM ${from}`);
}

const locksOf = async (table: string) => (await objectsOf(table)).filter((k) => k.startsWith('.pulumi/locks/'));

describe('postgres:// backends, against a real PostgreSQL server and real Pulumi', function () {
  this.timeout(20 * 60 * 1000);

  before(async () => {
    server = await startPostgres({ log: (line) => console.log(`      ${line}`) });
    server.createDatabase('hist');
    client = new Client({ host: '127.0.0.1', port: server.port, user: server.superuser, database: 'hist', ssl: false });
    await client.connect();
    const generated = generateHistoryInBucket(urlOf(), { env: {}, layout: 'project', compression: 'plain', log: (line) => console.log(`      ${line}`) });
    pulumiBinary = generated.pulumi;
  });
  after(async () => {
    await client?.end();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("Pulumi's rows: one per object, every key prefixed with the database name", async () => {
    const { rows } = await client.query<{ key: string }>('SELECT key FROM pulumi_state ORDER BY key COLLATE "C"');
    assert.ok(rows.length > 20);
    assert.ok(
      rows.every((row) => row.key.startsWith('hist/.pulumi/')),
      rows.map((r) => r.key).join('\n'),
    );
    assert.ok(rows.some((row) => row.key === `hist/${STACK_FILE}`));
  });

  it('history lists the entries real `pulumi stack history --json --page-size 0` lists; backend ls its stacks', () => {
    const theirs = JSON.parse(pulumi(urlOf(), ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as Array<Record<string, unknown>>;
    const result = ours(['history', 'organization/hist/dev', '--backend', urlOf(), '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    const { entries, problems } = result.json() as { entries: Array<Record<string, unknown>>; problems: unknown[] };
    assert.deepEqual(problems, []);
    const fields = ['kind', 'startTime', 'endTime', 'message', 'environment', 'config', 'result', 'resourceChanges'];
    const pick = (entry: Record<string, unknown>) => Object.fromEntries(fields.filter((f) => entry[f] !== undefined).map((f) => [f, entry[f]]));
    assert.ok(theirs.length >= 9);
    assert.deepEqual(entries.map(pick), theirs.map(pick));

    const stacks = JSON.parse(pulumi(urlOf(), ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>;
    const listed = ours(['backend', 'ls', urlOf(), '--format', 'json', '--counts']);
    assert.equal(listed.status, 0, listed.stderr);
    const backend = listed.json() as { stacks: Array<{ name: string; resources: number; pendingOperations: number; locks: unknown[] }> };
    assert.deepEqual(
      backend.stacks.map((s) => s.name),
      stacks.map((s) => s.name).sort(),
    );
    const exported = JSON.parse(pulumi(urlOf(), ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources?: unknown[]; pending_operations?: unknown[] } };
    assert.equal(backend.stacks[0].resources, exported.deployment.resources?.length ?? 0);
    assert.equal(backend.stacks[0].pendingOperations, exported.deployment.pending_operations?.length ?? 0);
    assert.equal(backend.stacks[0].locks.length, 1, 'the interrupted update left its lock object');
  });

  it('diff between two versions in the database, and a database version against a local file', () => {
    const diff = ours(['diff', 'organization/hist/dev@3', 'organization/hist/dev@4', '--backend', urlOf()]);
    assert.equal(diff.status, 0, diff.stderr);
    assert.match(diff.stdout, /1 renamed/);
    const local = ensureHistories().backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
    const mixed = ours(['diff', 'organization/hist/dev', join(local.folder, '.pulumi', 'stacks', 'hist', 'dev.json'), '--backend', urlOf()]);
    assert.equal(mixed.status, 0, mixed.stderr);
    assert.doesNotMatch(mixed.stdout.split('\n')[0], /added|removed/, mixed.stdout);
  });

  it('restore: real `pulumi stack export` reads the version restored; the state it replaced is the .bak row; a lock refuses', async () => {
    await copyTable('pulumi_state', 'restore');
    const url = urlOf('restore');
    const before = await objectText('restore', STACK_FILE);
    const locked = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', url]);
    assert.equal(locked.status, 1);
    assert.match(locked.stderr, /locked by 1 lock\(s\)[\s\S]*created by \S*@\S* \(pid \d+\)/);
    assert.equal(await objectText('restore', STACK_FILE), before);
    const restored = ours(['restore', 'organization/hist/dev', '--to', '3', '--backend', url, '--break-lock', '--format', 'json']);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stderr, /removing Pulumi's lock/);
    assert.equal(await objectText('restore', `${STACK_FILE}.bak`), before);
    const checkpoints = (await objectsOf('restore')).filter((k) => k.endsWith('.checkpoint.json'));
    const version3 = JSON.parse((await objectText('restore', checkpoints[2]))!) as { checkpoint: { latest: { resources: unknown[] } } };
    const exported = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: unknown[] } };
    assert.deepEqual(exported.deployment.resources, version3.checkpoint.latest.resources);
    assert.deepEqual(await locksOf('restore'), [], 'no lock left behind');
  });

  it('prune keeps the newest entries: real `pulumi stack history` lists them', async () => {
    await copyTable('pulumi_state', 'prune');
    const url = urlOf('prune');
    const all = JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    const pruned = ours(['backend', 'prune', '--backend', url, '--keep', '3', '--break-lock']);
    assert.equal(pruned.status, 0, pruned.stderr);
    const kept = JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    assert.deepEqual(kept, all.slice(0, 3));
    const left = await objectsOf('prune');
    for (const key of left.filter((k) => k.endsWith('.history.json'))) assert.ok(left.includes(key.replace('.history.json', '.checkpoint.json')), key);
  });

  it('upgrade of a legacy backend leaves the rows real `pulumi state upgrade` leaves, byte for byte (the backups moved too)', async () => {
    generateHistoryInBucket(urlOf('legacy'), { env: {}, layout: 'legacy', compression: 'plain' });
    await client.query(`DELETE FROM legacy WHERE key LIKE 'hist/.pulumi/locks/%'`);
    await copyTable('legacy', 'legacy_theirs');
    const upgraded = ours(['backend', 'upgrade', '--backend', urlOf('legacy')]);
    assert.equal(upgraded.status, 0, upgraded.stderr);
    assert.match(upgraded.stdout, /upgraded 1 of 1 stack to the project layout/);
    pulumi(urlOf('legacy_theirs'), ['state', 'upgrade', '--yes']);
    const movedBackups = (keys: string[]) => keys.map((k) => k.replace(/^\.pulumi\/backups\/dev\//, '.pulumi/backups/hist/dev/')).sort();
    const withoutLocks = (keys: string[]) => keys.filter((k) => !k.startsWith('.pulumi/locks/'));
    const mine = withoutLocks(await objectsOf('legacy'));
    const theirs = withoutLocks(await objectsOf('legacy_theirs'));
    assert.deepEqual(mine, movedBackups(theirs));
    for (const key of theirs) assert.equal(await objectText('legacy', movedBackups([key])[0]), await objectText('legacy_theirs', key), key);
    const history = JSON.parse(pulumi(urlOf('legacy'), ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev'])) as unknown[];
    assert.equal(history.length, 9);
  });

  it('graph of a stack in the database equals real `pulumi stack graph`', () => {
    const theirsFile = join(scratch, 'theirs.dot');
    pulumi(urlOf(), ['stack', 'graph', theirsFile, '--stack', 'organization/hist/dev']);
    const graph = ours(['graph', 'organization/hist/dev', '--backend', urlOf(), '--format', 'dot']);
    assert.equal(graph.status, 0, graph.stderr);
    assert.deepEqual(dotFacts(graph.stdout), dotFacts(readFileSync(theirsFile, 'utf8')));
  });

  it('check and state surgery name a STACK in the database: the row is edited under the lock, its .bak kept, Pulumi reads it', async () => {
    const sarif = ours(['check', 'organization/hist/dev', '--backend', urlOf(), '--format', 'sarif']);
    assert.ok(sarif.status === 0 || sarif.status === 1, sarif.stderr);
    const [run] = (JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> }).runs;
    const uris = new Set(run.results.flatMap((r) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri)));
    assert.deepEqual([...uris], uris.size ? [objectUrl(urlOf(), STACK_FILE)] : []);

    await copyTable('pulumi_state', 'surgery');
    const url = urlOf('surgery');
    const before = await objectText('surgery', STACK_FILE);
    const exported = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string; type: string }> } };
    const target = exported.deployment.resources.find((r) => r.type.startsWith('hist:'))!;
    const removed = ours(['state', 'remove', '--backend', url, 'organization/hist/dev', target.urn, '--target-dependents', '--break-lock']);
    assert.equal(removed.status, 0, removed.stdout + removed.stderr);
    assert.equal(await objectText('surgery', `${STACK_FILE}.bak`), before);
    const after = JSON.parse(pulumi(url, ['stack', 'export', '--stack', 'organization/hist/dev'])) as { deployment: { resources: Array<{ urn: string }> } };
    assert.ok(!after.deployment.resources.some((r) => r.urn === target.urn), 'Pulumi no longer sees the resource');
    assert.deepEqual(await locksOf('surgery'), []);
  });

  it("a concurrent writer between the read and the write: the write is refused, the other writer's state kept", async () => {
    await copyTable('pulumi_state', 'race');
    const store = postgresBackendStore(parsePostgresBackendUrl(urlOf('race')), { timeoutMs: 10_000 });
    try {
      const backend = createBackendService();
      const { parse } = createStateService();
      const stack = (await backend.read(store)).stacks[0];
      const theirs = '{"version":3,"checkpoint":{"stack":"organization/hist/dev","latest":{}}}';
      const plan = backend.planRestore(parse((await objectText('race', STACK_FILE))!), stack, 'the current state');
      const bak = await objectText('race', `${STACK_FILE}.bak`);
      await assert.rejects(
        backend.applyRestore(store, stack, plan, {
          identity: { pid: process.pid, username: 'test', hostname: 'here' },
          breakLock: true,
          compress: async (bytes) => bytes,
          beforeWrite: () => putObject('race', STACK_FILE, theirs),
        }),
        /changed since it was read \(another writer\); nothing was written/,
      );
      assert.equal(await objectText('race', STACK_FILE), theirs);
      assert.equal(await objectText('race', `${STACK_FILE}.bak`), bak, 'the .bak row is untouched');
      assert.deepEqual(await locksOf('race'), []);
    } finally {
      store.destroy();
    }
  });

  describe('faults', () => {
    it('a wrong password, a missing database, TLS asked of a server without it: a clear message naming the backend, exit 2, no password', () => {
      server.createRole('reader', 'right-password', 'hist');
      const refused = ours(['backend', 'ls', `postgres://reader:not-the-password@127.0.0.1:${server.port}/hist?sslmode=disable`]);
      assert.equal(refused.status, 2, refused.stderr);
      assert.match(refused.stderr, /postgres:\/\/reader@127\.0\.0\.1:\d+\/hist\?sslmode=disable refused the credentials \(password authentication failed for user "reader"\)/);
      assert.doesNotMatch(refused.stdout + refused.stderr, /not-the-password/);
      const fromEnv = ours(['backend', 'ls', `postgres://reader@127.0.0.1:${server.port}/hist?sslmode=disable`], { PGPASSWORD: 'wrong-again' });
      assert.equal(fromEnv.status, 2);
      assert.doesNotMatch(fromEnv.stdout + fromEnv.stderr, /wrong-again/);

      const missing = ours(['backend', 'ls', urlOf('pulumi_state', { database: 'no_such_db' })]);
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /\/no_such_db\?sslmode=disable: there is no database "no_such_db"/);

      const tls = ours(['backend', 'ls', urlOf('pulumi_state', { query: '' }).replace(/\?$/, '')]);
      assert.equal(tls.status, 2);
      assert.match(tls.stderr, /sslmode defaults to "require".*add sslmode=disable/);
    });

    it('a stalled server: a bounded, configurable timeout', async () => {
      const proxy: FaultProxy = await startFaultProxy({ host: '127.0.0.1', port: server.port });
      proxy.stall();
      try {
        const stalled = await runQuotaStateAsync(['backend', 'ls', urlOf('pulumi_state', { port: proxy.port })], {
          cwd: scratch,
          env: { ...process.env, HOME: scratch, QUOTA_STATE_REMOTE_TIMEOUT_SECONDS: '1' },
        });
        assert.equal(stalled.status, 2, stalled.stderr);
        assert.match(stalled.stderr, /did not answer within 1 s/);
      } finally {
        proxy.pass();
        await proxy.close();
      }
    });

    it('the server stopped in the middle of a restore: the stack row intact, the failure named, Pulumi reads it once the server is back', async () => {
      await copyTable('pulumi_state', 'halted');
      const before = await objectText('halted', STACK_FILE);
      await client.end();
      const store = postgresBackendStore(parsePostgresBackendUrl(urlOf('halted')), { timeoutMs: 10_000 });
      try {
        const backend = createBackendService();
        const { parse } = createStateService();
        const stack = (await backend.read(store)).stacks[0];
        const plan = backend.planRestore(parse(before!), stack, 'the current state');
        await assert.rejects(
          backend.applyRestore(store, stack, plan, {
            identity: { pid: process.pid, username: 'test', hostname: 'here' },
            breakLock: true,
            compress: async (bytes) => bytes,
            beforeWrite: () => server.halt(),
          }),
          (error: Error) => {
            assert.match(error.message, /postgres:\/\/quota@127\.0\.0\.1:\d+\/hist\?sslmode=disable&table=halted/);
            return true;
          },
        );
      } finally {
        store.destroy();
        await server.start();
        client = new Client({ host: '127.0.0.1', port: server.port, user: server.superuser, database: 'hist', ssl: false });
        await client.connect();
      }
      assert.equal(await objectText('halted', STACK_FILE), before, 'the stack row is intact');
      pulumi(urlOf('halted'), ['stack', 'export', '--stack', 'organization/hist/dev']);
    });
  });
});
