/**
 * Compression bombs against the built `quota-state`: a small .json.gz or .json.zst that would
 * inflate to 1 or 4 GiB is refused by `check`, `fix` and `state remove` (exit 2, naming the file and
 * the 256 MiB limit), and the process never holds much more than the limit: its peak RSS grows by
 * less than the limit + 64 MiB over the same command on a tiny file. The bombs are crafted
 * (test/helpers/bombs.ts).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { gzipBomb, zstdBomb } from '../helpers/bombs';
import { distPath } from '../helpers/processes';

const LIMIT_MIB = 256;
const URN = 'urn:pulumi:s::p::aws:s3:Bucket::b';

interface Measured {
  status: number | null;
  stdout: string;
  stderr: string;
  maxRssKiB: number;
  ms: number;
}

describe('quota-state on compression bombs', function () {
  this.timeout(240_000);
  let dir: string;
  let preload: string;
  const baselines = new Map<string, number>();
  const figures: string[] = [];

  /** The built CLI with a preload that reports the process's peak RSS (kB) on exit. */
  function measure(args: string[]): Measured {
    const started = Date.now();
    const result = spawnSync(process.execPath, ['--require', preload, distPath('cli/quota-state.js'), ...args], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
    const match = /^quota-state-test maxRSS=(\d+)$/m.exec(result.stderr);
    assert.ok(match, `no peak RSS reported (status ${result.status}, signal ${result.signal}): ${result.stderr}`);
    return { status: result.status, stdout: result.stdout, stderr: result.stderr.replace(match[0], '').trim(), maxRssKiB: Number(match[1]), ms: Date.now() - started };
  }

  const commands = (file: string): Record<string, string[]> => ({
    check: ['check', file],
    fix: ['fix', file],
    'state remove': ['state', 'remove', file, URN],
  });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-bombs-'));
    preload = join(dir, 'peak-rss.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nquota-state-test maxRSS=${process.resourceUsage().maxRSS}\\n`));\n");
    const resources = [{ urn: 'urn:pulumi:s::p::pulumi:pulumi:Stack::p-s', custom: false, type: 'pulumi:pulumi:Stack' }];
    writeFileSync(join(dir, 'tiny.json.gz'), gzipSync(JSON.stringify({ version: 3, checkpoint: { stack: 'organization/p/s', latest: { manifest: {}, resources } } })));
    const started = Date.now();
    writeFileSync(join(dir, 'gzip-1gib.json.gz'), gzipBomb(1, 4));
    writeFileSync(join(dir, 'gzip-4gib.json.gz'), gzipBomb(4, 1));
    writeFileSync(join(dir, 'zstd-1gib.json.zst'), zstdBomb(1));
    writeFileSync(join(dir, 'zstd-4gib.json.zst'), zstdBomb(4));
    figures.push(`bombs crafted in ${Date.now() - started} ms`);
    for (const [name, args] of Object.entries(commands('tiny.json.gz'))) {
      // The baseline does what the bomb run does, on a tiny file: read, inflate, (not) write.
      const run = measure(name === 'state remove' ? [...args, '--dry-run'] : args);
      assert.ok(run.status === 0 || run.status === 1, `${name} on tiny.json.gz: ${run.status} ${run.stderr}`);
      baselines.set(name, run.maxRssKiB);
      figures.push(`baseline ${name}: peak RSS ${(run.maxRssKiB / 1024).toFixed(0)} MiB, ${run.ms} ms`);
    }
  });

  after(() => {
    console.log(`      peak RSS (the limit is ${LIMIT_MIB} MiB; allowed growth ${LIMIT_MIB + 64} MiB):\n${figures.map((line) => `        ${line}`).join('\n')}`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const bomb of ['gzip-1gib.json.gz', 'gzip-4gib.json.gz', 'zstd-1gib.json.zst', 'zstd-4gib.json.zst']) {
    it(`refuses ${bomb} in check, fix and state remove, growing by less than the limit + 64 MiB`, () => {
      figures.push(`${bomb}: ${(statSync(join(dir, bomb)).size / 1024).toFixed(0)} KiB on disk`);
      for (const [name, args] of Object.entries(commands(bomb))) {
        const run = measure(args);
        const growth = (run.maxRssKiB - baselines.get(name)!) / 1024;
        figures.push(`  ${name}: exit ${run.status}, peak RSS ${(run.maxRssKiB / 1024).toFixed(0)} MiB (+${growth.toFixed(0)} MiB), ${run.ms} ms`);
        assert.equal(run.status, 2, `${name}: ${run.stdout}\n${run.stderr}`);
        assert.equal(run.stderr, `quota-state: ${bomb} decompresses to more than ${LIMIT_MIB} MiB, the limit for a decompressed file; it was not read further`);
        assert.ok(growth < LIMIT_MIB + 64, `${name} grew by ${growth.toFixed(0)} MiB over the baseline`);
      }
    });
  }
});
