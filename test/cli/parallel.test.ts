/**
 * `quota-state check --jobs N` (the built CLI, worker threads) prints exactly what the sequential
 * run prints, in the same order, with the same exit code: for every format, for clean files,
 * files with errors, a file that is neither kind, and a file that cannot be read.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateState } from '../bench/generate';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'quota-state.js');

describe('quota-state check: parallel mode prints what the sequential mode prints', function () {
  this.timeout(120_000);
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'quota-state-parallel-'));
    const stateFixtures = join(ROOT, 'test', 'fixtures', 'state');
    mkdirSync(join(work, 'files'));
    for (const name of readdirSync(stateFixtures).filter((n) => n.endsWith('.state.json'))) {
      copyFileSync(join(stateFixtures, name), join(work, 'files', name));
    }
    // Larger files with problems, so the workers finish out of order.
    for (let i = 0; i < 6; i++) writeFileSync(join(work, 'files', `generated-${i}.state.json`), generateState({ resources: 50 + 400 * (i % 3), seed: i, problemsPerThousand: 30 }));
    copyFileSync(join(ROOT, 'examples', 'demo.quota.jsonc'), join(work, 'files', 'demo.quota.jsonc'));
    writeFileSync(join(work, 'files', 'notes.json'), '{"neither": true}');
    mkdirSync(join(work, 'files', 'folder.state.json'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: work, encoding: 'utf8', timeout: 100_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  for (const format of ['text', 'json', 'github', 'sarif']) {
    it(`--format ${format}: --jobs 1, 2 and 4 agree, findings and all`, () => {
      const readable = ['files/*.state.json', 'files/demo.quota.jsonc', 'files/notes.json'];
      const sequential = run([...readable, '--format', format, '--jobs', '1']);
      assert.equal(sequential.status, 1, sequential.stderr);
      assert.ok(sequential.stdout.length > 1000, 'the files have findings to print');
      for (const jobs of ['2', '4']) assert.deepEqual(run([...readable, '--format', format, '--jobs', jobs]), sequential, `--jobs ${jobs}`);
    });
  }

  it('an unreadable file: the same message in file order and exit code 2', () => {
    const args = ['files/deployment.state.json', 'files/folder.state.json', 'files/generated-1.state.json', 'files/notes.json'];
    const sequential = run([...args, '--jobs', '1']);
    assert.equal(sequential.status, 2);
    assert.match(sequential.stderr, /folder/);
    assert.deepEqual(run([...args, '--jobs', '3']), sequential);
  });

  it('a clean run exits 0 in both modes; --jobs must be a whole number', () => {
    const clean = ['files/clean-export.state.json', 'files/notes.json'];
    const sequential = run([...clean, '--jobs', '1']);
    assert.equal(sequential.status, 0, sequential.stdout + sequential.stderr);
    assert.deepEqual(run([...clean, '--jobs', '2']), sequential);
    const bad = run([...clean, '--jobs', 'many']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--jobs takes a whole number/);
  });
});
