/**
 * Times only the full analysis of the grown real export against JSON.parse of the same text,
 * alternately, medians (the same figure as `npm run bench`'s "real eks … full analysis" row,
 * in a fraction of its time). Usage: node --import tsx test/bench/quickReal.ts [file] [iterations]
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';

const file = process.argv[2] || join(tmpdir(), 'quota-state-bench', 'bench-real-eks-30000.state.json');
const iterations = Number(process.argv[3] ?? 7);
const text = readFileSync(file, 'utf8');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (f: () => unknown) => {
  const start = performance.now();
  f();
  return performance.now() - start;
};
let diagnostics = 0;
for (let i = 0; i < 2; i++) {
  JSON.parse(text);
  diagnostics = analyzeState(text).diagnostics.length;
}
const parse: number[] = [];
const ours: number[] = [];
for (let i = 0; i < iterations; i++) {
  parse.push(time(() => JSON.parse(text)));
  ours.push(time(() => analyzeState(text)));
}
const p = median(parse);
const a = median(ours);
console.log(`${file}: JSON.parse ${p.toFixed(0)} ms, analyzeState ${a.toFixed(0)} ms, ratio ${(a / p).toFixed(2)}× (${diagnostics} diagnostics)`);
