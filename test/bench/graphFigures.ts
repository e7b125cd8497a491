/**
 * The resource graph on the realistic 30k-resource file: the editor's picture (depth 1 around a
 * record, laid out) from the request to the layout's result, as the language server computes it,
 * first (building the whole graph) and then refocused (the graph built, as after each validation
 * while a graph is open), against the 300 ms target; and `quota-state graph --format dot` of the
 * whole file, whole process, against `JSON.parse` of it in a process of its own (target ≤ 2×).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { createStateService } from '../../shared/state';

const ROOT = resolve(__dirname, '..', '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const service = createStateService();

/** One whole process's wall time; it must exit with one of `ok`. */
function timeProcess(args: string[], ok: number[] = [0]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  if (!ok.includes(result.status ?? -1)) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return performance.now() - start;
}

interface GraphFigure {
  figure: string;
  ms: number;
  ratio: number;
  baseline: string;
  baselineMs: number;
}

export function graphFigures(label: string, file: string, text: string, runs: number): GraphFigure[] {
  const figures: GraphFigure[] = [];
  const first: number[] = [];
  const refocused: number[] = [];
  let shown = 0;
  for (let run = 0; run < runs; run++) {
    // A fresh snapshot each run, with its navigation ready, as the server has it once the diagnostics are out.
    const snapshot = service.parse(text);
    const document = { snapshot, navigation: service.navigationIndex(snapshot) };
    document.navigation.prepare();
    const at = (fraction: number) => text.indexOf('"urn"', Math.floor(text.length * fraction));
    let start = performance.now();
    const view = service.graph.view(document, [], { offset: at(0.5), depth: 1 });
    first.push(performance.now() - start);
    start = performance.now();
    const again = service.graph.view(document, [], { offset: at(0.7), depth: 1 });
    refocused.push(performance.now() - start);
    shown = Math.max(view.nodes.length, again.nodes.length);
  }
  figures.push({
    figure: `${label}: graph picture, depth 1 (${shown} nodes), request → layout, first (builds the graph)`,
    ms: median(first),
    ratio: median(first) / 300,
    baseline: 'the 300 ms target',
    baselineMs: 300,
  });
  figures.push({
    figure: `${label}: graph picture, depth 1, refocused (graph built after validation; target ≤ 300 ms)`,
    ms: median(refocused),
    ratio: median(refocused) / 300,
    baseline: 'the 300 ms target',
    baselineMs: 300,
  });

  const parse: number[] = [];
  const dot: number[] = [];
  for (let run = 0; run < runs; run++) {
    parse.push(timeProcess(['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`]));
    dot.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'graph', file]));
  }
  figures.push({
    figure: `${label}: quota-state graph --format dot, whole process (target ≤ 2×)`,
    ms: median(dot),
    ratio: median(dot) / median(parse),
    baseline: 'JSON.parse in a process',
    baselineMs: median(parse),
  });
  return figures;
}

/**
 * `quota-state diff` of the 30k-resource file against a later version of it (every 100th record's
 * inputs changed, every 1000th removed), whole process, against `JSON.parse` of both files in a
 * process of its own (target ≤ 3×).
 */
export function diffFigure(label: string, file: string, text: string, runs: number): GraphFigure {
  const later = JSON.parse(text) as { deployment: { resources: Array<Record<string, unknown>> } };
  later.deployment.resources = later.deployment.resources
    .filter((_, i) => i % 1000 !== 999)
    .map((record, i) => (i % 100 === 50 ? { ...record, inputs: { ...(record.inputs as object), benchTag: `v${i}` } } : record));
  const laterFile = file.replace(/\.json$/, '.later.json');
  writeFileSync(laterFile, JSON.stringify(later, null, 4));
  const parse: number[] = [];
  const diff: number[] = [];
  for (let run = 0; run < runs; run++) {
    parse.push(timeProcess(['-e', `for (const f of ${JSON.stringify([file, laterFile])}) JSON.parse(require('node:fs').readFileSync(f, 'utf8'))`]));
    diff.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'diff', file, laterFile, '--format', 'json']));
  }
  return {
    figure: `${label}: quota-state diff against a later version, whole process (target ≤ 3×)`,
    ms: median(diff),
    ratio: median(diff) / median(parse),
    baseline: 'JSON.parse of both in a process',
    baselineMs: median(parse),
  };
}

/**
 * `quota-state restore` of a DIY stack holding the 30k-resource file, to that same document (the
 * integrity check, the locks, the write and the .bak), whole process, against one full
 * `quota-state check` of the file (target ≤ 1×).
 */
export function restoreFigure(label: string, file: string, text: string, runs: number): GraphFigure {
  const urn = /"urn":\s*"urn:pulumi:([^:]+)::([^:]+)::/.exec(text);
  if (!urn) throw new Error(`${file}: no urn to name the stack by`);
  const [, stack, project] = urn;
  const root = file.replace(/\.json$/, '.backend');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, '.pulumi', 'stacks', project), { recursive: true });
  writeFileSync(join(root, '.pulumi', 'meta.yaml'), 'version: 1\n');
  const deployment = (JSON.parse(text) as { deployment: unknown }).deployment;
  writeFileSync(join(root, '.pulumi', 'stacks', project, `${stack}.json`), JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/${stack}`, latest: deployment } }));
  const check: number[] = [];
  const restore: number[] = [];
  for (let run = 0; run < runs; run++) {
    check.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'check', file, '--format', 'json'], [0, 1]));
    restore.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'restore', `organization/${project}/${stack}`, '--to', file, '--backend', `file://${root}`], [0]));
  }
  rmSync(root, { recursive: true, force: true });
  return {
    figure: `${label}: quota-state restore of the stack, whole process (target ≤ 1× a check)`,
    ms: median(restore),
    ratio: median(restore) / median(check),
    baseline: 'quota-state check of the file',
    baselineMs: median(check),
  };
}

/**
 * `quota-state backend upgrade` of a legacy backend holding the 30k-resource stack (the bench file
 * as its checkpoint) with 200 history entries (each beside a gzip checkpoint) and 200 backups, whole
 * process, against `JSON.parse` of the stack file in a process of its own (the target: seconds, not
 * Pulumi's reported minutes).
 */
export function upgradeFigure(label: string, file: string, text: string, runs: number): GraphFigure {
  const stack = 'dev';
  const deployment = (JSON.parse(text) as { deployment: unknown }).deployment;
  const checkpoint = JSON.stringify({ version: 3, checkpoint: { stack, latest: deployment } });
  const small = gzipSync(JSON.stringify({ version: 3, checkpoint: { stack, latest: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources: [] } } }));
  const source = file.replace(/\.json$/, '.legacy');
  rmSync(source, { recursive: true, force: true });
  for (const folder of ['stacks', `history/${stack}`, `backups/${stack}`]) mkdirSync(join(source, '.pulumi', folder), { recursive: true });
  writeFileSync(join(source, '.pulumi', 'stacks', `${stack}.json`), checkpoint);
  for (let i = 0; i < 200; i++) {
    const nano = `${1795845131 + i * 60}000000000`;
    writeFileSync(
      join(source, '.pulumi', 'history', stack, `${stack}-${nano}.history.json`),
      JSON.stringify({ kind: 'update', startTime: 1795845131 + i * 60, message: `deploy ${i}`, result: 'succeeded', endTime: 1795845131 + i * 60 + 5, resourceChanges: { same: 30000 } }),
    );
    writeFileSync(join(source, '.pulumi', 'history', stack, `${stack}-${nano}.checkpoint.json.gz`), small);
    writeFileSync(join(source, '.pulumi', 'backups', stack, `${stack}.${nano}.json.gz`), small);
  }
  const stackFile = join(source, '.pulumi', 'stacks', `${stack}.json`);
  const parse: number[] = [];
  const upgrade: number[] = [];
  for (let run = 0; run < runs; run++) {
    const copy = `${source}-${run}`;
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(join(copy, '.pulumi'), { recursive: true });
    spawnSync('cp', ['-r', join(source, '.pulumi'), copy]);
    parse.push(timeProcess(['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(stackFile)}, 'utf8'))`]));
    upgrade.push(timeProcess([join(ROOT, 'bin', 'quota-state.js'), 'backend', 'upgrade', '--backend', `file://${copy}`]));
    rmSync(copy, { recursive: true, force: true });
  }
  rmSync(source, { recursive: true, force: true });
  return {
    figure: `${label}: quota-state backend upgrade, the stack with 200 history entries and 200 backups, whole process`,
    ms: median(upgrade),
    ratio: median(upgrade) / median(parse),
    baseline: 'JSON.parse of the stack file in a process',
    baselineMs: median(parse),
  };
}

interface ServerGraphFigure {
  id: string;
  figure: string;
  ms: number;
  ratio: number;
  baseline?: string;
  baselineMs?: number;
}

/** The peak resident memory (VmHWM) of a process, worker threads included; undefined where /proc has none. */
function peakRssOf(pid: number): number | undefined {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resource graph in the language server, on the realistic 30k file no editor holds (the server
 * reads it from disk, in its graph worker): the whole graph, first (read, parsed and grouped) and
 * refocused (grouped by type, the state kept); a hover on an open document sent while the whole
 * graph is laid out; and the server's peak memory against the file's size.
 */
export async function serverGraphFigures(
  client: { process: { pid?: number }; request<P, R>(method: string, params: P): Promise<R> },
  file: string,
  open: { uri: string; position: { line: number; character: number } },
): Promise<ServerGraphFigure[]> {
  const text = readFileSync(file, 'utf8');
  const parse = median(
    [1, 2, 3].map(() => {
      const start = performance.now();
      JSON.parse(text);
      return performance.now() - start;
    }),
  );
  const uri = pathToFileURL(file).toString();
  const whole = (groupBy?: string) => client.request('quotaState/resourceGraph', { uri, depth: 'all', ...(groupBy ? { groupBy } : {}) });
  let start = performance.now();
  const firstAnswer = whole();
  // A hover on another document while the whole graph is read and laid out.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const hoverStart = performance.now();
  await client.request('textDocument/hover', { textDocument: { uri: open.uri }, position: open.position });
  const hover = performance.now() - hoverStart;
  await firstAnswer;
  const first = performance.now() - start;
  start = performance.now();
  await whole('type');
  const refocused = performance.now() - start;
  const figures: ServerGraphFigure[] = [
    { id: 'server real 30k: whole graph, first', figure: 'server: whole graph of the real 30k file from disk, first (read, parse, group, lay out)', ms: first, ratio: first / parse },
    { id: 'server real 30k: whole graph, regrouped', figure: 'server: whole graph of the real 30k file, grouped anew (state kept in the worker)', ms: refocused, ratio: refocused / parse },
    { id: 'server real 30k: hover while the whole graph is laid out', figure: 'server: hover on an open document while the whole graph is laid out', ms: hover, ratio: hover / parse },
  ];
  const peak = client.process.pid === undefined ? undefined : peakRssOf(client.process.pid);
  if (peak !== undefined) {
    figures.push({
      id: 'server: peak RSS / real 30k file size',
      figure: `server: peak RSS over the whole server run (${(peak / 2 ** 20).toFixed(0)} MiB; bound 1 GiB + 12× the file)`,
      ms: peak / 2 ** 20,
      ratio: peak / Buffer.byteLength(text),
      baseline: 'the file size',
      baselineMs: Buffer.byteLength(text) / 2 ** 20,
    });
  }
  return figures;
}
