/**
 * Issue 53, item 7: memory and time are bounded per command, not only per file. Against the built
 * `quota-state`, with crafted backends: history entries that each inflate to 200 MiB, stack files
 * whose sum passes the command's budget, and a 2,000-byte history entry of 200 zstd frames that each
 * declare a 240 MiB window. Each run is timed and its peak RSS read on exit; SIGTERM stops it.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { distPath } from '../helpers/processes';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** A zstd frame of 10 bytes: no declared size, a 240 MiB window, one RLE block of one byte. */
const WIDE_FRAME = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 << 3) | 7, 0x0b, 0x00, 0x00, 0x20]);

function entryJson(i: number): string {
  return JSON.stringify({ kind: 'update', startTime: 1_700_000_000 + i, endTime: 1_700_000_001 + i, message: 'm', environment: {}, config: {}, result: 'succeeded', resourceChanges: { create: 1 } });
}

function stackJson(project: string, name: string): string {
  return JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/${name}`, latest: { manifest: {}, resources: [] } } });
}

/** A project-layout backend in `root` with the stacks `proj/<name>` and their files as given. */
function backend(root: string, stacks: Record<string, { stack?: [string, Buffer | string]; history?: Array<[string, Buffer]> }>): string {
  const at = (...parts: string[]) => join(root, '.pulumi', ...parts);
  mkdirSync(at('stacks', 'proj'), { recursive: true });
  writeFileSync(at('meta.yaml'), 'version: 1\n');
  for (const [name, files] of Object.entries(stacks)) {
    const [suffix, bytes] = files.stack ?? ['.json', stackJson('proj', name)];
    writeFileSync(at('stacks', 'proj', `${name}${suffix}`), bytes);
    mkdirSync(at('history', 'proj', name), { recursive: true });
    for (const [id, entry] of files.history ?? []) writeFileSync(at('history', 'proj', name, `${name}-${id}`), entry);
  }
  return `file://${root}`;
}

interface Measured {
  status: number | null;
  stdout: string;
  stderr: string;
  maxRssBytes: number;
  ms: number;
}

describe('quota-state within a budget per command (issue 53, item 7)', function () {
  this.timeout(180_000);
  let dir: string;
  let preload: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-budget-'));
    preload = join(dir, 'peak-rss.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nquota-state-test maxRSS=${process.resourceUsage().maxRSS}\\n`));\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function measure(args: string[], env: NodeJS.ProcessEnv = {}): Measured {
    const started = Date.now();
    const result = spawnSync(process.execPath, ['--require', preload, distPath('cli/quota-state.js'), ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
    const match = /^quota-state-test maxRSS=(\d+)$/m.exec(result.stderr);
    assert.ok(match, `no peak RSS reported (status ${result.status}, signal ${result.signal}): ${result.stderr}`);
    return { status: result.status, stdout: result.stdout, stderr: result.stderr.replace(match[0], '').trim(), maxRssBytes: Number(match[1]) * 1024, ms: Date.now() - started };
  }

  it('refuses history entries past 16 MiB each, naming them, and lists the others quickly and in little memory', () => {
    const huge = gzipSync(entryJson(0) + ' '.repeat(200 * MIB));
    const url = backend(join(dir, 'entries'), {
      dev: {
        history: [
          ['1700000000000000000.history.json.gz', huge],
          ['1700000000000000010.history.json.gz', huge],
          ['1700000000000000020.history.json.gz', huge],
          ['1700000000000000030.history.json', Buffer.from(entryJson(3))],
        ],
      },
    });
    const run = measure(['history', 'organization/proj/dev', '--backend', url, '--format', 'json']);
    assert.equal(run.status, 0, run.stderr);
    const { entries, problems } = JSON.parse(run.stdout) as { entries: Array<{ id: string }>; problems: Array<{ file: string; message: string }> };
    assert.deepEqual(
      entries.map((e) => e.id),
      ['1700000000000000030'],
    );
    assert.equal(problems.length, 3);
    for (const problem of problems) assert.match(problem.message, /dev-17000000000000000[012]0\.history\.json\.gz .*16 MiB/);
    assert.ok(run.ms < 60_000, `took ${run.ms} ms`);
    assert.ok(run.maxRssBytes < 512 * MIB, `peak RSS ${run.maxRssBytes / MIB} MiB`);
  });

  it('stops `backend ls --counts` once its stack files together pass the budget: exit 2, naming the file and the limit', () => {
    const big = gzipSync(stackJson('proj', 'x').replace(/}$/, `${' '.repeat(200 * MIB)}}`));
    const stacks = Object.fromEntries(['a', 'b', 'c', 'd'].map((name) => [name, { stack: ['.json.gz', big] as [string, Buffer] }]));
    const url = backend(join(dir, 'stacks'), stacks);
    const run = measure(['backend', 'ls', url, '--counts'], { QUOTA_STATE_MAX_INFLATED_TOTAL_MIB: '512' });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /^quota-state: \.pulumi\/stacks\/proj\/[abcd]\.json\.gz was not read: this command has decompressed 512 MiB, its limit for all the files it reads$/m);
    assert.doesNotMatch(run.stderr, /internal error/);
    assert.ok(run.ms < 60_000, `took ${run.ms} ms`);
    assert.ok(run.maxRssBytes < GIB, `peak RSS ${run.maxRssBytes / MIB} MiB`);
    // Within the budget (the default), the same backend is listed.
    const allowed = measure(['backend', 'ls', url, '--counts', '--format', 'json']);
    assert.equal(allowed.status, 0, allowed.stderr);
  });

  it('refuses a stack file of 200 zstd frames declaring 240 MiB windows at once, for `diff` too', () => {
    const url = backend(join(dir, 'frames'), { dev: { stack: ['.json.zst', Buffer.concat(new Array<Buffer>(200).fill(WIDE_FRAME))] }, prod: {} });
    const run = measure(['diff', 'organization/proj/prod', 'organization/proj/dev', '--backend', url]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /dev\.json\.zst has zstd frames whose windows add up to more than 256 MiB/);
    assert.ok(run.ms < 30_000, `took ${run.ms} ms`);
    assert.ok(run.maxRssBytes < GIB, `peak RSS ${run.maxRssBytes / MIB} MiB`);
  });

  it('stops `history` on SIGTERM within seconds (a 2,000-byte entry of 200 wide zstd frames)', async () => {
    const url = backend(join(dir, 'sigterm'), { dev: { history: [['1700000000000000010.history.json.zst', Buffer.concat(new Array<Buffer>(200).fill(WIDE_FRAME))]] } });
    const child = spawn(process.execPath, [distPath('cli/quota-state.js'), 'history', 'organization/proj/dev', '--backend', url], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(Date.now())));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sent = Date.now();
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const at = await exited;
    clearTimeout(killer);
    assert.ok(at - sent < 5_000, `exited ${at - sent} ms after SIGTERM`);
  });
});
