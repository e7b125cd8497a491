/** `quota-state fix`: the safe quick fixes, applied one by one as in the editor; a file is written only when the result is valid. */
import { createTwoFilesPatch } from 'diff';
import type { Diagnostic } from '../../shared/diagnostics';
import { fixAll } from '../../shared/fixAll';
import { InputError, UsageError } from '../args';
import { located, skippedLine } from '../formats';
import { commandArguments, expandOrFail, forEachFile, kindOf, kindOfDocument, ProjectConfigs, readDocumentOrFail, readOrFail, type CliIO } from '../io';
import { LockRefusal, withLockedFile, withPulumiLock, type WriteGuard } from '../lockedWrite';
import { lockFolder } from '../stateFiles';

export const FIX_USAGE = `Usage: quota-state fix <files or globs…> [--dry-run]

Applies the safe quick fixes, one by one as in the editor. Resource-state files get what
\`pulumi state repair\` does (resources sorted into dependency order, references to resources that
are not in the file removed), plus the recomputed manifest magic, provider references pointed at
the provider's id, and duplicates marked "delete": true. Quota files get canonical subject
spellings. A file is written (atomically) only when the result has no Error diagnostic; otherwise
nothing is written and what remains is listed. A compressed stack file is not rewritten:
\`quota-state state repair\` repairs it, compressed. A file is fixed and written holding its lock
(FILE.lock; a DIY stack also gets Pulumi's lock), and only if it did not change since it was read.

  --dry-run   print the changes as a unified diff instead of writing them

Exit codes: 0 every file is valid (fixed or already), 1 some file stays invalid or could not be
locked (not written), 2 usage error or unreadable input.`;

type FileStatus = 'skipped' | 'invalid' | 'clean' | 'fixed' | 'refused';

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const FIX_FLAGS = { 'dry-run': 'boolean' } as const;

export function fix(args: string[], io: CliIO): number {
  const parsed = commandArguments(FIX_USAGE, args, FIX_FLAGS, io);
  if (!parsed) return 0;
  const dryRun = parsed.booleans.has('dry-run');
  if (parsed.positional.length === 0) throw new UsageError('fix needs at least one file or glob');
  const files = expandOrFail(parsed.positional, io.cwd);
  const configs = new ProjectConfigs(io);
  const { results, failed } = forEachFile(files, io, (file, display) => fixFile(file, display, { dryRun, io, configs }));
  if (failed) return 2;
  return results.includes('invalid') || results.includes('refused') ? 1 : 0;
}

interface FixContext {
  dryRun: boolean;
  io: CliIO;
  configs: ProjectConfigs;
}

/** What the fixes make of one text: its kind (none: not ours), the result and the errors left. */
interface FixedText {
  text: string;
  kind: ReturnType<typeof kindOf>;
  result?: ReturnType<typeof fixAll>;
  remaining: Diagnostic[];
}

function fixText(file: string, text: string, configs: ProjectConfigs): FixedText {
  const kind = kindOf(file, text, configs.for(file));
  if (!kind) return { text, kind, remaining: [] };
  const result = fixAll(kind, text);
  // Valid means what Pulumi or Forgejo would load, so the registries' own severities decide.
  return { text, kind, result, remaining: result.diagnostics.filter((d) => d.severity === 'error') };
}

const toWrite = (fixed: FixedText): boolean => !!fixed.result && fixed.remaining.length === 0 && fixed.result.text !== fixed.text;

/**
 * A file that needs writing is read, fixed and written again holding its lock (and a DIY stack's
 * Pulumi lock), so that the fixes apply to what is on disk then and nothing written meanwhile is lost.
 */
function fixFile(file: string, display: string, context: FixContext): FileStatus {
  const { io, configs } = context;
  const document = readDocumentOrFail(file, io, display);
  if (document.compression) return skipCompressed(display, kindOfDocument(file, document, configs.for(file)), io);
  const first = fixText(file, document.text, configs);
  if (context.dryRun || !toWrite(first)) return settle(display, first, context);
  try {
    return withLockedFile(file, display, (lock) =>
      withPulumiLock(lockFolder(file), { warn: io.stderr }, () => {
        const text = lock.read(() => readOrFail(lock.path, io, display));
        return settle(display, text === first.text ? first : fixText(file, text, configs), context, { path: lock.path, guard: lock });
      }),
    );
  } catch (error) {
    if (!(error instanceof LockRefusal)) throw error;
    io.stdout(`${display}: refused: ${error.message}`);
    return 'refused';
  }
}

/** `fix` writes no compressed file: a compressed DIY stack is repaired, and stays compressed, with `quota-state state repair`. */
function skipCompressed(display: string, kind: ReturnType<typeof kindOf>, io: CliIO): FileStatus {
  if (kind) io.stdout(`${display}: skipped: a compressed stack file; \`quota-state state repair ${display}\` repairs it in place, compressed`);
  else io.stdout(skippedLine(display));
  return 'skipped';
}

/** Reports one file's fixes; writes them through `target` (the locked file) unless --dry-run. */
function settle(display: string, { text, kind, result, remaining }: FixedText, { dryRun, io }: FixContext, target?: { path: string; guard: WriteGuard }): FileStatus {
  if (!kind || !result) {
    io.stdout(skippedLine(display));
    return 'skipped';
  }
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
  if (target) write(target.path, display, result.text, io, target.guard);
  const titles = result.applied.map((a) => `  ${a.title}`);
  io.stdout([`${display}: ${dryRun ? 'would apply' : 'applied'} ${result.applied.length} ${plural(result.applied.length, 'fix', 'fixes')}`, ...titles].join('\n'));
  return 'fixed';
}

function remainingErrors(display: string, remaining: Diagnostic[], applied: number): string {
  const after = applied ? ` after ${applied} ${plural(applied, 'fix', 'fixes')}` : '';
  const count = `${remaining.length} ${plural(remaining.length, 'error remains', 'errors remain')}`;
  return [`${display}: ${count}${after}; nothing written`, ...remaining.map((d) => `  ${located(display, d)}`)].join('\n');
}

function write(file: string, display: string, text: string, io: CliIO, guard: WriteGuard): void {
  try {
    io.writeFileAtomic(file, text, () => guard.check());
  } catch (error) {
    if (error instanceof LockRefusal) throw error;
    throw new InputError(`cannot write ${display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
  }
}
