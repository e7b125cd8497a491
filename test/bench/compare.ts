/**
 * `npm run bench -- --compare` / `--save`: the bench's figures as ratios (each against the baseline
 * its row names), summarized into the small committed file test/bench/results.json, and this run's
 * figures beside the committed ones, a regression being a ratio more than 10 % worse (higher when
 * lower is better, lower when higher is better). Pure functions but `currentMachine`; no timing here.
 */
import { cpus } from 'node:os';

/** Over this many percent worse than the committed figure is a regression. */
export const REGRESSION_PERCENT = 10;

export interface Machine {
  /** The CPU model, as `os.cpus()[0].model` names it. */
  kind: string;
  cores: number;
  /** `process.version`. */
  node: string;
}

export interface SummaryFigure {
  ratio: number;
  lowerIsBetter: boolean;
  /** What the ratio is a multiple of, e.g. `× JSON.parse`. */
  unit?: string;
}

export interface BenchSummary {
  date?: string;
  machine: Machine;
  /** The bench's settings (BENCH_* variables) of the run, when they matter to the figures. */
  settings?: Record<string, string | number>;
  note?: string;
  figures: Record<string, SummaryFigure>;
}

/** One row of bench-results.json, as test/bench/run.ts writes it. */
export interface BenchRow {
  /** A name that stays the same from run to run (the figure's text may hold measured counts). */
  id?: string;
  size: number;
  figure: string;
  ms: number;
  ratio: number;
  baseline?: string;
  baselineMs?: number;
  peakRssMB?: number;
  rssPerFileSize?: number;
  /** A speed-up (baseline ms / ms) rather than a time ratio. */
  higherIsBetter?: boolean;
}

export interface BenchResults {
  date?: string;
  node?: string;
  machine?: Machine;
  settings?: Record<string, string | number>;
  rows: BenchRow[];
}

export interface ComparisonRow {
  name: string;
  unit?: string;
  lowerIsBetter: boolean;
  committed?: number;
  now?: number;
  /** (now − committed) / committed in percent; undefined when either is missing or committed is not positive. */
  changePercent?: number;
  regression: boolean;
}

export function currentMachine(): Machine {
  const list = cpus();
  return { kind: list[0]?.model.trim() || 'unknown', cores: list.length, node: process.version };
}

const round = (value: number) => Number(value.toPrecision(3));
const keyOf = (row: BenchRow) => row.id ?? (row.size ? `${row.size} ${row.figure}` : row.figure);
/** The rows every other figure is a ratio to: JSON.parse against itself is always 1. */
const isBaselineRow = (row: BenchRow) => /(^|: )JSON\.parse$/.test(row.figure);
const isReferencePoint = (row: BenchRow) => row.figure === 'vscode-json-languageservice';
const higherIsBetter = (row: BenchRow) => row.higherIsBetter ?? /speed-up|× faster|throughput/i.test(row.figure);

/**
 * The figures worth guarding, as ratios: every measured row's ratio (not JSON.parse against itself),
 * its peak RSS over the file's size where measured, and in place of vscode-json-languageservice's own
 * time our speed-up over it at the same size (higher is better).
 */
export function summarize(results: BenchResults, machine: Machine | undefined = results.machine): BenchSummary {
  const figures: Record<string, SummaryFigure> = {};
  const add = (name: string, ratio: number, lowerIsBetter: boolean, unit?: string) => {
    if (Number.isFinite(ratio)) figures[name] = { ratio: round(ratio), lowerIsBetter, ...(unit ? { unit } : {}) };
  };
  for (const row of results.rows) {
    if (isBaselineRow(row)) continue;
    const key = keyOf(row);
    if (isReferencePoint(row)) {
      const ours = results.rows.find((other) => other.size === row.size && other.figure === 'ours: full analysis');
      if (ours && ours.ms > 0) add(key.replace(/vscode-json-languageservice$/, 'speed-up over vscode-json-languageservice'), row.ms / ours.ms, false, '× faster');
      continue;
    }
    const higher = higherIsBetter(row);
    add(key, row.ratio, !higher, `× ${higher ? 'faster than ' : ''}${row.baseline ?? 'JSON.parse'}`);
    if (row.rssPerFileSize !== undefined && row.rssPerFileSize !== null)
      add(`${key}: ${key.endsWith('whole process') ? 'peak RSS' : 'peak RSS Δ'} / file size`, row.rssPerFileSize, true, '× file size');
  }
  return {
    ...(results.date ? { date: results.date } : {}),
    machine: machine ?? { kind: 'unknown', cores: 0, node: results.node ?? 'unknown' },
    ...(results.settings ? { settings: results.settings } : {}),
    figures,
  };
}

/**
 * This run's figures beside the committed ones, in this run's order, then the committed figures
 * this run did not measure. A figure more than `thresholdPercent` worse is a regression.
 */
export function compare(current: BenchSummary, committed: BenchSummary, thresholdPercent = REGRESSION_PERCENT): ComparisonRow[] {
  const names = [...Object.keys(current.figures), ...Object.keys(committed.figures).filter((name) => !(name in current.figures))];
  return names.map((name) => {
    const now = current.figures[name];
    const before = committed.figures[name];
    const lowerIsBetter = (now ?? before).lowerIsBetter;
    const row: ComparisonRow = { name, unit: (now ?? before).unit, lowerIsBetter, committed: before?.ratio, now: now?.ratio, regression: false };
    if (now && before && before.ratio > 0) {
      // Rounded so that 1.00 → 1.10 is exactly 10 %, not 10.000000000000009.
      row.changePercent = Math.round(((now.ratio - before.ratio) / before.ratio) * 1e8) / 1e6;
      row.regression = lowerIsBetter ? row.changePercent > thresholdPercent : row.changePercent < -thresholdPercent;
    }
    return row;
  });
}

/** Why the two runs' figures may differ for reasons other than the code: machine, Node, settings. */
export function differences(current: BenchSummary, committed: BenchSummary): string[] {
  const found: string[] = [];
  const a = committed.machine;
  const b = current.machine;
  if (a.kind !== b.kind || a.cores !== b.cores) found.push(`machine: committed on ${a.kind} (${a.cores} cores), this one is ${b.kind} (${b.cores} cores)`);
  if (a.node !== b.node) found.push(`Node: committed with ${a.node}, this run ${b.node}`);
  const keys = new Set([...Object.keys(committed.settings ?? {}), ...Object.keys(current.settings ?? {})]);
  for (const key of keys) {
    const before = committed.settings?.[key];
    const now = current.settings?.[key];
    if (String(before) !== String(now)) found.push(`setting ${key}: committed ${before ?? '(unset)'}, this run ${now ?? '(unset)'}`);
  }
  return found;
}

const number = (value: number | undefined) => (value === undefined ? '—' : Math.abs(value) < 1 && value !== 0 ? value.toPrecision(3) : value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2));

/** A text table: figure, which way is better, committed, now, change, and REGRESSION where it is one. */
export function formatComparison(rows: ComparisonRow[], thresholdPercent = REGRESSION_PERCENT): string {
  const table = rows.map((row) => [
    row.unit ? `${row.name} (${row.unit})` : row.name,
    row.lowerIsBetter ? 'lower' : 'higher',
    number(row.committed),
    number(row.now),
    row.changePercent === undefined ? (row.committed === undefined ? 'new' : row.now === undefined ? 'not measured' : '—') : `${row.changePercent >= 0 ? '+' : ''}${row.changePercent.toFixed(1)} %`,
    row.regression ? `REGRESSION (> ${thresholdPercent} % worse)` : '',
  ]);
  const header = ['figure', 'better', 'committed', 'now', 'change', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column >= 2 && column <= 4 ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  const regressions = rows.filter((row) => row.regression).length;
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...table.map(line),
    '',
    regressions ? `${regressions} figure(s) more than ${thresholdPercent} % worse than committed` : `no figure more than ${thresholdPercent} % worse than committed`,
  ].join('\n');
}
