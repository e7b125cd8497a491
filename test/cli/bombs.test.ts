/**
 * Compression bombs against the built `quota-state`: a small .json.gz or .json.zst that would
 * inflate to 1 or 4 GiB is refused by `check`, `fix` and `state remove` (exit 2, naming the file and
 * the 256 MiB limit), and the process never holds much more than the limit: its peak RSS grows by
 * less than the limit + 64 MiB over the same command on a tiny file. The bombs are crafted, not
 * compressed: gzip as deflate segments of 1 MiB of zeros (each ends on a full flush, so they chain)
 * under a correct trailer; zstd as frames of 128 KiB RLE blocks, 4 bytes each.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { distPath } from '../helpers/processes';

const MIB = 1024 * 1024;
const LIMIT_MIB = 256;
const URN = 'urn:pulumi:s::p::aws:s3:Bucket::b';

/** A gzip file of `members` members that inflates to `gib` GiB of zeros; valid, CRC-32 and sizes included. */
function gzipBomb(gib: number, members: number): Buffer {
  const zeros = Buffer.alloc(MIB);
  const segment = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const segments = (gib * 1024) / members;
  let crc = 0;
  for (let i = 0; i < segments; i++) crc = crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((segments * MIB) % 2 ** 32, 4);
  // Header (deflate, no name, OS unknown); the segments; a final empty fixed-Huffman block (03 00); the trailer.
  const member = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]), ...new Array<Buffer>(segments).fill(segment), Buffer.from([3, 0]), trailer]);
  return Buffer.concat(new Array<Buffer>(members).fill(member));
}

/** A zstd frame (no declared size, 128 KiB window) of RLE blocks of zeros that inflates to `gib` GiB. */
function zstdBomb(gib: number): Buffer {
  const blocks = gib * 8 * 1024;
  const frame = Buffer.alloc(6 + blocks * 4);
  frame.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);
  for (let i = 0; i < blocks; i++) {
    const header = ((128 * 1024) << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    frame.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0], 6 + i * 4);
  }
  return frame;
}

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
