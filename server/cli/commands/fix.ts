/** `quota-state fix`: the safe quick fixes, applied one by one as in the editor; a file is written only when the result is valid. */
import { createTwoFilesPatch } from 'diff';
import type { Diagnostic } from '../../../shared/diagnostics';
import { fixAll } from '../../../shared/fixAll';
import { InputError, UsageError } from '../args';
import { located } from '../formats';
import { commandArguments, expandOrFail, forEachFile, kindOf, ProjectConfigs, readOrFail, type CliIO } from '../io';

export const FIX_USAGE = `Usage: quota-state fix <files or globs…> [--dry-run]

Applies the safe quick fixes, one by one as in the editor. Resource-state files get what
\`pulumi state repair\` does (resources sorted into dependency order, references to resources that
are not in the file removed), plus the recomputed manifest magic, provider references pointed at
the provider's id, and duplicates marked "delete": true. Quota files get canonical subject
spellings. A file is written (atomically) only when the result has no Error diagnostic; otherwise
nothing is written and what remains is listed.

  --dry-run   print the changes as a unified diff instead of writing them

Exit codes: 0 every file is valid (fixed or already), 1 some file stays invalid (not written),
2 usage error or unreadable input.`;

type FileStatus = 'skipped' | 'invalid' | 'clean' | 'fixed';

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export function fix(args: string[], io: CliIO): number {
  const parsed = commandArguments(FIX_USAGE, args, { 'dry-run': 'boolean' }, io);
  if (!parsed) return 0;
  const dryRun = parsed.booleans.has('dry-run');
  if (parsed.positional.length === 0) throw new UsageError('fix needs at least one file or glob');
  const files = expandOrFail(parsed.positional, io.cwd);
  const configs = new ProjectConfigs(io);
  const { results, failed } = forEachFile(files, io, (file, display) => fixFile(file, display, { dryRun, io, configs }));
  if (failed) return 2;
  return results.includes('invalid') ? 1 : 0;
}

function fixFile(file: string, display: string, { dryRun, io, configs }: { dryRun: boolean; io: CliIO; configs: ProjectConfigs }): FileStatus {
  const text = readOrFail(file, io, display);
  const kind = kindOf(file, text, configs.for(file));
  if (!kind) {
    io.stdout(`${display}: skipped: not recognised as a resource-state, quota or app.ini file`);
    return 'skipped';
  }
  const result = fixAll(kind, text);
  // Valid means what Pulumi or Forgejo would load, so the registries' own severities decide.
  const remaining = result.diagnostics.filter((d) => d.severity === 'error');
  const changed = result.text !== text;
  if (dryRun && changed) io.stdout(createTwoFilesPatch(`a/${display}`, `b/${display}`, text, result.text, '', '', { context: 3 }).replace(/^=+\n/, ''));
  if (remaining.length > 0) {
    io.stdout(remainingErrors(display, remaining, result.applied.length));
    return 'invalid';
  }
  if (!changed) {
    io.stdout(`${display}: nothing to fix`);
    return 'clean';
  }
  if (!dryRun) write(file, display, result.text, io);
  const titles = result.applied.map((a) => `  ${a.title}`);
  io.stdout([`${display}: ${dryRun ? 'would apply' : 'applied'} ${result.applied.length} ${plural(result.applied.length, 'fix', 'fixes')}`, ...titles].join('\n'));
  return 'fixed';
}

function remainingErrors(display: string, remaining: Diagnostic[], applied: number): string {
  const after = applied ? ` after ${applied} ${plural(applied, 'fix', 'fixes')}` : '';
  const count = `${remaining.length} ${plural(remaining.length, 'error remains', 'errors remain')}`;
  return [`${display}: ${count}${after}; nothing written`, ...remaining.map((d) => `  ${located(display, d)}`)].join('\n');
}

function write(file: string, display: string, text: string, io: CliIO): void {
  try {
    io.writeFileAtomic(file, text);
  } catch (error) {
    throw new InputError(`cannot write ${display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
  }
}
