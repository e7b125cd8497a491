/**
 * A bucket at scale, on a real MinIO: 1,000 stacks and 20,000 history entries (41,001 objects,
 * test/helpers/s3Scale.ts). `backend ls` pages through ListObjectsV2's continuation tokens (1,000
 * keys a page) and lists every stack with its history count; `history` of one stack reads its 20
 * entries, newest first. Their times and peak RSS beside file:// are in `npm run bench`.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBucket, startMinio, type MinioServer } from '../../scripts/minio.mjs';
import { runQuotaState } from '../helpers/processes';
import { fillScaleBackend } from '../helpers/s3Scale';

describe('an s3:// bucket of 1,000 stacks and 20,000 history entries (MinIO)', function () {
  this.timeout(20 * 60 * 1000);
  let server: MinioServer;
  let url: string;
  let env: NodeJS.ProcessEnv;
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-s3-scale-'));

  before(async () => {
    server = await startMinio();
    await createBucket(server, 'scale');
    const filled = await fillScaleBackend(server, 'scale');
    assert.deepEqual(filled, { stacks: 1000, entries: 20000, objects: 41001 });
    url = `s3://scale?endpoint=${server.endpoint}&s3ForcePathStyle=true&region=${server.region}`;
    env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: server.accessKey,
      AWS_SECRET_ACCESS_KEY: server.secretKey,
      AWS_REGION: server.region,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      HOME: scratch,
      PULUMI_BACKEND_URL: '',
    };
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('backend ls lists every stack, with its history, across the listing pages', () => {
    const listed = runQuotaState(['backend', 'ls', url, '--format', 'json'], { cwd: scratch, env });
    assert.equal(listed.status, 0, listed.stderr);
    const backend = JSON.parse(listed.stdout) as { stacks: Array<{ name: string; history: number; lastUpdate?: { kind: string } }>; problems: unknown[] };
    assert.equal(backend.stacks.length, 1000);
    assert.deepEqual(backend.problems, []);
    assert.equal(backend.stacks[0].name, 'organization/scale/s0000');
    assert.equal(backend.stacks[999].name, 'organization/scale/s0999');
    assert.equal(
      backend.stacks.reduce((sum, s) => sum + s.history, 0),
      20000,
    );
    assert.ok(backend.stacks.every((s) => s.lastUpdate?.kind === 'update'));
  });

  it('history of one stack lists its entries newest first; --limit reads only those', () => {
    const all = runQuotaState(['history', 'organization/scale/s0500', '--backend', url, '--format', 'json'], { cwd: scratch, env });
    assert.equal(all.status, 0, all.stderr);
    const { entries } = JSON.parse(all.stdout) as { entries: Array<{ version: number; id: string }> };
    assert.equal(entries.length, 20);
    assert.deepEqual(
      entries.map((e) => e.version),
      entries.map((_, i) => 20 - i),
    );
    const some = runQuotaState(['history', 'organization/scale/s0500', '--backend', url, '--limit', '3', '--format', 'json'], { cwd: scratch, env });
    assert.deepEqual(
      (JSON.parse(some.stdout) as { entries: Array<{ id: string }> }).entries.map((e) => e.id),
      entries.slice(0, 3).map((e) => e.id),
    );
  });
});
