/** How the differential suite judges one operation: ours against Pulumi's, with Pulumi's defects named. */
import type { SurgeryOutcome } from '../../../shared/state/surgery';
import type { Case } from './cases';
import { canonical, difference } from './compare';
import type { PulumiVerdict } from '../../helpers/realPulumi';
import type { PulumiResult } from './pulumiBatch';

export interface Run {
  c: Case;
  ours: { source: SurgeryOutcome; dest?: SurgeryOutcome };
  theirs: PulumiResult;
  accepted?: PulumiResult[];
  /** Pulumi's loader on each file we would write (test/helpers/realPulumi.ts's judge). */
  verdicts?: PulumiVerdict[];
}

/** Pulumi's defects, where we write the correct result instead. */
export const DEVIATIONS = {
  'replaceWith-duplicated': 'rename, repair and move append the rewritten replaceWith list onto the old one, duplicating entries (and keeping the old urn)',
  'invalid-snapshot-panic': "Pulumi's edit produces a snapshot that fails its own integrity check and it panics (e.g. renaming a resource another lists in replaceWith)",
  'repair-leaves-errors': 'Pulumi writes nothing when errors remain after repair; we write the improvement and list what remains',
  'repair-keeps-dangling-replaceWith':
    "Pulumi's Prune keeps dangling replaceWith entries (it appends the kept ones to the old list), so the repair fails; we drop them as it drops dangling dependencies",
  'rename-ambiguous-child': 'Pulumi refuses a rename when a child has several records with one urn; we rename every copy',
  'move-integrity-bug': 'Pulumi\'s move fails its own integrity check ("This is a bug!"), e.g. on replaceWith',
} as const;

export function firstErrorLine(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.startsWith('error: '));
  return line ? line.slice('error: '.length).trim() : '';
}

const panicked = (r: PulumiResult) => /fatal error|assertion has failed|This is a bug!/.test(r.stderr + r.stdout);

/** Why a run fails the comparison, or undefined; counts the named deviations it meets. */
export function judge(run: Run, note: (name: keyof typeof DEVIATIONS) => void): string | undefined {
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
    // Several targets refused for their dependents: Pulumi orders them by iterating a Go map
    // (computeStateDeleteOrder in pkg/cmd/pulumi/state/state_delete.go), so which one it names first
    // varies from run to run. Both refusing for that reason is agreement.
    const dependentsRefusal = /can't be safely deleted because the following resources depend on it/;
    if (c.kind === 'remove' && dependentsRefusal.test(mine) && dependentsRefusal.test(theirsLine)) return undefined;
    if (mine && theirsLine && !theirsLine.startsWith(mine.slice(0, 40)) && !mine.startsWith(theirsLine.slice(0, 40))) {
      // Several remove targets, each with dependents: Pulumi's computeStateDeleteOrder takes the next
      // target by ranging over a Go map (random order), so which one it refuses first is chance.
      // Both naming one of the targets, with the same reason, agree.
      const safely = /^(.*) can't be safely deleted because (.*)$/;
      const [m, t] = [safely.exec(mine), safely.exec(theirsLine)];
      if (c.kind === 'remove' && m && t && m[2] === t[2] && c.args.includes(m[1]) && c.args.includes(t[1])) return undefined;
      // Wording: the first line must agree where Pulumi gives a reason we also give.
      if (/^(No such resource|.* can't be safely deleted|Resource URN ambiguously|The chosen new urn|cannot move providers|resource .* already exists)/.test(theirsLine))
        return `both refused, but ours says "${mine}" and Pulumi "${theirsLine}"`;
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
