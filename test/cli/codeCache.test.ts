/**
 * `quota-state` starts with a V8 code cache (cli/start.ts, server/codeCache.ts): the first run writes
 * it, named by the bundle's SHA-256; later runs use it unchanged and answer exactly as the first; a
 * cache folder that cannot be written costs nothing but the cache.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distPath, runQuotaState } from '../helpers/processes';

describe('quota-state’s code cache', function () {
  this.timeout(60_000);
  let scratch: string;
  let stateFile: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-cli-cache-'));
    stateFile = join(scratch, 'dev.state.json');
    // A parent that is not in the state: one located error, exit code 1.
    writeFileSync(
      stateFile,
      JSON.stringify(
        {
          version: 3,
          deployment: {
            manifest: { time: '2024-01-01T00:00:00Z', magic: '', version: 'v3.100.0' },
            resources: [{ urn: 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::b', custom: true, type: 'aws:s3/bucket:Bucket', parent: 'urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev' }],
          },
        },
        null,
        2,
      ),
    );
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const check = (cacheDir: string) => runQuotaState(['check', stateFile, '--format', 'json'], { env: { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: cacheDir } });

  it('the first run writes the cache; the next uses it unchanged and reports the same', () => {
    const cacheDir = join(scratch, 'cache');
    const first = check(cacheDir);
    assert.equal(first.status, 1, first.stderr);
    const hash = createHash('sha256')
      .update(readFileSync(distPath('cli/quotaStateMain.js')))
      .digest('hex')
      .slice(0, 32);
    const expected = `quotaStateMain-${hash}-${process.version}-${process.arch}.v8cache`;
    assert.deepEqual(readdirSync(cacheDir), [expected]);
    const written = statSync(join(cacheDir, expected)).mtimeMs;

    const second = check(cacheDir);
    assert.deepEqual({ status: second.status, stdout: second.stdout, stderr: second.stderr }, { status: first.status, stdout: first.stdout, stderr: first.stderr });
    assert.equal(statSync(join(cacheDir, expected)).mtimeMs, written, 'a cache that was used is not written again');
  });

  it('a cache folder it cannot make changes nothing but the cache', () => {
    const withCache = check(join(scratch, 'cache'));
    // A folder under a regular file cannot be made, by root either.
    const blocker = join(scratch, 'not-a-folder');
    writeFileSync(blocker, '');
    const result = check(join(blocker, 'cache'));
    assert.deepEqual({ status: result.status, stdout: result.stdout, stderr: result.stderr }, { status: withCache.status, stdout: withCache.stdout, stderr: withCache.stderr });
    assert.equal(statSync(blocker).isFile(), true);
  });
});
