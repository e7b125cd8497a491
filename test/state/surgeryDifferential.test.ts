/**
 * State surgery against real Pulumi v3.274.1: every operation, on generated documents (fixed seeds)
 * and on Pulumi's own fixtures, is also run with the real `pulumi state <op> --yes --non-interactive`
 * (clear-pending: `pulumi stack import`) on a `file://` stack holding the same document. The results
 * are compared by meaning (test/state/surgery/compare.ts lists the allowed normalisations); every
 * result we write is accepted by the real `pulumi stack import` and by our checker with no new error.
 *
 * A difference fails the suite and is written to test/fixtures/state/surgery-differences/ so that it
 * can be committed and replayed. Where Pulumi's behaviour is a defect, the deviation is named
 * (DEVIATIONS) and counted; the closing summary prints the counts.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import type { SurgeryOutcome } from '../../shared/state/surgery';
import { buildCases, DEST, exportOf, pulumiArgs, runOurs, SOURCE, type Case } from './surgery/cases';
import { canonical, difference } from './surgery/compare';
import { localPulumi, runJobs, type PulumiJob, type PulumiResult } from './surgery/pulumiBatch';

/** Pulumi's defects, where we write the correct result instead. */
export const DEVIATIONS = {
  'replaceWith-duplicated': 'rename, repair and move append the rewritten replaceWith list onto the old one, duplicating entries (and keeping the old urn)',
  'invalid-snapshot-panic': "Pulumi's edit produces a snapshot that fails its own integrity check and it panics (e.g. renaming a resource another lists in replaceWith)",
  'repair-leaves-errors': 'Pulumi writes nothing when errors remain after repair; we write the improvement and list what remains',
  'repair-keeps-dangling-replaceWith': "Pulumi's Prune keeps dangling replaceWith entries (it appends the kept ones to the old list), so the repair fails; we drop them as it drops dangling dependencies",
  'rename-ambiguous-child': 'Pulumi refuses a rename when a child has several records with one urn; we rename every copy',
  'move-integrity-bug': 'Pulumi\'s move fails its own integrity check ("This is a bug!"), e.g. on replaceWith',
} as const;

const SEEDS = Array.from({ length: 28 }, (_, i) => 1000 + i);
const pulumi = localPulumi();

interface Run {
  c: Case;
  ours: { source: SurgeryOutcome; dest?: SurgeryOutcome };
  theirs: PulumiResult;
  accepted?: PulumiResult[];
}

function stackFile(text: string, stack: string): string {
  void stack;
  return text;
}

function firstErrorLine(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.startsWith('error: '));
  return line ? line.slice('error: '.length).trim() : '';
}

const panicked = (r: PulumiResult) => /fatal error|assertion has failed|This is a bug!/.test(r.stderr + r.stdout);

describe('state surgery against real Pulumi v3.274.1 (differential)', function () {
  this.timeout(900_000);
  const runs: Run[] = [];
  const deviations = new Map<string, number>();
  const note = (name: keyof typeof DEVIATIONS) => deviations.set(name, (deviations.get(name) ?? 0) + 1);
  let seconds = 0;

  before(async function () {
    if (!pulumi) this.skip();
    const started = Date.now();
    const cases = buildCases(SEEDS);
    const jobs: PulumiJob[] = cases.map((c) => {
      const { args, files } = pulumiArgs(c);
      const stacks: Record<string, string> = { 'p/s': stackFile(c.input, SOURCE) };
      if (c.dest) stacks['q/d'] = stackFile(c.dest, DEST);
      return { stacks, files, args };
    });
    const results = await runJobs(pulumi!, jobs);
    cases.forEach((c, i) => runs.push({ c, ours: runOurs(c), theirs: results[i] }));
    // Acceptance: every file we would write, imported by the real `pulumi stack import`.
    const acceptance: Array<{ run: Run; job: PulumiJob }> = [];
    for (const run of runs) {
      const outputs: Array<[SurgeryOutcome | undefined, string, string]> = [
        [run.ours.source, 'p/s', SOURCE],
        [run.ours.dest, 'q/d', DEST],
      ];
      for (const [outcome, key, stack] of outputs) {
        if (!outcome || outcome.status !== 'applied' || outcome.remainingErrors.length) continue;
        const empty = JSON.stringify({ version: 3, checkpoint: { stack, latest: null } });
        acceptance.push({ run, job: { stacks: { [key]: empty }, files: { 'ours.json': exportOf(outcome.text) }, args: ['stack', 'import', '--stack', stack, '--non-interactive', '--file', '{dir}/ours.json'] } });
      }
    }
    const accepted = await runJobs(pulumi!, acceptance.map((a) => a.job));
    acceptance.forEach(({ run }, i) => (run.accepted ??= []).push(accepted[i]));
    seconds = (Date.now() - started) / 1000;
  });

  after(function () {
    if (!runs.length) return;
    const counts = [...deviations].map(([name, n]) => `${name} ×${n}`).join(', ');
    console.log(`      differential: ${runs.length} operations against pulumi v3.274.1, ${runs.reduce((n, r) => n + (r.accepted?.length ?? 0), 0)} imports, ${seconds.toFixed(1)} s; deviations: ${counts || 'none'}`);
  });

  it('runs at least 500 operations with fixed seeds', () => {
    assert.ok(runs.length >= 500, `only ${runs.length} operations`);
  });

  it('writes what Pulumi writes, by meaning, or refuses what Pulumi refuses (named deviations aside)', () => {
    const failures: string[] = [];
    for (const run of runs) {
      const { c, ours, theirs } = run;
      const problem = judge(run, note);
      if (problem) {
        failures.push(`${c.name}: ${problem}`);
        const folder = join(__dirname, '..', 'fixtures', 'state', 'surgery-differences');
        mkdirSync(folder, { recursive: true });
        const file = join(folder, `${c.kind}-${failures.length}.json`);
        writeFileSync(
          file,
          `${JSON.stringify({ case: { name: c.name, kind: c.kind, args: c.args, flags: c.flags, newName: c.newName }, problem, input: JSON.parse(c.input), dest: c.dest && JSON.parse(c.dest), ours: ours.source.status === 'refused' ? ours.source.errors : JSON.parse(ours.source.text), pulumi: { code: theirs.code, stderr: theirs.stderr.slice(0, 4000), stacks: theirs.stacks } }, null, 2)}\n`,
        );
      }
    }
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} differences (written to test/fixtures/state/surgery-differences/)`);
  });

  it('every file it writes is accepted by the real `pulumi stack import` and has no error the input lacked', () => {
    const failures: string[] = [];
    for (const run of runs) {
      for (const result of run.accepted ?? []) {
        if (result.code !== 0) failures.push(`${run.c.name}: pulumi stack import refused it: ${firstErrorLine(result.stderr) || result.stderr.slice(0, 300)}`);
      }
      for (const outcome of [run.ours.source, run.ours.dest]) {
        if (!outcome || outcome.status !== 'applied') continue;
        const before = new Set(analyzeState(run.c.input).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code));
        const fresh = analyzeState(outcome.text).diagnostics.filter((d) => d.severity === 'error' && !before.has(d.code));
        if (fresh.length) failures.push(`${run.c.name}: new ${fresh.map((d) => d.code).join(', ')}`);
      }
    }
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} failures`);
  });
});

/** Why a run fails the comparison, or undefined; counts the named deviations it meets. */
function judge(run: Run, note: (name: keyof typeof DEVIATIONS) => void): string | undefined {
  const { c, ours, theirs } = run;
  const oursRefused = ours.source.status === 'refused' || ours.dest?.status === 'refused';
  const theirsFailed = theirs.code !== 0;
  const pulumiError = firstErrorLine(theirs.stderr);
  if (theirsFailed && panicked(theirs)) {
    if (c.kind === 'move') note('move-integrity-bug');
    else note('invalid-snapshot-panic');
    return undefined;
  }
  if (theirsFailed && !oursRefused) {
    if (c.kind === 'repair' && /is specified as being replaced with .*, which is missing/.test(pulumiError) && !ours.source.remainingErrors.length) {
      note('repair-keeps-dangling-replaceWith');
      return undefined;
    }
    if (c.kind === 'repair' && /Failed to repair|snapshot/.test(theirs.stderr + theirs.stdout) && ours.source.remainingErrors.length) {
      note('repair-leaves-errors');
      return undefined;
    }
    if (c.kind === 'rename' && /ambiguously refers/.test(theirs.stderr)) {
      note('rename-ambiguous-child');
      return undefined;
    }
    return `Pulumi refused (${pulumiError || theirs.stderr.slice(0, 300)}) but ours applied`;
  }
  if (!theirsFailed && oursRefused) return `ours refused (${[...ours.source.errors, ...(ours.dest?.errors ?? [])].join(' | ').slice(0, 600)}) but Pulumi applied`;
  if (theirsFailed && oursRefused) {
    const mine = (ours.source.errors[0] ?? '').split('\n')[0];
    const theirsLine = pulumiError.split('\n')[0];
    if (mine && theirsLine && !theirsLine.startsWith(mine.slice(0, 40)) && !mine.startsWith(theirsLine.slice(0, 40))) {
      // Wording: the first line must agree where Pulumi gives a reason we also give.
      if (/^(No such resource|.* can't be safely deleted|Resource URN ambiguously|The chosen new urn|cannot move providers|resource .* already exists)/.test(theirsLine)) return `both refused, but ours says "${mine}" and Pulumi "${theirsLine}"`;
    }
    return undefined;
  }
  // Both applied: compare the stacks by meaning.
  const dedupe = c.kind === 'rename' || c.kind === 'repair' || c.kind === 'move';
  const pairs: Array<[SurgeryOutcome | undefined, string | undefined]> = [
    [ours.source, theirs.stacks['p/s']],
    [ours.dest, theirs.stacks['q/d']],
  ];
  for (const [outcome, text] of pairs) {
    if (!outcome) continue;
    if (text === undefined) return 'Pulumi left no stack file';
    const expected = c.kind === 'repair' && theirs.stdout.includes('already valid') ? c.input : text;
    const mine = canonical(outcome.text);
    const strict = canonical(expected);
    const relaxed = dedupe ? canonical(expected, { dedupeReplaceWith: true }) : strict;
    const problem = difference(mine, relaxed);
    if (problem) return problem;
    if (difference(mine, strict)) note('replaceWith-duplicated');
  }
  return undefined;
}
