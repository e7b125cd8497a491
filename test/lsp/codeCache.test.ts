/**
 * The language server starts with a V8 code cache (server/codeCache.ts): the first start writes it,
 * named by the bundle's SHA-256; the next start uses it and leaves it alone unless it compiled much
 * more (the other file kind's code); a damaged cache is
 * rejected, the server still answers, and the cache is written anew. Each start is the real built
 * server over stdio, with the cache in a folder of the test's own.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspTestClient } from './client';
import { EXPORT_WITH_MISSING_PARENT } from '../helpers/stateSamples';
import { distPath } from '../helpers/processes';
import { generateState } from '../bench/generate';

describe('the language server’s code cache (LSP over stdio)', function () {
  this.timeout(60_000);
  let cacheDir: string;

  before(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'quota-state-code-cache-'));
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  /** One start: open a state file, check its diagnostics, stop the server (which writes a new cache at exit). */
  async function startAndCheck(env: NodeJS.ProcessEnv = { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: cacheDir }): Promise<void> {
    const client = await LspTestClient.start({ env });
    try {
      const diagnostics = await client.open('file:///work/app/stack.json', EXPORT_WITH_MISSING_PARENT);
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['missing-reference'],
      );
      assert.deepEqual(client.loggedErrors, []);
    } finally {
      await client.stop();
    }
  }

  const bundleHash = () =>
    createHash('sha256')
      .update(readFileSync(distPath('server/languageServer.js')))
      .digest('hex')
      .slice(0, 32);
  const cacheFiles = () => readdirSync(cacheDir).sort();
  /** The server's own caches (the analysis worker, started beside it, may write its own within seconds). */
  const serverCaches = () => cacheFiles().filter((name) => name.startsWith('languageServer-'));

  it('the first start writes a cache named by the bundle’s hash and this Node; the next one uses it unchanged', async () => {
    await startAndCheck();
    const expected = `languageServer-${bundleHash()}-${process.version}-${process.arch}.v8cache`;
    assert.deepEqual(serverCaches(), [expected]);
    const path = join(cacheDir, expected);
    const first = statSync(path);
    assert.ok(first.size > 100_000, `a cache of ${first.size} bytes holds the compiled server`);

    await startAndCheck();
    assert.deepEqual(serverCaches(), [expected]);
    const second = statSync(path);
    assert.equal(second.mtimeMs, first.mtimeMs, 'a cache that was used is not written again');
  });

  it('a start that compiles much more than the cache held (the other file kind) rewrites it; the same start again does not', async () => {
    const [name] = serverCaches();
    const path = join(cacheDir, name);
    const stateOnly = statSync(path);
    const client = await LspTestClient.start({ env: { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: cacheDir } });
    try {
      const diagnostics = await client.open('file:///work/app/demo.quota.jsonc', readFileSync(join(__dirname, '..', '..', 'examples', 'demo.quota.jsonc'), 'utf8'));
      assert.ok(Array.isArray(diagnostics));
      assert.deepEqual(client.loggedErrors, []);
    } finally {
      await client.stop();
    }
    const both = statSync(path);
    assert.ok(both.size > stateOnly.size * 1.1, `the cache grew with the quota file's code: ${stateOnly.size} → ${both.size} bytes`);
    assert.notEqual(both.mtimeMs, stateOnly.mtimeMs);

    await startAndCheck();
    assert.equal(statSync(path).mtimeMs, both.mtimeMs, 'a state start adds nothing the cache lacks');
  });

  it('a damaged cache is rejected: the server still answers, and the cache is written anew', async () => {
    const [name] = serverCaches();
    const path = join(cacheDir, name);
    const garbage = Buffer.alloc(statSync(path).size, 0x5a);
    writeFileSync(path, garbage);

    await startAndCheck();
    assert.deepEqual(serverCaches(), [name]);
    assert.notDeepEqual(readFileSync(path), garbage, 'the damaged cache was replaced');
  });

  it('a cache of an earlier build is removed when this build’s is written', async () => {
    const current = join(cacheDir, serverCaches()[0]);
    const earlier = join(cacheDir, `languageServer-${'0'.repeat(32)}-${process.version}-${process.arch}.v8cache`);
    writeFileSync(earlier, 'an earlier build');
    rmSync(current);

    await startAndCheck();
    assert.deepEqual(serverCaches(), [`languageServer-${bundleHash()}-${process.version}-${process.arch}.v8cache`]);
  });

  it('the analysis worker (a large document) writes a cache of its own bundle while the server runs', async () => {
    const client = await LspTestClient.start({ env: { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: cacheDir } });
    try {
      const large = generateState({ resources: 300, seed: 3 });
      assert.ok(large.length > 256 * 1024, 'the document is analysed on the worker');
      await client.open('file:///work/app/large.state.json', large);
      const workerBundle = createHash('sha256')
        .update(readFileSync(distPath('server/analysisWorker.js')))
        .digest('hex')
        .slice(0, 32);
      const expected = `analysisWorker-${workerBundle}-${process.version}-${process.arch}.v8cache`;
      // The worker writes it a moment after it started, while the server keeps running.
      for (let waited = 0; !cacheFiles().includes(expected) && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(cacheFiles().includes(expected), `${expected} in ${cacheFiles().join(', ')}`);
      assert.deepEqual(client.loggedErrors, []);
    } finally {
      await client.stop();
    }
  });

  it('the bundles a start reads are ASCII, so it copies them as Latin-1 instead of decoding UTF-8', () => {
    for (const bundle of ['server/languageServer.js', 'server/analysisWorker.js', 'cli/quotaStateMain.js']) {
      const text = readFileSync(distPath(bundle), 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${bundle} line ${text.slice(0, at).split('\n').length}: ${text.slice(at - 40, at + 40)}`);
    }
  });

  it('QUOTA_STATE_CODE_CACHE_DIR=off starts the server without reading or writing a cache', async () => {
    const home = mkdtempSync(join(tmpdir(), 'quota-state-home-'));
    try {
      await startAndCheck({ ...process.env, QUOTA_STATE_CODE_CACHE_DIR: 'off', HOME: home, XDG_CACHE_HOME: join(home, 'cache') });
      assert.deepEqual(readdirSync(home), []);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
