/**
 * Bench figures of the browser build beside Node's: the production size of dist/web/ (raw and
 * gzip), and activation → first diagnostics of a small state file in a real VS Code, once in the
 * browser's web worker extension host and once in the server's Node host (the extension-host
 * runner's `startup` test in each, scripts/test-extension.mjs --dev).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(__dirname, '..', '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export interface BundleSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Builds the browser entries minified (as `npm run package` does) into a scratch folder and measures them. */
export async function webBundleSizes(): Promise<BundleSize[]> {
  const esbuild = await import('esbuild');
  const { webEntries, webBuildOptions } = await import(pathToFileURL(join(ROOT, 'esbuild.mjs')).href);
  const out = mkdtempSync(join(tmpdir(), 'quota-state-web-size-'));
  try {
    await Promise.all(webEntries.map((entry: unknown) => esbuild.build({ ...webBuildOptions(entry, true, out), absWorkingDir: ROOT })));
    const folder = join(out, 'web');
    return readdirSync(folder)
      .sort()
      .map((name) => {
        const text = readFileSync(join(folder, name));
        return { file: `dist/web/${name}`, bytes: statSync(join(folder, name)).size, gzipBytes: gzipSync(text).length };
      });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Medians of `runs` runs of the startup test per host; undefined when the VS Code host is not set up. */
export function startupInHosts(runs: number): Record<string, number> | undefined {
  const collected: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    for (const suite of ['web', 'main']) {
      const results = join(mkdtempSync(join(tmpdir(), 'quota-state-bench-host-')), 'results.json');
      const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'test-extension.mjs'), '--dev', '--suite', suite, '--grep', 'startup', '--results', results], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 600_000,
      });
      if (run.status !== 0) {
        console.error(`bench: the ${suite} startup run failed (exit ${run.status}); skipping the host figures\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`);
        return undefined;
      }
      const figures = (JSON.parse(readFileSync(results, 'utf8')) as { figures?: Record<string, number> }).figures ?? {};
      for (const [key, value] of Object.entries(figures)) (collected[key] ??= []).push(value);
    }
  }
  return Object.fromEntries(Object.entries(collected).map(([key, values]) => [key, median(values)]));
}
