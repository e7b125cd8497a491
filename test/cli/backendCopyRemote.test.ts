/**
 * `quota-state backend copy` between the remote stores and a folder, judged by real Pulumi v3.274.1
 * as backendCopy.test.ts judges file↔s3: file→postgres, postgres→file, file→azblob, azblob→gs and
 * s3→postgres (each server started once: PostgreSQL, Azurite, fake-gcs-server, MinIO), on histories
 * real Pulumi wrote (the cached folders, and one history generated in the database and one in the
 * container): `pulumi stack history --json --page-size 0` on DST lists the same entries as on SRC,
 * `pulumi stack export` is equal, `pulumi stack tag ls` lists the same tags. On postgres: `stack rm`
 * then `stack restore-deleted`, and `stack rename`, each read back by real Pulumi with its history.
 * And a file→postgres copy killed after N writes (N seeded): a rerun finishes it, and the table never
 * holds a stack file whose history is missing.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories, generateHistoryInBucket } from '../../scripts/pulumi-histories.mjs';
import { startPostgres, type PostgresServer } from '../../scripts/postgres.mjs';
import { azuriteBackend, createContainer, startAzurite, type AzuriteServer } from '../../scripts/azurite.mjs';
import { startFakeGcs, type FakeGcsServer } from '../../scripts/fake-gcs.mjs';
import { createBucket, startMinio, type MinioServer } from '../../scripts/minio.mjs';
import { runQuotaState } from '../helpers/processes';
import { mulberry32 } from '../helpers/prng';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-copy-remote-'));
const STACK = 'organization/hist/dev';
let generated: ReturnType<typeof ensureHistories>;
let postgres: PostgresServer | undefined;
let azurite: AzuriteServer | undefined;
let gcs: FakeGcsServer | undefined;
let minio: MinioServer | undefined;
let client: Client | undefined;
/** Every server's credentials and addresses, for ours and for Pulumi alike. */
let remoteEnv: Record<string, string> = {};

/** A table of the `hist` database (keys prefixed `hist/`); Pulumi's own is `pulumi_state`. */
const pgUrl = (table = 'pulumi_state') => `postgres://${postgres!.superuser}@127.0.0.1:${postgres!.port}/hist?sslmode=disable${table === 'pulumi_state' ? '' : `&table=${table}`}`;
const azUrl = (container: string) => azuriteBackend(azurite!, container).url;
const s3Url = (bucket: string) => `s3://${bucket}?endpoint=${minio!.endpoint}&s3ForcePathStyle=true&region=us-east-1`;

const env = (extra: Record<string, string> = {}) => ({ ...process.env, ...remoteEnv, HOME: scratch, PULUMI_BACKEND_URL: '', PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true', ...extra });
const ours = (args: string[], extra: Record<string, string> = {}) => runQuotaState(args, { cwd: scratch, env: env(extra) });

function pulumi(url: string, args: string[]): string {
  const { env: hermetic, cleanup } = hermeticEnv({
    ...process.env,
    ...remoteEnv,
    PULUMI_BACKEND_URL: url,
    PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
    PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
  });
  try {
    const result = spawnSync(generated.pulumi, args, { cwd: scratch, env: hermetic, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')} on ${url}: ${result.stderr}`);
    return result.stdout;
  } finally {
    cleanup();
  }
}

/** What real Pulumi says of a stack: its history, its export, its tags. */
function judged(url: string, stack = STACK) {
  return {
    history: JSON.parse(pulumi(url, ['stack', 'history', '--json', '--page-size', '0', '--stack', stack])) as unknown[],
    exported: pulumi(url, ['stack', 'export', '--stack', stack]),
    tags: pulumi(url, ['stack', 'tag', 'ls', '--json', '--stack', stack]),
  };
}

const stacksOf = (url: string) => (JSON.parse(pulumi(url, ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>).map((s) => s.name);

/** A copy of a cached generated folder, without the interrupted update's lock (a copy holds each stack's lock). */
function copyOf(variant: string, name: string): string {
  const folder = join(scratch, name);
  cpSync(generated.backends.find((b) => `${b.layout}-${b.compression}` === variant)!.folder, folder, { recursive: true });
  rmSync(join(folder, '.pulumi', 'locks'), { recursive: true, force: true });
  return folder;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every file of a folder (gocloud's sidecars aside) with its hash. */
function tree(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.attrs'))
      .map((e) => [relative(folder, join(e.parentPath, e.name)), sha(readFileSync(join(e.parentPath, e.name)))]),
  );
}

/** Every row of a table, as the test's own pg client sees it (not the product's store): names without `hist/`, with the hash of their bytes. */
async function rowsOf(table: string): Promise<Map<string, string>> {
  const { rows } = await client!.query<{ key: string; data: string }>(`SELECT key, data->>'data' AS data FROM ${table}`);
  return new Map(rows.map((row) => [row.key.replace(/^hist\//, ''), sha(Buffer.from(row.data, 'base64'))]));
}

/** DST holds no stack file whose history (every entry and checkpoint of SRC) is not all there, byte for byte. */
function assertHistoryWhole(src: Map<string, string>, dst: Map<string, string>, round: string): void {
  if (![...dst.keys()].some((name) => /^\.pulumi\/stacks\/hist\/dev\.json/.test(name))) return;
  for (const [name, hash] of src) if (name.startsWith('.pulumi/history/')) assert.equal(dst.get(name), hash, `${round}: DST holds the stack file without ${name}`);
}

/** Copies SRC to DST and asserts it was verified. */
function copied(src: string, dst: string, ...flags: string[]) {
  const result = ours(['backend', 'copy', src, dst, ...flags]);
  assert.equal(result.status, 0, `copy ${src} → ${dst}: ${result.stderr}`);
  assert.match(result.stdout, /copied 1 stacks: \d+ objects written, \d+ skipped .*all verified/);
  return result;
}

async function startServers(): Promise<void> {
  const log = (line: string) => console.log(`      ${line}`);
  [postgres, azurite, gcs] = await Promise.all([startPostgres({ log }), startAzurite({ log }), startFakeGcs({ log, buckets: ['copied'] })]);
  postgres.createDatabase('hist');
  client = new Client({ host: '127.0.0.1', port: postgres.port, user: postgres.superuser, database: 'hist', ssl: false });
  await client.connect();
  remoteEnv = { ...azuriteBackend(azurite, 'hist').env, STORAGE_EMULATOR_HOST: gcs.host, GOOGLE_OAUTH_ACCESS_TOKEN: 'x' };
  await createContainer(azurite, 'hist');
  await createContainer(azurite, 'copied');
}

describe('quota-state backend copy between remote stores, against real Pulumi and real servers', function () {
  this.timeout(30 * 60 * 1000);
  before(async () => {
    generated = ensureHistories();
    await startServers();
    // One history real Pulumi wrote in each remote source: the database's table and the container.
    generateHistoryInBucket(pgUrl(), { env: remoteEnv, layout: 'project', compression: 'plain', log: (line) => console.log(`      ${line}`) });
    generateHistoryInBucket(azUrl('hist'), { env: remoteEnv, layout: 'project', compression: 'plain', log: (line) => console.log(`      ${line}`) });
  });
  after(async () => {
    await client?.end();
    await Promise.all([postgres?.stop(), azurite?.stop(), gcs?.stop(), minio?.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('file→postgres and postgres→file: real Pulumi reads the same history, export and tags; a rerun skips every object', () => {
    const src = copyOf('project-gzip', 'pg-src');
    pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-pg']);
    const before = tree(src);
    const expected = judged(`file://${src}`);
    copied(`file://${src}`, pgUrl('copied'));
    assert.deepEqual(judged(pgUrl('copied')), expected);
    assert.match(expected.tags, /team-pg/);
    const again = copied(`file://${src}`, pgUrl('copied'));
    assert.match(again.stdout, /0 objects written, \d+ skipped \(already in DST with the same bytes\)/);
    assert.deepEqual(tree(src), before, 'SRC untouched');

    // The table Pulumi itself wrote, its interrupted update's lock broken, back into a folder.
    pulumi(pgUrl(), ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-db']);
    const theirs = judged(pgUrl());
    const back = join(scratch, 'pg-back');
    copied(pgUrl(), `file://${back}`, '--break-lock');
    assert.deepEqual(judged(`file://${back}`), theirs);
    assert.match(theirs.tags, /team-db/);
  });

  it('file→azblob and azblob→gs: real Pulumi reads the same history, export and tags from the container and the bucket', () => {
    const src = copyOf('project-zstd', 'az-src');
    pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-az']);
    const expected = judged(`file://${src}`);
    copied(`file://${src}`, azUrl('copied'));
    assert.deepEqual(judged(azUrl('copied')), expected);

    // The container Pulumi itself wrote, into a GCS bucket.
    pulumi(azUrl('hist'), ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-gs']);
    const theirs = judged(azUrl('hist'));
    copied(azUrl('hist'), 'gs://copied', '--break-lock');
    assert.deepEqual(judged('gs://copied'), theirs);
    assert.match(theirs.tags, /team-gs/);
    assert.match(copied(azUrl('hist'), 'gs://copied').stdout, /0 objects written/);
  });

  it('s3→postgres: a bucket (filled from a folder) into a table; real Pulumi reads the same history, export and tags', async () => {
    minio = await startMinio();
    remoteEnv = { ...remoteEnv, AWS_ACCESS_KEY_ID: minio.accessKey, AWS_SECRET_ACCESS_KEY: minio.secretKey, AWS_REGION: 'us-east-1' };
    await createBucket(minio, 'hist');
    const src = copyOf('project-plain', 's3-src');
    pulumi(`file://${src}`, ['stack', 'tag', 'set', '--stack', STACK, 'owner', 'team-s3']);
    copied(`file://${src}`, s3Url('hist'));
    const expected = judged(s3Url('hist'));
    copied(s3Url('hist'), pgUrl('from_s3'));
    assert.deepEqual(judged(pgUrl('from_s3')), expected);
    assert.deepEqual(expected, judged(`file://${src}`));
  });

  it('postgres: stack rm then restore-deleted, real Pulumi reads it back with its history; stack rename, Pulumi loads the renamed stack with its history', async () => {
    await client!.query(`CREATE TABLE lifecycle (LIKE pulumi_state INCLUDING ALL); INSERT INTO lifecycle SELECT * FROM pulumi_state WHERE key NOT LIKE 'hist/.pulumi/locks/%'`);
    const url = pgUrl('lifecycle');
    const expected = judged(url);
    assert.ok(expected.history.length >= 9);
    const removed = ours(['stack', 'rm', STACK, '--backend', url, '--force']);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /has been removed: \d+ objects \(\d+ history entries\) are kept in \.pulumi\/deleted\//);
    assert.deepEqual(stacksOf(url), []);
    const restored = ours(['stack', 'restore-deleted', STACK, '--backend', url]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, new RegExp(`recovered: ${expected.history.length} history entries, \\d+ backups, the tags`));
    assert.deepEqual(judged(url), expected);

    const renamed = ours(['stack', 'rename', STACK, 'prod', '--backend', url]);
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.deepEqual(stacksOf(url), ['organization/hist/prod']);
    const after = judged(url, 'organization/hist/prod');
    assert.deepEqual(after.history, expected.history);
    assert.equal(after.tags, expected.tags);
    const resources = (JSON.parse(after.exported) as { deployment: { resources: Array<{ urn: string }> } }).deployment.resources;
    assert.ok(resources.length > 0 && resources.every((r) => r.urn.startsWith('urn:pulumi:prod::hist::')));
  });

  it('file→postgres killed after N writes (N seeded, 5 rounds): a rerun finishes it; the table never holds a stack file without its history; SRC untouched', async () => {
    const src = copyOf('project-gzip', 'kill-src');
    const before = tree(src);
    const random = mulberry32(5656);
    for (let round = 0; round < 5; round++) {
      const table = `killed_${round}`;
      // DST sees 31 writes: meta.yaml, the lock, 29 objects (the stack file last).
      const n = 1 + Math.floor(random() * 31);
      const killed = ours(['backend', 'copy', `file://${src}`, pgUrl(table)], { QUOTA_STATE_TEST_KILL_AFTER_WRITES: String(n) });
      assert.notEqual(killed.status, 0, `round ${round}: killed after ${n} writes`);
      assertHistoryWhole(before, await rowsOf(table), `round ${round} (killed after ${n} writes)`);
      // The killed copy's lock row is left behind, as a killed process leaves it.
      const rerun = copied(`file://${src}`, pgUrl(table), '--break-lock');
      assert.match(rerun.stdout, /all verified/);
      const rows = await rowsOf(table);
      assertHistoryWhole(before, rows, `round ${round}, rerun`);
      for (const [name, hash] of before) if (/^\.pulumi\/(stacks|history|backups)\//.test(name)) assert.equal(rows.get(name), hash, `round ${round}: ${name}`);
      assert.deepEqual(tree(src), before, `round ${round}: SRC untouched`);
      if (round === 0) assert.deepEqual(judged(pgUrl(table)), judged(`file://${src}`));
    }
  });
});
