/**
 * The .vsix users install: unpacked the way VS Code unpacks it (yauzl, the `extension/` folder),
 * its language server started alone over stdio publishes diagnostics for a state file and for a
 * quota file. A bundle missing from the package (the server's worker, say) fails here.
 *
 * `npm test` packages once and passes the file in QUOTA_STATE_VSIX; run alone, this packages its own.
 */
import { strict as assert } from 'node:assert';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import { LspTestClient } from '../lsp/client';
import { ROOT } from '../helpers/processes';
import { EXPORT_WITH_MISSING_PARENT } from '../helpers/stateSamples';

const QUOTA_CONFIG = '{\n  // one rule, with a subject that does not exist\n  "rules": [ { "name": "r", "limit": 1024, "subjects": ["size:all", "size:bogus"] } ]\n}\n';

/** Extracts the `extension/` folder of a .vsix into `target`, as VS Code's installer does. */
async function unpackVsix(vsix: string, target: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((done, fail) => yauzl.open(vsix, { lazyEntries: true }, (error, file) => (error ? fail(error) : done(file))));
  try {
    await new Promise<void>((done, fail) => {
      zip.on('error', fail);
      zip.on('end', done);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.startsWith('extension/') || entry.fileName.endsWith('/')) return zip.readEntry();
        const path = resolve(target, entry.fileName.slice('extension/'.length));
        if (!path.startsWith(resolve(target) + sep)) return fail(new Error(`${entry.fileName} leaves the extension folder`));
        mkdirSync(dirname(path), { recursive: true });
        zip.openReadStream(entry, (error, stream) => {
          if (error) return fail(error);
          pipeline(stream, createWriteStream(path)).then(() => zip.readEntry(), fail);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

describe('the packaged extension (.vsix)', function () {
  this.timeout(180_000);
  let scratch: string;
  let unpacked: string;
  let client: LspTestClient | undefined;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-vsix-test-'));
    let vsix = process.env.QUOTA_STATE_VSIX;
    if (!vsix) {
      vsix = join(scratch, 'quota-state.vsix');
      const packaged = spawnSync(join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(packaged.status, 0, `vsce package failed:\n${packaged.stdout}${packaged.stderr}`);
    }
    unpacked = join(scratch, 'extension');
    await unpackVsix(vsix, unpacked);
  });

  after(async () => {
    await client?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the manifest, the licence and every bundle the extension loads (Node and browser), and no sources', () => {
    for (const file of [
      'package.json',
      'LICENSE.txt',
      'dist/client/extension.js',
      'dist/server/server.js',
      'dist/server/languageServer.js',
      'dist/server/stateWorker.js',
      'dist/server/analysisWorker.js',
      'dist/stores/s3Store.js',
      'dist/stores/azblobStore.js',
      'dist/web/extension.js',
      'dist/web/server.js',
      'package.nls.json',
      'l10n/bundle.l10n.json',
    ]) {
      assert.ok(existsSync(join(unpacked, file)), `${file} is not in the .vsix`);
    }
    for (const file of ['client/extension.ts', 'server/server.ts', 'node_modules', 'test']) {
      assert.equal(existsSync(join(unpacked, file)), false, `${file} should not be in the .vsix`);
    }
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    assert.equal(manifest.browser, './dist/web/extension.js');
    assert.deepEqual(readdirSync(join(unpacked, 'dist', 'web')).sort(), ['extension.js', 'server.js']);
  });

  it('its server, started alone over stdio, publishes diagnostics for a state file and for a quota file', async () => {
    client = await LspTestClient.start({ serverModule: join(unpacked, 'dist', 'server', 'server.js') });
    const state = await client.open('file:///work/shop/stack.json', EXPORT_WITH_MISSING_PARENT);
    assert.deepEqual(
      state.map((d) => d.code),
      ['missing-reference'],
    );
    const quota = await client.open('file:///work/shop/team.quota.jsonc', QUOTA_CONFIG, 'jsonc');
    assert.ok(
      quota.some((d) => d.code === 'unknown-subject'),
      JSON.stringify(quota.map((d) => d.code)),
    );
  });
});
