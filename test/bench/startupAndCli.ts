/**
 * Bench figures measured from outside the process: server start → first diagnostics for a small
 * state and a small quota file against a bare `node -e 0`, and `quota-state check` on many state
 * files with one worker against all cores.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { generateState } from './generate';
import { timeBareNode, timeServerStart } from './startup';

const ROOT = resolve(__dirname, '..', '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export interface ExternalFigure {
  figure: string;
  ms: number;
  baseline: string;
  baselineMs: number;
  /** ms / baselineMs, or baselineMs / ms for a speed-up. */
  ratio: number;
  note?: string;
}

/**
 * Alternates the starts `runs` times after one warm-up round (file cache, JIT of the spawner, and the
 * server's V8 code cache, written at the warm-up's exit as at a user's first start): the state file's
 * and the quota file's with the code cache, and the state file's without one (a user's very first start).
 */
export async function startFigures(runs: number): Promise<ExternalFigure[]> {
  const state = readFileSync(join(ROOT, 'examples', 'webshop.state.json'), 'utf8');
  const quota = readFileSync(join(ROOT, 'examples', 'demo.quota.jsonc'), 'utf8');
  const bare: number[] = [];
  const stateStarts: number[] = [];
  const quotaStarts: number[] = [];
  const uncachedStarts: number[] = [];
  const withoutCodeCache = { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: 'off' };
  for (let i = -1; i < runs; i++) {
    const b = await timeBareNode();
    const s = await timeServerStart('file:///bench/webshop.state.json', 'json', state);
    const q = await timeServerStart('file:///bench/demo.quota.jsonc', 'jsonc', quota);
    const u = await timeServerStart('file:///bench/webshop.state.json', 'json', state, [], withoutCodeCache);
    if (i < 0) continue;
    bare.push(b);
    stateStarts.push(s);
    quotaStarts.push(q);
    uncachedStarts.push(u);
  }
  const bareMs = median(bare);
  return [
    {
      figure: `server start → first diagnostics, small state file (${(state.length / 1e3).toFixed(0)} kB), target ≤ 1.5×`,
      ms: median(stateStarts),
      baseline: 'node -e 0',
      baselineMs: bareMs,
      ratio: median(stateStarts) / bareMs,
    },
    {
      figure: `server start → first diagnostics, small quota file (${(quota.length / 1e3).toFixed(0)} kB), target ≤ 1.5×`,
      ms: median(quotaStarts),
      baseline: 'node -e 0',
      baselineMs: bareMs,
      ratio: median(quotaStarts) / bareMs,
    },
    {
      figure: `server start → first diagnostics, small state file, without a code cache (a first start)`,
      ms: median(uncachedStarts),
      baseline: 'node -e 0',
      baselineMs: bareMs,
      ratio: median(uncachedStarts) / bareMs,
    },
  ];
}

/**
 * `quota-state check` on `count` state files of `totalMB` in all (a few generated files, copied),
 * timed with --jobs 1 and with --jobs <cores>, alternately, `runs` times each.
 */
export function cliFigure(folder: string, count: number, totalMB: number, runs: number): ExternalFigure {
  const dir = join(folder, 'cli-check');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const perFileBytes = (totalMB * 1e6) / count;
  // About 3.5 kB per generated resource; five variants with problems, so every file has findings to print.
  const variants = [0, 1, 2, 3, 4].map((seed) => {
    const path = join(dir, `variant-${seed}.json`);
    writeFileSync(path, generateState({ resources: Math.max(10, Math.round(perFileBytes / 3500)), seed, problemsPerThousand: 5 }));
    return path;
  });
  let total = 0;
  for (let i = 0; i < count; i++) {
    const path = join(dir, `file-${String(i).padStart(3, '0')}.state.json`);
    copyFileSync(variants[i % variants.length], path);
    total += statSync(path).size;
  }
  for (const variant of variants) rmSync(variant);
  const cores = availableParallelism();
  const time = (jobs: number) => {
    const start = performance.now();
    const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'quota-state.js'), 'check', 'cli-check/*.state.json', '--format', 'json', '--jobs', String(jobs)], {
      cwd: folder,
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    });
    if (result.status !== 0 && result.status !== 1) throw new Error(`quota-state check failed: ${result.stderr}`);
    return performance.now() - start;
  };
  const one: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < runs; i++) {
    one.push(time(1));
    all.push(time(cores));
  }
  rmSync(dir, { recursive: true, force: true });
  const oneMs = median(one);
  const allMs = median(all);
  return {
    figure: `quota-state check, ${count} state files (${(total / 1e6).toFixed(0)} MB), --jobs ${cores}: speed-up, target ≥ 1.7×`,
    ms: allMs,
    baseline: '--jobs 1',
    baselineMs: oneMs,
    ratio: oneMs / allMs,
    note: `${cores} cores`,
  };
}

/**
 * `quota-state history` of a DIY stack with `entries` updates, gzip-compressed as
 * PULUMI_DIY_BACKEND_GZIP writes them, each beside a 20 kB checkpoint it must not read; against a bare
 * `node -e 0` (target: under 1 s).
 */
export async function historyFigure(folder: string, entries: number, runs: number): Promise<ExternalFigure> {
  const root = join(folder, 'history-backend');
  rmSync(root, { recursive: true, force: true });
  const history = join(root, '.pulumi', 'history', 'hist', 'dev');
  mkdirSync(history, { recursive: true });
  mkdirSync(join(root, '.pulumi', 'stacks', 'hist'), { recursive: true });
  writeFileSync(join(root, '.pulumi', 'meta.yaml'), 'version: 1\n');
  writeFileSync(join(root, '.pulumi', 'stacks', 'hist', 'dev.json'), generateState({ resources: 20, seed: 1, problemsPerThousand: 0 }));
  const checkpoint = gzipSync(generateState({ resources: 6, seed: 2, problemsPerThousand: 0 }));
  const start = 1795845131;
  for (let i = 0; i < entries; i++) {
    const nano = `${start + i * 60}000000000`;
    const info = {
      kind: 'update',
      startTime: start + i * 60,
      message: `deploy ${i}`,
      environment: { 'exec.kind': 'cli' },
      config: { 'hist:region': 'eu-west-1' },
      version: 0,
      result: 'succeeded',
      endTime: start + i * 60 + 7,
      resourceChanges: { same: 19, update: 1 },
    };
    writeFileSync(join(history, `dev-${nano}.history.json.gz`), gzipSync(JSON.stringify(info)));
    writeFileSync(join(history, `dev-${nano}.checkpoint.json.gz`), checkpoint);
  }
  const time = () => {
    const begin = performance.now();
    const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'quota-state.js'), 'history', 'hist/dev', '--backend', `file://${root}`, '--format', 'json'], {
      maxBuffer: 1 << 28,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`quota-state history failed: ${result.stderr}`);
    if ((JSON.parse(result.stdout) as { entries: unknown[] }).entries.length !== entries) throw new Error('quota-state history listed the wrong number of entries');
    return performance.now() - begin;
  };
  const bare: number[] = [];
  const listed: number[] = [];
  for (let i = -1; i < runs; i++) {
    const b = await timeBareNode();
    const h = time();
    if (i < 0) continue;
    bare.push(b);
    listed.push(h);
  }
  rmSync(root, { recursive: true, force: true });
  return {
    figure: `quota-state history, ${entries} entries (gzip, beside their checkpoints), target < 1 s`,
    ms: median(listed),
    baseline: 'node -e 0',
    baselineMs: median(bare),
    ratio: median(listed) / median(bare),
  };
}
