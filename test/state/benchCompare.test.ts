/**
 * `npm run bench -- --compare`: which figures the committed file keeps, which way each is better,
 * and what counts as a regression (more than 10 % worse), on made-up results (no timing).
 */
import { strict as assert } from 'node:assert';
import { compare, differences, formatComparison, summarize, type BenchResults, type BenchSummary, type SummaryFigure } from '../bench/compare';

const machine = { kind: 'Test CPU', cores: 2, node: 'v20.0.0' };

const results: BenchResults = {
  date: '2026-01-01T00:00:00.000Z',
  machine,
  settings: { BENCH_SIZES: '1000' },
  rows: [
    { id: '1k: JSON.parse', size: 1000, figure: 'JSON.parse', ms: 10, ratio: 0.98, rssPerFileSize: 1 },
    { id: '1k: ours, full analysis', size: 1000, figure: 'ours: full analysis', ms: 20, ratio: 2.0004, rssPerFileSize: 1.5 },
    { id: '1k: vscode-json-languageservice', size: 1000, figure: 'vscode-json-languageservice', ms: 400, ratio: 40, rssPerFileSize: 15 },
    { id: 'real 1k: JSON.parse', size: 1000, figure: 'real eks ×9 (4 MB): JSON.parse', ms: 11, ratio: 1 },
    { id: 'real 1k: state remove', size: 1000, figure: 'real eks ×9 (4 MB): state remove with all 66 dependents', ms: 5, ratio: 0.5, baseline: 'ours, full analysis', baselineMs: 10 },
    { id: 'check speed-up', size: 0, figure: 'quota-state check, --jobs 2', ms: 50, ratio: 1.8, baseline: '--jobs 1', baselineMs: 90, higherIsBetter: true },
    { size: 0, figure: 'server start, target ≤ 2×', ms: 300, ratio: 1.4, baseline: 'node -e 0', baselineMs: 214 },
    { id: 'broken', size: 0, figure: 'a baseline of 0 ms', ms: 1, ratio: Infinity },
  ],
};

const summary = (figures: Record<string, SummaryFigure>, overrides: Partial<BenchSummary> = {}): BenchSummary => ({ machine, figures, ...overrides });
const lower = (ratio: number): SummaryFigure => ({ ratio, lowerIsBetter: true });
const higher = (ratio: number): SummaryFigure => ({ ratio, lowerIsBetter: false });

describe('bench --compare: summarize', () => {
  const { figures, ...rest } = summarize(results);

  it('keeps each measured ratio under its id, not JSON.parse against itself nor an infinite ratio', () => {
    assert.deepEqual(Object.keys(figures), [
      '1k: ours, full analysis',
      '1k: ours, full analysis: peak RSS Δ / file size',
      '1k: speed-up over vscode-json-languageservice',
      'real 1k: state remove',
      'check speed-up',
      'server start, target ≤ 2×',
    ]);
    assert.deepEqual(rest, { date: '2026-01-01T00:00:00.000Z', machine, settings: { BENCH_SIZES: '1000' } });
  });

  it('rounds to three significant digits and names what each ratio is a multiple of', () => {
    assert.deepEqual(figures['1k: ours, full analysis'], { ratio: 2, lowerIsBetter: true, unit: '× JSON.parse' });
    assert.deepEqual(figures['1k: ours, full analysis: peak RSS Δ / file size'], { ratio: 1.5, lowerIsBetter: true, unit: '× file size' });
    assert.deepEqual(figures['real 1k: state remove'], { ratio: 0.5, lowerIsBetter: true, unit: '× ours, full analysis' });
    assert.deepEqual(figures['server start, target ≤ 2×'], { ratio: 1.4, lowerIsBetter: true, unit: '× node -e 0' });
  });

  it('turns vscode-json-languageservice into our speed-up over it, and keeps speed-ups higher-is-better', () => {
    assert.deepEqual(figures['1k: speed-up over vscode-json-languageservice'], { ratio: 20, lowerIsBetter: false, unit: '× faster' });
    assert.deepEqual(figures['check speed-up'], { ratio: 1.8, lowerIsBetter: false, unit: '× faster than --jobs 1' });
  });

  it('recognises a speed-up by its name in results without the flag', () => {
    const { figures: old } = summarize({ rows: [{ size: 0, figure: 'check, --jobs 2: speed-up, target ≥ 1.7×', ms: 1, ratio: 1.9 }] }, machine);
    assert.equal(old['check, --jobs 2: speed-up, target ≥ 1.7×'].lowerIsBetter, false);
  });
});

describe('bench --compare: compare', () => {
  it('a lower-is-better figure regresses when more than 10 % higher, not at 10 % nor when lower', () => {
    const rows = compare(summary({ a: lower(1.1), b: lower(1.11), c: lower(0.5) }), summary({ a: lower(1), b: lower(1), c: lower(1) }));
    assert.deepEqual(
      rows.map((row) => [row.name, row.regression]),
      [
        ['a', false],
        ['b', true],
        ['c', false],
      ],
    );
    assert.ok(Math.abs(rows[1].changePercent! - 11) < 1e-9);
    assert.equal(rows[2].changePercent, -50);
  });

  it('a higher-is-better figure regresses when more than 10 % lower, not when higher', () => {
    const rows = compare(summary({ fast: higher(17.9), faster: higher(30), same: higher(18) }), summary({ fast: higher(20), faster: higher(20), same: higher(20) }));
    assert.deepEqual(
      rows.map((row) => row.regression),
      [true, false, false],
    );
  });

  it('lists figures measured on one side only, and never calls them regressions', () => {
    const rows = compare(summary({ fresh: lower(5), zero: lower(1) }), summary({ gone: lower(1), zero: lower(0) }));
    assert.deepEqual(rows, [
      { name: 'fresh', unit: undefined, lowerIsBetter: true, committed: undefined, now: 5, regression: false },
      { name: 'zero', unit: undefined, lowerIsBetter: true, committed: 0, now: 1, regression: false },
      { name: 'gone', unit: undefined, lowerIsBetter: true, committed: 1, now: undefined, regression: false },
    ]);
  });

  it('prints a table marking the regressions only, and counts them', () => {
    const text = formatComparison(
      compare(summary({ worse: { ...lower(1.5), unit: '× JSON.parse' }, better: lower(0.5), fresh: lower(1) }), summary({ worse: lower(1), better: lower(1), gone: higher(2) })),
    );
    const line = (name: string) => text.split('\n').find((l) => l.startsWith(name)) ?? '';
    assert.match(line('worse (× JSON.parse)'), /lower\s+1\.00\s+1\.50\s+\+50\.0 %\s+REGRESSION/);
    assert.match(line('better'), /-50\.0 %$/);
    assert.match(line('fresh'), /new$/);
    assert.match(line('gone'), /higher\s+2\.00\s+—\s+not measured$/);
    assert.equal(text.match(/REGRESSION/g)?.length, 1);
    assert.match(text, /1 figure\(s\) more than 10 % worse than committed$/);
  });

  it('says when the machine, Node or the settings differ', () => {
    assert.deepEqual(differences(summary({}), summary({})), []);
    const other = summary({}, { machine: { kind: 'Other CPU', cores: 8, node: 'v22.0.0' }, settings: { BENCH_SIZES: '1000,10000' } });
    assert.deepEqual(differences(summary({}, { settings: { BENCH_SIZES: '1000' } }), other), [
      'machine: committed on Other CPU (8 cores), this one is Test CPU (2 cores)',
      'Node: committed with v22.0.0, this run v20.0.0',
      'setting BENCH_SIZES: committed 1000,10000, this run 1000',
    ]);
  });
});
