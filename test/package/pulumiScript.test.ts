/**
 * `npm run pulumi` (scripts/pulumi.mjs): while another process builds the pinned Pulumi, it says on
 * stderr, once, that it waits and for which lock, instead of hanging silently; then runs the build
 * the other process finished.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pulumiBuildKey } from '../../scripts/pulumi-cli.mjs';
import { ROOT } from '../helpers/processes';

describe('npm run pulumi', () => {
  let cache: string;
  before(() => (cache = mkdtempSync(join(tmpdir(), 'quota-state-pulumi-cache-'))));
  after(() => rmSync(cache, { recursive: true, force: true }));

  it("says that it waits for another build's lock, naming it, once; then runs the finished build", async () => {
    const key = pulumiBuildKey();
    const lock = join(cache, `${key}.lock`);
    // Another build holds the lock: this test process, which is alive.
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), String(process.pid));
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'pulumi.mjs'), 'version'], {
      cwd: ROOT,
      env: { ...process.env, QUOTA_STATE_PULUMI_CACHE: cache },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!stderr.includes('\n') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match(stderr, /^waiting for another build of Pulumi v[\d.]+ to finish \(its lock: (.*)\)\n$/, stderr);
      assert.equal(/\(its lock: (.*)\)/.exec(stderr)![1], lock);
      // Still waiting, and said so only once.
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.equal(child.exitCode, null, 'it waits while the lock is held');
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);
      // The other build finishes: a Pulumi that prints its arguments, then the lock goes.
      const final = join(cache, key);
      mkdirSync(final);
      writeFileSync(join(final, 'pulumi'), '#!/bin/sh\necho "finished build: $*"\n');
      chmodSync(join(final, 'pulumi'), 0o755);
      writeFileSync(join(final, 'complete'), 'test\n');
      rmSync(lock, { recursive: true, force: true });
      assert.equal(await exited, 0, stderr);
      assert.equal(stdout, 'finished build: version\n');
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, stderr);
    } finally {
      child.kill();
      if (existsSync(lock)) rmSync(lock, { recursive: true, force: true });
    }
  });
});
