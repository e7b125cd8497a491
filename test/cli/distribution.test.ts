/**
 * The CLI installs and runs from the package tarball alone: `npm pack`, `npm install -g` into a
 * scratch prefix, then `quota-state` from that prefix in a folder with no checkout.
 * Packs the dist/ that `npm test` built (`--ignore-scripts`: the prepack build is for releases).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { distPath, ROOT } from '../helpers/processes';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function npm(args: string[], cwd: string) {
  const result = spawnSync(NPM, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  assert.equal(result.status, 0, `npm ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe('quota-state from the npm package tarball', function () {
  this.timeout(300_000);
  let scratch: string;
  let packed: Array<{ filename: string; files: Array<{ path: string }> }>;

  before(() => {
    distPath('cli/quota-state.js');
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-pack-'));
    packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT));
  });

  it('the tarball holds the built CLI, its bin and the schemas, and no sources or tests', () => {
    const files = packed[0].files.map((f) => f.path);
    for (const needed of [
      'bin/quota-state.js',
      'dist/cli/quota-state.js',
      'dist/cli/quotaStateMain.js',
      'dist/server/server.js',
      'dist/server/languageServer.js',
      'dist/server/stateWorker.js',
      'dist/server/analysisWorker.js',
      'dist/client/extension.js',
      'dist/web/extension.js',
      'dist/web/server.js',
      'schemas/state-file.schema.json',
      'package.json',
    ]) {
      assert.ok(files.includes(needed), `${needed} in the tarball`);
    }
    assert.deepEqual(
      files.filter((f) => /\.ts$|^test\/|^shared\/|^server\/|\.map$/.test(f)),
      [],
    );
  });

  it('the browser build: dist/web/ holds the extension and the server and nothing else, with no Node built-in', () => {
    const files = packed[0].files.map((f) => f.path).filter((f) => f.startsWith('dist/web/'));
    assert.deepEqual(files.sort(), ['dist/web/extension.js', 'dist/web/server.js']);
    assert.deepEqual(readdirSync(distPath('web')).sort(), ['extension.js', 'server.js']);
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    for (const file of files) {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      const required = [...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
      assert.deepEqual(
        required.filter((name) => builtins.has(name)),
        [],
        `Node built-ins required by ${file}`,
      );
      assert.deepEqual(
        [...new Set(required)].filter((name) => name !== 'vscode' && !name.startsWith('ajv/')),
        [],
        `runtime requires in ${file}`,
      );
    }
  });

  it('the client bundle holds no analysis: no schema validator (the server reads quota files for it)', () => {
    const client = readFileSync(distPath('client/extension.js'), 'utf8');
    assert.ok(!/\bajv\b|Ajv2020/.test(client), 'ajv in dist/client/extension.js');
    assert.match(readFileSync(distPath('server/languageServer.js'), 'utf8'), /\bajv\b/, 'the server, which validates, bundles ajv');
  });

  it('npm install -g of the tarball gives a quota-state that checks a file with no checkout around it', () => {
    const prefix = join(scratch, 'prefix');
    npm(['install', '-g', '--prefix', prefix, join(scratch, packed[0].filename), '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], scratch);
    const work = join(scratch, 'work');
    mkdirSync(work);
    copyFileSync(resolve(ROOT, 'examples/webshop.state.json'), join(work, 'webshop.state.json'));
    const bin = process.platform === 'win32' ? join(prefix, 'quota-state.cmd') : join(prefix, 'bin', 'quota-state');
    const run = (args: string[]) => spawnSync(bin, args, { cwd: work, encoding: 'utf8', timeout: 60_000 });

    const version = run(['--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).version);

    const check = run(['check', 'webshop.state.json']);
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stdout, /^webshop\.state\.json:78:21: error forward-reference: /m);
    assert.match(check.stdout, /1 file checked, 4 problems/);

    const fixed = run(['fix', 'webshop.state.json']);
    assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
    assert.equal(run(['check', 'webshop.state.json']).status, 0);
  });
});
