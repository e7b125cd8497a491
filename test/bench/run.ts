/**
 * `npm run bench`: synthetic state files of 1k / 10k / 30k resources (deterministic
 * seed, written to the OS temp folder), then, as medians after warm-up and as ratios to
 * `JSON.parse` of the same text timed alternately in the same process:
 *   JSON.parse · vscode-json-languageservice parse+doValidation with our schemas · our full
 *   analysis · re-analysis after value / key / syntax-breaking edits (10k) · peak RSS per figure
 *   (child processes) · end to end through the real server (didOpen/didChange on 10k, from-disk on 30k)
 *   · server start → first diagnostics (small state / quota file) against a bare `node -e 0` · the
 *   CLI's `check` on 200 state files, one worker against all cores (BENCH_CLI_MB in all, 0 skips it)
 *   · on the realistic 30k file, `state remove` with all dependents against one full check.
 * Prints a table and writes bench-results.json beside the generated files. No assertions.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AnalyzeFromDiskNotification, type DocumentStatusParams } from '../../shared/protocol';
import { LspTestClient, positionAt } from '../lsp/client';
import type { Hover } from 'vscode-languageserver-protocol';
import { checkReferencePoint, edit, floor, jsonLanguageService, ours, oursAfterEdit, previousAnalysis } from './figures';
import { generateState, growRealExport } from './generate';
import { startupInHosts, webBundleSizes } from './browser';
import { cliFigure, historyFigure, startFigures, type ExternalFigure } from './startupAndCli';
import { diffFigure, graphFigures, restoreFigure, upgradeFigure } from './graphFigures';
import { removeResources } from '../../shared/state/surgery';

/** The provider with the most provider references to it. */
function mostUsedProvider(text: string): string {
  const resources = (JSON.parse(text) as { deployment: { resources: Array<{ provider?: string }> } }).deployment.resources;
  const counts = new Map<string, number>();
  for (const r of resources) if (r.provider) counts.set(r.provider, (counts.get(r.provider) ?? 0) + 1);
  const [reference] = [...counts].sort((a, b) => b[1] - a[1])[0];
  return reference.slice(0, reference.lastIndexOf('::'));
}

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,30000').split(',').map(Number);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 3000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5);
const OUT = join(tmpdir(), 'quota-state-bench');
const ROOT = resolve(__dirname, '..', '..');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function time(f: () => unknown): Promise<number> {
  const start = performance.now();
  await f();
  return performance.now() - start;
}

/**
 * Median of `subject` and of JSON.parse, timed alternately, after warm-up. `setup` (untimed)
 * prepares each run's input, e.g. the previous version's analysis for a keystroke.
 */
async function measure<T = void>(
  text: string,
  subject: (input: T) => unknown,
  iterations = ITERATIONS,
  warmupMs = WARMUP_MS,
  setup: () => T = () => undefined as T,
): Promise<{ ms: number; parseMs: number }> {
  const warmEnd = performance.now() + warmupMs;
  do {
    await subject(setup());
    floor(text);
  } while (performance.now() < warmEnd);
  const a: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < iterations; i++) {
    p.push(await time(() => floor(text)));
    const input = setup();
    a.push(await time(() => subject(input)));
  }
  return { ms: median(a), parseMs: median(p) };
}

function peakRss(figure: string, file: string): number | undefined {
  const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(__dirname, 'child.ts'), figure, file], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  try {
    // The figure's own memory: the peak above what the process held with the text loaded.
    const measured = JSON.parse(result.stdout) as { maxRssBytes: number; rssBeforeBytes: number };
    return measured.maxRssBytes - measured.rssBeforeBytes;
  } catch {
    return undefined;
  }
}

interface Row {
  size: number;
  /** What `ratio` compares with, when it is not JSON.parse of the same text. */
  baseline?: string;
  baselineMs?: number;
  figure: string;
  ms: number;
  ratio: number;
  peakRssMB?: number;
  rssPerFileSize?: number;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await checkReferencePoint();
  const rows: Row[] = [];
  const files = new Map<number, { file: string; text: string }>();
  for (const size of SIZES) {
    const text = generateState({ resources: size, seed: 7 });
    const file = join(OUT, `bench-${size}.state.json`);
    writeFileSync(file, text);
    files.set(size, { file, text });
    const mb = text.length / 1e6;
    console.error(`generated ${size} resources: ${mb.toFixed(1)} MB → ${file}`);

    const add = (figure: string, m: { ms: number; parseMs: number }, rss?: number) =>
      rows.push({ size, figure, ms: m.ms, ratio: m.ms / m.parseMs, peakRssMB: rss && rss / 1e6, rssPerFileSize: rss && rss / text.length });
    const parse = await measure(text, () => floor(text));
    add('JSON.parse', parse, peakRss('json-parse', file));
    add('ours: full analysis', await measure(text, () => ours(text)), peakRss('ours', file));
    const big = size >= 10000;
    add(
      'vscode-json-languageservice',
      await measure(text, () => jsonLanguageService(text), big ? 1 : 3, big ? 0 : WARMUP_MS),
      process.env.BENCH_SKIP_JLS_RSS ? undefined : peakRss('json-languageservice', file),
    );
    if (size === 10000) {
      // The server's keystroke path: re-analysis from the previous version's analysis.
      const warm = previousAnalysis(text, true);
      for (const kind of ['value', 'key', 'syntax'] as const) {
        const edited = edit(text, kind);
        add(`ours: after a ${kind} edit`, await measure(text, () => oursAfterEdit(warm, edited)), kind === 'syntax' ? peakRss('ours-syntax-edit', file) : undefined);
      }
      // The first keystroke after opening also scans where each record is (once per document).
      const edited = edit(text, 'value');
      add(
        'ours: first value edit after open (scans record spans)',
        await measure(
          text,
          (previous) => oursAfterEdit(previous, edited),
          3,
          0,
          () => previousAnalysis(text, false),
        ),
      );
    }
  }

  // Realistic content: the real pulumi-eks export grown to 30k resources (references kept consistent),
  // clean and with a real integrity error on every tenth record.
  const realBase = readFileSync(join(ROOT, 'test', 'fixtures', 'state', 'real', 'pulumi-eks__tests_TPU_cluster_1.0.4_state.json'), 'utf8');
  const realSize = Number(process.env.BENCH_REAL_SIZE ?? 30000);
  for (const errorEvery of [0, 10]) {
    const text = growRealExport(realBase, { resources: realSize, errorEvery });
    const file = join(OUT, `bench-real-eks-${realSize}${errorEvery ? '-errors' : ''}.state.json`);
    writeFileSync(file, text);
    const label = `real eks ×${Math.ceil(realSize / 117)} (${(text.length / 1e6).toFixed(0)} MB${errorEvery ? `, error every ${errorEvery}th record` : ''})`;
    console.error(`generated ${label} → ${file}`);
    const parse = await measure(text, () => floor(text));
    rows.push({ size: realSize, figure: `${label}: JSON.parse`, ms: parse.ms, ratio: 1 });
    const full = await measure(text, () => ours(text));
    const rss = peakRss('ours', file);
    rows.push({
      size: realSize,
      figure: `${label}: ours, full analysis (target ≤ ${errorEvery ? 4 : 3}×)`,
      ms: full.ms,
      ratio: full.ms / full.parseMs,
      peakRssMB: rss && rss / 1e6,
      rssPerFileSize: rss && rss / text.length,
    });
    if (!errorEvery) {
      // State surgery: `state remove --target-dependents` of the provider most records use, computed
      // from the text (parse, dependents, edits, new text), against one full check (target ≤ 1×).
      const target = mostUsedProvider(text);
      const removed = removeResources(text, [target], { targetDependents: true, force: true, verify: false });
      const remove = await measure(text, () => removeResources(text, [target], { targetDependents: true, force: true, verify: false }));
      rows.push({
        size: realSize,
        figure: `${label}: state remove with all ${removed.changes.length - 1} dependents (target ≤ 1× a full check)`,
        ms: remove.ms,
        ratio: remove.ms / full.ms,
        baseline: 'ours, full analysis',
        baselineMs: full.ms,
      });
      for (const figure of graphFigures(label, file, text, Number(process.env.BENCH_CLI_RUNS ?? 3))) rows.push({ size: realSize, ...figure });
      rows.push({ size: realSize, ...diffFigure(label, file, text, Number(process.env.BENCH_CLI_RUNS ?? 3)) });
      rows.push({ size: realSize, ...restoreFigure(label, file, text, Number(process.env.BENCH_CLI_RUNS ?? 3)) });
      rows.push({ size: realSize, ...upgradeFigure(label, file, text, Number(process.env.BENCH_CLI_RUNS ?? 3)) });
    }
  }

  // End to end through the real server process.
  const client = await LspTestClient.start();
  try {
    const ten = files.get(10000) ?? files.get(SIZES[SIZES.length - 1])!;
    const uri = 'file:///bench/ten.state.json';
    const open = await time(() => client.open(uri, ten.text));
    const parseMs = median(
      [1, 2, 3].map(() => {
        const s = performance.now();
        floor(ten.text);
        return performance.now() - s;
      }),
    );
    const tenSize = files.has(10000) ? 10000 : SIZES[SIZES.length - 1];
    rows.push({ size: tenSize, figure: 'server: didOpen → publishDiagnostics', ms: open, ratio: open / parseMs });
    // The server's own share (the decoded didOpen → diagnostics handed to the pipe, as it reports in
    // the document status), and the rest: this client's encoding, the pipe and the message's decoding.
    const status = await client.waitForStatus<DocumentStatusParams>((params) => params.uri === uri && params.validationMs !== undefined);
    const serverSide = status.validationMs!;
    rows.push({ size: tenSize, figure: 'server: didOpen, server side (arrival → publish)', ms: serverSide, ratio: serverSide / parseMs });
    rows.push({ size: tenSize, figure: 'server: didOpen, client encoding + pipe + decoding', ms: open - serverSide, ratio: (open - serverSide) / parseMs });
    const changed = await time(() => client.change(uri, [{ range: positionRange(ten.text, edit(ten.text, 'value')), text: 'x' }]));
    // Includes the server's 150 ms change debounce.
    rows.push({ size: tenSize, figure: 'server: first didChange → publishDiagnostics (incl. 150 ms debounce)', ms: changed, ratio: changed / parseMs });

    // Responsiveness: hovers sent every 10 ms from a keystroke until its diagnostics arrive
    // (the worker validates meanwhile); each hover's own round trip is measured.
    let keystrokeText = edit(ten.text, 'value');
    const hoverAt = keystrokeText.indexOf('"parent": "urn', keystrokeText.length >> 1) + 12;
    // The snapshot editor features read is made while the worker validates, so the first hover
    // after the diagnostics finds it ready.
    const firstStart = performance.now();
    await client.request('textDocument/hover', { textDocument: { uri }, position: positionAt(keystrokeText, hoverAt) });
    const first = performance.now() - firstStart;
    rows.push({ size: tenSize, figure: 'server: first hover after the diagnostics', ms: first, ratio: first / parseMs });
    const latencies: number[] = [];
    const changes: number[] = [];
    for (let round = 0; round < 5; round++) {
      // Type one character 40 characters before the hovered urn, in the same record.
      const range = { start: positionAt(keystrokeText, hoverAt - 40), end: positionAt(keystrokeText, hoverAt - 40) };
      keystrokeText = keystrokeText.slice(0, hoverAt - 40) + 'y' + keystrokeText.slice(hoverAt - 40);
      let done = false;
      const changeStart = performance.now();
      const published = client.change(uri, [{ range, text: 'y' }]).then(() => {
        done = true;
        changes.push(performance.now() - changeStart);
      });
      const position = positionAt(keystrokeText, hoverAt + round + 1); // the urn moved right by one per round
      while (!done) {
        const start = performance.now();
        const hover = await client.request<unknown, Hover | null>('textDocument/hover', { textDocument: { uri }, position });
        latencies.push(performance.now() - start);
        if (!hover) throw new Error('hover found nothing at the urn');
        await new Promise((r) => setTimeout(r, 10));
      }
      await published;
    }
    rows.push({ size: tenSize, figure: `server: later didChange → publishDiagnostics, median of ${changes.length} (incl. debounce)`, ms: median(changes), ratio: median(changes) / parseMs });
    const sorted = [...latencies].sort((a, b) => a - b);
    rows.push({ size: tenSize, figure: `server: hover during validation, median of ${sorted.length}`, ms: median(sorted), ratio: median(sorted) / parseMs });
    rows.push({ size: tenSize, figure: 'server: hover during validation, max', ms: sorted[sorted.length - 1], ratio: sorted[sorted.length - 1] / parseMs });
    // The worst case: a hover sent the moment the file opens waits for the snapshot to be made.
    const second = 'file:///bench/ten-again.state.json';
    const openedAgain = client.open(second, ten.text);
    const eagerStart = performance.now();
    await client.request('textDocument/hover', { textDocument: { uri: second }, position: positionAt(ten.text, ten.text.indexOf('"parent": "urn') + 12) });
    const eager = performance.now() - eagerStart;
    rows.push({ size: tenSize, figure: 'server: hover sent right after didOpen', ms: eager, ratio: eager / parseMs });
    await openedAgain;
    const thirty = files.get(30000);
    if (thirty) {
      const diskUri = pathToFileURL(thirty.file).toString();
      const t0 = performance.now();
      const published = client.waitForDiagnostics(diskUri, undefined, 300_000);
      await client.notify(AnalyzeFromDiskNotification.method, { uri: diskUri });
      await published;
      const ms = performance.now() - t0;
      const p = median(
        [1, 2, 3].map(() => {
          const s = performance.now();
          floor(thirty.text);
          return performance.now() - s;
        }),
      );
      rows.push({ size: 30000, figure: 'server: analyzeFromDisk → publishDiagnostics', ms, ratio: ms / p });
    }
  } finally {
    await client.stop();
  }

  // Measured from outside: process starts, and the CLI on many files (BENCH_CLI_MB in all, 1000 by default).
  const external: ExternalFigure[] = [...(await startFigures(Number(process.env.BENCH_START_RUNS ?? 9)))];
  if (process.env.BENCH_CLI_MB !== '0') external.push(cliFigure(OUT, 200, Number(process.env.BENCH_CLI_MB ?? 1000), Number(process.env.BENCH_CLI_RUNS ?? 3)));
  external.push(await historyFigure(OUT, 1000, Number(process.env.BENCH_CLI_RUNS ?? 3)));
  for (const figure of external) rows.push({ size: 0, figure: figure.figure, ms: figure.ms, ratio: figure.ratio, baseline: figure.baseline, baselineMs: figure.baselineMs });

  // The browser build beside Node: bundle sizes, and activation → first diagnostics in each extension host.
  const sizes = await webBundleSizes();
  const hosts = process.env.BENCH_HOST_RUNS === '0' ? undefined : startupInHosts(Number(process.env.BENCH_HOST_RUNS ?? 3));
  if (hosts) {
    for (const [label, key] of [
      ['activation → language server ready', 'activationToServerReadyMs'],
      ['open small state file → first diagnostics', 'openToFirstDiagnosticsMs'],
      ['activation → first diagnostics (sum)', 'activationToFirstDiagnosticsMs'],
    ]) {
      const browserMs = hosts[`browser.${key}`];
      const nodeMs = hosts[`node.${key}`];
      if (browserMs === undefined || nodeMs === undefined) continue;
      rows.push({ size: 0, figure: `browser extension host: ${label}`, ms: browserMs, ratio: browserMs / Math.max(nodeMs, 1), baseline: `Node extension host`, baselineMs: nodeMs });
    }
  }

  const table = rows.map((r) => ({
    resources: r.size || '',
    figure: r.figure,
    'median ms': r.ms.toFixed(0),
    baseline: r.baseline ? `${r.baseline}: ${r.baselineMs?.toFixed(0)} ms` : 'JSON.parse',
    ratio: r.ratio.toFixed(2),
    'peak RSS Δ MB': r.peakRssMB?.toFixed(0) ?? '',
    'Δ RSS / file size': r.rssPerFileSize?.toFixed(2) ?? '',
  }));
  console.table(table);
  console.log('browser build (production, minified):');
  console.table(sizes.map((s) => ({ file: s.file, kB: (s.bytes / 1024).toFixed(0), 'gzip kB': (s.gzipBytes / 1024).toFixed(0) })));
  const resultsFile = join(OUT, 'bench-results.json');
  writeFileSync(resultsFile, JSON.stringify({ date: new Date().toISOString(), node: process.version, rows, webBundle: sizes, hosts }, null, 2));
  console.log(`results: ${resultsFile}`);
}

/** The range of the single inserted character between `text` and `edited`. */
function positionRange(text: string, edited: string) {
  let at = 0;
  while (at < text.length && text[at] === edited[at]) at++;
  const position = positionAt(text, at);
  return { start: position, end: position };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
