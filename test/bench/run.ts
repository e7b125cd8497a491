/**
 * `npm run bench`: synthetic state files of 1k / 10k / 30k resources (deterministic
 * seed, written to the OS temp folder), then, as medians after warm-up and as ratios to
 * `JSON.parse` of the same text timed alternately in the same process:
 *   JSON.parse · vscode-json-languageservice parse+doValidation with our schemas · our full
 *   analysis · re-analysis after value / key / syntax-breaking edits (10k) · peak RSS per figure
 *   (child processes) · end to end through the real server (didOpen/didChange on 10k, from-disk on 30k)
 *   · server start → first diagnostics (small state / quota file) against a bare `node -e 0` · the
 *   CLI's `check` on 200 state files, one worker against all cores (BENCH_CLI_MB in all, 0 skips it)
 *   · on the realistic 30k file, `state remove` with all dependents against one full check · `backend copy`
 *   of 200 stacks × 50 entries, file→file against `cp -r` and file→s3 against the AWS SDK's upload.
 * Prints a table and writes bench-results.json beside the generated files. No assertions.
 *
 * `--compare` then prints each figure (a ratio to its row's baseline) beside the committed one in
 * test/bench/results.json, marking those more than 10 % worse, and says when the machine, Node or
 * the BENCH_* settings differ from the committed run's; `--save` writes this run's figures there
 * (a maintainer's deliberate refresh); `--from <bench-results.json>` skips the measuring and reads
 * an earlier run's results instead. See docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AnalyzeFromDiskNotification, type DocumentStatusParams } from '../../shared/protocol';
import { LspTestClient, positionAt } from '../lsp/client';
import type { Hover } from 'vscode-languageserver-protocol';
import { checkReferencePoint, edit, floor, jsonLanguageService, ours, oursAfterEdit, previousAnalysis } from './figures';
import { generateState, growRealExport } from './generate';
import { startupInHosts, webBundleSizes } from './browser';
import { cliFigure, historyFigure, startFigures, type ExternalFigure } from './startupAndCli';
import { diffFigure, graphFigures, restoreFigure, serverGraphFigures, upgradeFigure } from './graphFigures';
import { bucketFigures } from './s3Figures';
import { remoteFigures } from './remoteFigures';
import { REMOTE_BENCH_SCHEMES } from './remoteSchemes';
import { COPY_ENTRIES, COPY_RUNS, COPY_STACKS, copyFigures } from './copyFigures';
import { removeResources } from '../../shared/state/surgery';
import { compare, currentMachine, differences, formatComparison, summarize, type BenchResults, type BenchRow, type BenchSummary } from './compare';

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
const REAL_SIZE = Number(process.env.BENCH_REAL_SIZE ?? 30000);
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 3);
const START_RUNS = Number(process.env.BENCH_START_RUNS ?? 9);
const HOST_RUNS = Number(process.env.BENCH_HOST_RUNS ?? 3);
const CLI_MB = Number(process.env.BENCH_CLI_MB ?? 1000);
/** What the figures depend on besides the code and the machine, kept with them. */
const SETTINGS: Record<string, string | number> = {
  BENCH_SIZES: SIZES.join(','),
  BENCH_ITERATIONS: ITERATIONS,
  BENCH_WARMUP_MS: WARMUP_MS,
  BENCH_REAL_SIZE: REAL_SIZE,
  BENCH_CLI_MB: CLI_MB,
  BENCH_CLI_RUNS: CLI_RUNS,
  BENCH_START_RUNS: START_RUNS,
  BENCH_HOST_RUNS: HOST_RUNS,
  ...(process.env.BENCH_COPY === '0' ? {} : { BENCH_COPY_STACKS: COPY_STACKS, BENCH_COPY_ENTRIES: COPY_ENTRIES, BENCH_COPY_RUNS: COPY_RUNS }),
  ...(process.env.BENCH_SKIP_JLS_RSS ? { BENCH_SKIP_JLS_RSS: process.env.BENCH_SKIP_JLS_RSS } : {}),
};
const OUT = join(tmpdir(), 'quota-state-bench');
const ROOT = resolve(__dirname, '..', '..');
/** The committed figures `--compare` reads and `--save` writes. */
const COMMITTED = join(ROOT, 'test', 'bench', 'results.json');
/** 1000 → 1k: the size part of a figure's id. */
const k = (size: number) => (size >= 1000 && size % 1000 === 0 ? `${size / 1000}k` : String(size));

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

/**
 * `quota-state check` of the file, whole process, against `JSON.parse` of it in a process of its own,
 * alternately `runs` times (target ≤ 1.3×), with each process's peak RSS (target ≤ 3× the file's size).
 */
function checkFigure(label: string, file: string, runs: number): Omit<BenchRow, 'size'> {
  const rssFile = join(OUT, 'peak-rss.txt');
  const peaks = { parse: 0, check: 0 };
  const timeProcess = (args: string[], which: keyof typeof peaks) => {
    const start = performance.now();
    const result = spawnSync(process.execPath, ['-r', join(__dirname, 'reportPeakRss.cjs'), ...args], {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
      env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile },
    });
    if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
    const ms = performance.now() - start;
    peaks[which] = Math.max(peaks[which], Number(readFileSync(rssFile, 'utf8')));
    return ms;
  };
  const parse: number[] = [];
  const check: number[] = [];
  for (let run = 0; run < runs; run++) {
    parse.push(timeProcess(['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`], 'parse'));
    check.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'check', file], 'check'));
  }
  const size = statSync(file).size;
  return {
    figure: `${label}: quota-state check, whole process (target ≤ 1.3×; peak RSS ${(peaks.check / size).toFixed(2)}× the file, JSON.parse's ${(peaks.parse / size).toFixed(2)}×, target ≤ 3×)`,
    ms: median(check),
    ratio: median(check) / median(parse),
    baseline: 'JSON.parse in a process',
    baselineMs: median(parse),
    peakRssMB: peaks.check / 1e6,
    rssPerFileSize: peaks.check / size,
  };
}

/** One figure; `id` stays the same from run to run (the text may hold measured counts), `baseline` is what `ratio` compares with when it is not JSON.parse of the same text. */
type Row = BenchRow & { id: string };

async function measureAll(): Promise<BenchResults & { webBundle: Awaited<ReturnType<typeof webBundleSizes>>; hosts?: Record<string, number> }> {
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

    const add = (id: string, figure: string, m: { ms: number; parseMs: number }, rss?: number) =>
      rows.push({ id: `${k(size)}: ${id}`, size, figure, ms: m.ms, ratio: m.ms / m.parseMs, peakRssMB: rss && rss / 1e6, rssPerFileSize: rss && rss / text.length });
    const parse = await measure(text, () => floor(text));
    add('JSON.parse', 'JSON.parse', parse, peakRss('json-parse', file));
    add('ours, full analysis', 'ours: full analysis', await measure(text, () => ours(text)), peakRss('ours', file));
    const big = size >= 10000;
    add(
      'vscode-json-languageservice',
      'vscode-json-languageservice',
      await measure(text, () => jsonLanguageService(text), big ? 1 : 3, big ? 0 : WARMUP_MS),
      process.env.BENCH_SKIP_JLS_RSS ? undefined : peakRss('json-languageservice', file),
    );
    if (size === 10000) {
      // The server's keystroke path: re-analysis from the previous version's analysis.
      const warm = previousAnalysis(text, true);
      for (const kind of ['value', 'key', 'syntax'] as const) {
        const edited = edit(text, kind);
        add(`ours, after a ${kind} edit`, `ours: after a ${kind} edit`, await measure(text, () => oursAfterEdit(warm, edited)), kind === 'syntax' ? peakRss('ours-syntax-edit', file) : undefined);
      }
      // The first keystroke after opening also scans where each record is (once per document).
      const edited = edit(text, 'value');
      add(
        'ours, first value edit after open',
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
    if (size === 30000) rows.push({ id: `${k(size)}: check, whole process`, size, ...checkFigure(`${k(size)} (${mb.toFixed(0)} MB)`, file, CLI_RUNS) });
  }

  // Realistic content: the real pulumi-eks export grown to 30k resources (references kept consistent),
  // clean and with a real integrity error on every tenth record.
  const realBase = readFileSync(join(ROOT, 'test', 'fixtures', 'state', 'real', 'pulumi-eks__tests_TPU_cluster_1.0.4_state.json'), 'utf8');
  const realSize = REAL_SIZE;
  for (const errorEvery of [0, 10]) {
    const real = `real ${k(realSize)}${errorEvery ? ' with errors' : ''}`;
    const text = growRealExport(realBase, { resources: realSize, errorEvery });
    const file = join(OUT, `bench-real-eks-${realSize}${errorEvery ? '-errors' : ''}.state.json`);
    writeFileSync(file, text);
    const label = `real eks ×${Math.ceil(realSize / 117)} (${(text.length / 1e6).toFixed(0)} MB${errorEvery ? `, error every ${errorEvery}th record` : ''})`;
    console.error(`generated ${label} → ${file}`);
    const parse = await measure(text, () => floor(text));
    rows.push({ id: `${real}: JSON.parse`, size: realSize, figure: `${label}: JSON.parse`, ms: parse.ms, ratio: 1 });
    const full = await measure(text, () => ours(text));
    const rss = peakRss('ours', file);
    rows.push({
      id: `${real}: ours, full analysis`,
      size: realSize,
      figure: `${label}: ours, full analysis (target ≤ 2×)`,
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
        id: `${real}: state remove with all dependents`,
        size: realSize,
        figure: `${label}: state remove with all ${removed.changes.length - 1} dependents (target ≤ 1× a full check)`,
        ms: remove.ms,
        ratio: remove.ms / full.ms,
        baseline: 'ours, full analysis',
        baselineMs: full.ms,
      });
      const graphIds = ['graph picture, first', 'graph picture, refocused', 'graph --format dot, whole process'];
      graphFigures(label, file, text, CLI_RUNS).forEach((figure, i) => rows.push({ id: `${real}: ${graphIds[i] ?? figure.figure}`, size: realSize, ...figure }));
      rows.push({ id: `${real}: check, whole process`, size: realSize, ...checkFigure(label, file, CLI_RUNS) });
      rows.push({ id: `${real}: diff, whole process`, size: realSize, ...diffFigure(label, file, text, CLI_RUNS) });
      rows.push({ id: `${real}: restore, whole process`, size: realSize, ...restoreFigure(label, file, text, CLI_RUNS) });
      rows.push({ id: `${real}: backend upgrade, whole process`, size: realSize, ...upgradeFigure(label, file, text, CLI_RUNS) });
      // Object storage: a 1,000-stack bucket on a real MinIO beside file:// (BENCH_S3=0 skips it: the fill takes minutes).
      if (process.env.BENCH_S3 !== '0') {
        const s3Ids = ['s3: backend ls of 1,000 stacks', 's3: history of one stack', 's3: check of the 30k stack'];
        (await bucketFigures(OUT, file, CLI_RUNS, (line) => console.error(line))).forEach((figure, i) => rows.push({ id: s3Ids[i], size: realSize, ...figure }));
      }
      // The other remote schemes on their real servers, the same figures (BENCH_REMOTES=0 skips them; BENCH_REMOTES=gs,postgres picks).
      if (process.env.BENCH_REMOTES !== '0') {
        const picked = process.env.BENCH_REMOTES?.split(',');
        const schemes = REMOTE_BENCH_SCHEMES.filter((scheme) => !picked || picked.includes(scheme.scheme));
        for (const { id, ...figure } of await remoteFigures(schemes, OUT, file, CLI_RUNS, (line) => console.error(line))) rows.push({ id, size: realSize, ...figure });
      }
    }
  }

  // `backend copy` of a 200-stack × 50-entry backend, file→file against `cp -r` and file→s3 (MinIO) against the AWS SDK's upload (BENCH_COPY=0 skips it).
  if (process.env.BENCH_COPY !== '0') for (const { id, ...figure } of await copyFigures(OUT, COPY_RUNS, (line) => console.error(line))) rows.push({ id, size: 0, ...figure });

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
    const server = `server ${k(tenSize)}`;
    rows.push({ id: `${server}: didOpen → publishDiagnostics`, size: tenSize, figure: 'server: didOpen → publishDiagnostics', ms: open, ratio: open / parseMs });
    // The server's own share (the decoded didOpen → diagnostics handed to the pipe, as it reports in
    // the document status), and the rest: this client's encoding, the pipe and the message's decoding.
    const status = await client.waitForStatus<DocumentStatusParams>((params) => params.uri === uri && params.validationMs !== undefined);
    const serverSide = status.validationMs!;
    rows.push({ id: `${server}: didOpen, server side`, size: tenSize, figure: 'server: didOpen, server side (arrival → publish)', ms: serverSide, ratio: serverSide / parseMs });
    rows.push({
      id: `${server}: didOpen, client encoding + pipe + decoding`,
      size: tenSize,
      figure: 'server: didOpen, client encoding + pipe + decoding',
      ms: open - serverSide,
      ratio: (open - serverSide) / parseMs,
    });
    const changed = await time(() => client.change(uri, [{ range: positionRange(ten.text, edit(ten.text, 'value')), text: 'x' }]));
    // Includes the server's 150 ms change debounce.
    rows.push({
      id: `${server}: first didChange → publishDiagnostics`,
      size: tenSize,
      figure: 'server: first didChange → publishDiagnostics (incl. 150 ms debounce)',
      ms: changed,
      ratio: changed / parseMs,
    });

    // Responsiveness: hovers sent every 10 ms from a keystroke until its diagnostics arrive
    // (the worker validates meanwhile); each hover's own round trip is measured.
    let keystrokeText = edit(ten.text, 'value');
    const hoverAt = keystrokeText.indexOf('"parent": "urn', keystrokeText.length >> 1) + 12;
    // The snapshot editor features read is made while the worker validates, so the first hover
    // after the diagnostics finds it ready.
    const firstStart = performance.now();
    await client.request('textDocument/hover', { textDocument: { uri }, position: positionAt(keystrokeText, hoverAt) });
    const first = performance.now() - firstStart;
    rows.push({ id: `${server}: first hover after the diagnostics`, size: tenSize, figure: 'server: first hover after the diagnostics', ms: first, ratio: first / parseMs });
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
    rows.push({
      id: `${server}: later didChange → publishDiagnostics, median`,
      size: tenSize,
      figure: `server: later didChange → publishDiagnostics, median of ${changes.length} (incl. debounce)`,
      ms: median(changes),
      ratio: median(changes) / parseMs,
    });
    const sorted = [...latencies].sort((a, b) => a - b);
    rows.push({
      id: `${server}: hover during validation, median`,
      size: tenSize,
      figure: `server: hover during validation, median of ${sorted.length}`,
      ms: median(sorted),
      ratio: median(sorted) / parseMs,
    });
    rows.push({
      id: `${server}: hover during validation, max`,
      size: tenSize,
      figure: 'server: hover during validation, max',
      ms: sorted[sorted.length - 1],
      ratio: sorted[sorted.length - 1] / parseMs,
    });
    // The worst case: a hover sent the moment the file opens waits for the snapshot to be made.
    const second = 'file:///bench/ten-again.state.json';
    const openedAgain = client.open(second, ten.text);
    const eagerStart = performance.now();
    await client.request('textDocument/hover', { textDocument: { uri: second }, position: positionAt(ten.text, ten.text.indexOf('"parent": "urn') + 12) });
    const eager = performance.now() - eagerStart;
    rows.push({ id: `${server}: hover sent right after didOpen`, size: tenSize, figure: 'server: hover sent right after didOpen', ms: eager, ratio: eager / parseMs });
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
      rows.push({ id: 'server 30k: analyzeFromDisk → publishDiagnostics', size: 30000, figure: 'server: analyzeFromDisk → publishDiagnostics', ms, ratio: ms / p });
    }
    // The resource graph of the real 30k file in the server: whole graph, a hover meanwhile, peak memory.
    const realFile = join(OUT, `bench-real-eks-${REAL_SIZE}.state.json`);
    if (existsSync(realFile)) {
      const hoverAt = positionAt(ten.text, ten.text.indexOf('"parent": "urn') + 12);
      for (const figure of await serverGraphFigures(client, realFile, { uri, position: hoverAt })) rows.push({ size: REAL_SIZE, ...figure });
    }
  } finally {
    await client.stop();
  }

  // Measured from outside: process starts, and the CLI on many files (BENCH_CLI_MB in all, 1000 by default).
  const [stateStart, quotaStart, firstStart] = await startFigures(START_RUNS);
  const external: Array<[string, ExternalFigure, boolean?]> = [
    ['start → first diagnostics, small state file', stateStart],
    ['start → first diagnostics, small quota file', quotaStart],
    ['start → first diagnostics, small state file, no code cache', firstStart],
  ];
  // A speed-up (--jobs 1 over --jobs <cores>): higher is better.
  if (CLI_MB !== 0) external.push(['check, 200 files, all cores: speed-up over --jobs 1', cliFigure(OUT, 200, CLI_MB, CLI_RUNS), true]);
  external.push(['history, 1000 entries', await historyFigure(OUT, 1000, CLI_RUNS)]);
  for (const [id, figure, higherIsBetter] of external) {
    rows.push({ id, size: 0, figure: figure.figure, ms: figure.ms, ratio: figure.ratio, baseline: figure.baseline, baselineMs: figure.baselineMs, ...(higherIsBetter ? { higherIsBetter } : {}) });
  }

  // The browser build beside Node: bundle sizes, and activation → first diagnostics in each extension host.
  const sizes = await webBundleSizes();
  const hosts = HOST_RUNS === 0 ? undefined : startupInHosts(HOST_RUNS);
  if (hosts) {
    for (const [label, key] of [
      ['activation → language server ready', 'activationToServerReadyMs'],
      ['open small state file → first diagnostics', 'openToFirstDiagnosticsMs'],
      ['activation → first diagnostics (sum)', 'activationToFirstDiagnosticsMs'],
    ]) {
      const browserMs = hosts[`browser.${key}`];
      const nodeMs = hosts[`node.${key}`];
      if (browserMs === undefined || nodeMs === undefined) continue;
      rows.push({
        id: `browser host: ${label}`,
        size: 0,
        figure: `browser extension host: ${label}`,
        ms: browserMs,
        ratio: browserMs / Math.max(nodeMs, 1),
        baseline: `Node extension host`,
        baselineMs: nodeMs,
      });
    }
  }

  return { date: new Date().toISOString(), node: process.version, machine: currentMachine(), settings: SETTINGS, rows, webBundle: sizes, hosts };
}

function printTable({ rows, webBundle }: BenchResults & { webBundle?: Awaited<ReturnType<typeof webBundleSizes>> }): void {
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
  if (!webBundle) return;
  console.log('browser build (production, minified):');
  console.table(webBundle.map((s) => ({ file: s.file, kB: (s.bytes / 1024).toFixed(0), 'gzip kB': (s.gzipBytes / 1024).toFixed(0) })));
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({ options: { compare: { type: 'boolean' }, save: { type: 'boolean' }, from: { type: 'string' } } });
  let results: BenchResults;
  if (options.from) {
    results = JSON.parse(readFileSync(options.from, 'utf8')) as BenchResults;
    console.log(`results of ${results.date ?? 'an earlier run'}: ${options.from}`);
  } else {
    results = await measureAll();
    printTable(results);
    const resultsFile = join(OUT, 'bench-results.json');
    writeFileSync(resultsFile, JSON.stringify(results, null, 2));
    console.log(`results: ${resultsFile}`);
  }
  const summary = summarize(results, results.machine ?? currentMachine());
  if (options.compare) printComparison(summary);
  if (options.save) {
    writeFileSync(COMMITTED, `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`saved ${Object.keys(summary.figures).length} figures to ${COMMITTED}`);
  }
}

/** This run's figures beside the committed ones, and what differs between the two runs besides the code. */
function printComparison(summary: BenchSummary): void {
  if (!existsSync(COMMITTED)) {
    console.log(`--compare: no committed figures at ${COMMITTED} (npm run bench -- --save writes them)`);
    return;
  }
  const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as BenchSummary;
  console.log(`\ncompared with the committed figures of ${committed.date ?? 'an unknown date'} (${COMMITTED}):`);
  console.log(formatComparison(compare(summary, committed)));
  const differ = differences(summary, committed);
  if (differ.length) console.log(`\nthe two runs differ besides the code, so the changes above may be the machine's:\n${differ.map((line) => `- ${line}`).join('\n')}`);
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
