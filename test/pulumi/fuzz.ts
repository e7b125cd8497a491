/**
 * Runs the mutation fuzzer against the real Pulumi: mutants of the state fixtures, judged in batches by
 * Pulumi (tools/pulumi/judge) and by the product; every disagreement is shrunk and can be recorded as a
 * fixture under test/fixtures/pulumi-diff/ with Pulumi's message beside it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { judgeTexts, type PulumiVerdict } from '../helpers/realPulumi';
import { mutate, reductions, type Base, type Mutant } from './mutants';
import { compareWithPulumi } from './oracle';

export const ROOT = resolve(__dirname, '..', '..');
export const DIFF_FIXTURES = join(ROOT, 'test', 'fixtures', 'pulumi-diff');

/** Every state document among the test fixtures (real files included), as paths relative to the root. */
export function stateFixtureFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.json$/.test(entry.name) && !/\.(expect|pulumi)\.json$/.test(entry.name)) found.push(path);
    }
  };
  for (const dir of ['test/fixtures/state', 'test/fixtures/fixes', 'test/fixtures/pulumi-diff', 'test/extension/fixtures']) walk(join(ROOT, dir));
  found.push(join(ROOT, 'examples', 'webshop.state.json'));
  return found
    .filter((file) => /"(resources|deployment|checkpoint|latest|manifest)"/.test(readFileSync(file, 'utf8').slice(0, 1_000_000)) || file.includes('/state/'))
    .map((file) => relative(ROOT, file))
    .sort();
}

/** The fixtures Pulumi has a loading path for: the fuzzer's starting points. */
export function fuzzBases(): Base[] {
  return stateFixtureFiles()
    .filter((file) => !file.includes('pulumi-diff'))
    .map((file) => ({ name: file, text: readFileSync(join(ROOT, file), 'utf8') }))
    .filter((base) => {
      try {
        const root = JSON.parse(base.text);
        return typeof root === 'object' && root !== null && !Array.isArray(root) && !('urn' in root);
      } catch {
        return false;
      }
    });
}

/**
 * Most fixtures Pulumi already refuses (Pulumi's own checkpoint test data has children before parents),
 * and a mutant of a refused file says little: the files Pulumi accepts are drawn three times as often.
 */
function weightedBases(bases: Base[]): Base[] {
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-bases-'));
  try {
    const verdicts = judgeTexts(
      bases.map((b) => b.text),
      scratch,
    );
    return bases.flatMap((base, i) => (verdicts[i].accepted ? [base, base, base] : [base]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface Disagreement {
  mutant: Mutant;
  verdict: PulumiVerdict;
  reason: string;
  /** The smallest document found that still disagrees. */
  shrunk: string;
  shrunkVerdict: PulumiVerdict;
  shrunkReason: string;
}

export interface FuzzReport {
  mutants: number;
  accepted: number;
  refused: number;
  disagreements: Disagreement[];
}

function shrink(text: string, verdict: PulumiVerdict, reason: string, scratch: string): { text: string; verdict: PulumiVerdict; reason: string } {
  let current = { text, verdict, reason };
  for (let round = 0; round < 40; round++) {
    const candidates = reductions(current.text);
    if (candidates.length === 0) break;
    const verdicts = judgeTexts(candidates, join(scratch, `shrink-${round}`));
    const index = candidates.findIndex((candidate, i) => !compareWithPulumi(candidate, verdicts[i]).agree);
    if (index < 0) break;
    current = { text: candidates[index], verdict: verdicts[index], reason: compareWithPulumi(candidates[index], verdicts[index]).reason ?? '' };
  }
  return current;
}

export function runFuzz(options: { seed: number; count: number; batch?: number; bases?: Base[]; shrink?: boolean }): FuzzReport {
  const bases = options.bases ?? weightedBases(fuzzBases());
  const batch = options.batch ?? 250;
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-fuzz-'));
  const report: FuzzReport = { mutants: 0, accepted: 0, refused: 0, disagreements: [] };
  try {
    for (let start = 0; start < options.count; start += batch) {
      const mutants: Mutant[] = [];
      for (let index = start; index < Math.min(options.count, start + batch); index++) {
        mutants.push(mutate(bases[index % bases.length], options.seed, index));
      }
      const verdicts = judgeTexts(
        mutants.map((m) => m.text),
        join(scratch, `batch-${start}`),
      );
      mutants.forEach((mutant, i) => {
        report.mutants++;
        if (verdicts[i].accepted === true) report.accepted++;
        if (verdicts[i].accepted === false) report.refused++;
        const comparison = compareWithPulumi(mutant.text, verdicts[i]);
        if (comparison.agree) return;
        const shrunk = options.shrink === false ? { text: mutant.text, verdict: verdicts[i], reason: comparison.reason ?? '' } : shrink(mutant.text, verdicts[i], comparison.reason ?? '', scratch);
        report.disagreements.push({ mutant, verdict: verdicts[i], reason: comparison.reason ?? '', shrunk: shrunk.text, shrunkVerdict: shrunk.verdict, shrunkReason: shrunk.reason });
      });
      rmSync(join(scratch, `batch-${start}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return report;
}

/** Commits a disagreement as a fixture: the shrunk document and, beside it, Pulumi's verdict and the reason. */
export function recordDisagreement(disagreement: Disagreement, seed: number): string {
  mkdirSync(DIFF_FIXTURES, { recursive: true });
  const slug = `${disagreement.mutant.name
    .replace(/^.*\//, '')
    .replace(/\.json#/, '-')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')}-seed${seed}`;
  const file = join(DIFF_FIXTURES, `${slug}.json`);
  writeFileSync(file, disagreement.shrunk.endsWith('\n') ? disagreement.shrunk : `${disagreement.shrunk}\n`);
  writeFileSync(
    join(DIFF_FIXTURES, `${slug}.pulumi.txt`),
    [
      `mutations: ${disagreement.mutant.mutations.join(', ')}`,
      `pulumi: ${disagreement.shrunkVerdict.accepted ? 'accepted' : `refused at ${disagreement.shrunkVerdict.stage}`}`,
      `pulumi error: ${disagreement.shrunkVerdict.error ?? '(none)'}`,
      `disagreement when found: ${disagreement.shrunkReason}`,
      '',
    ].join('\n'),
  );
  return file;
}
