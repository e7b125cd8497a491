/** `quota-state fix`: the safe quick fixes, applied one by one as in the editor; a file is written only when the result is valid. */
import { createTwoFilesPatch } from 'diff';
import { StackLockedError, StoreConflict, type StoredObject } from '../../shared/backend';
import type { Diagnostic } from '../../shared/diagnostics';
import { fixAll } from '../../shared/fixAll';
import type { DecodedFile } from '../../shared/text/inflate';
import { InputError, UsageError } from '../args';
import { located, skippedLine } from '../formats';
import { commandArguments, decodeOrFail, displayPath, expandOrFail, kindOf, kindOfDocument, ProjectConfigs, readDocumentOrFail, type CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { compressAs } from '../stateFiles';
import { fileTarget, readTargets, withTargetRewrite, withTargetWrites, type NamedStacks, type StackTarget, type TargetEdit } from '../stackTargets';
import { ProjectConfigError } from '../../shared/projectConfig';

export const FIX_USAGE = `Usage: quota-state fix <files or globs…> [--dry-run]

Applies the safe quick fixes, one by one as in the editor. Resource-state files get what
\`pulumi state repair\` does (resources sorted into dependency order, references to resources that
are not in the file removed), plus the recomputed manifest magic, provider references pointed at
the provider's id, and duplicates marked "delete": true. Quota files get canonical subject
spellings. A file is written (atomically) only when the result has no Error diagnostic; otherwise
nothing is written and what remains is listed. A compressed stack file is not rewritten:
\`quota-state state repair\` repairs it, compressed. A file is written only if it did not change
since it was read (when another program wrote it meanwhile, it is fixed again on the new content
for up to 5 s); a state file is written as \`quota-state state\` writes it: FILE.bak keeps what it
replaced, and a DIY stack is written holding Pulumi's lock.

  --dry-run   print the changes as a unified diff instead of writing them

Exit codes: 0 every file is valid (fixed or already), 1 some file stays invalid or could not be
written (another writer, a locked stack: nothing written), 2 usage error or unreadable input.`;

type FileStatus = 'skipped' | 'invalid' | 'clean' | 'fixed' | 'refused';

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const FIX_FLAGS = { 'dry-run': 'boolean' } as const;

/** Ways in for the tests. */
export interface FixHooks {
  /** Called once a file's fixes are computed, just before they are written (where another writer may come). */
  edited?(): void | Promise<void>;
}

/** What `fix` is given: a file (a path, expanded from the globs) or a stack of `--backend`. */
type Operand = { path: string } | { stack: StackTarget };

export async function fix(args: string[], io: CliIO, stacks: NamedStacks = new Map(), hooks: FixHooks = {}): Promise<number> {
  const parsed = commandArguments(FIX_USAGE, args, FIX_FLAGS, io);
  if (!parsed) return 0;
  const dryRun = parsed.booleans.has('dry-run');
  if (parsed.positional.length === 0) throw new UsageError('fix needs at least one file or glob');
  const operands = parsed.positional.flatMap((operand): Operand[] => {
    const stack = stacks.get(operand);
    return stack ? [{ stack }] : expandOrFail([operand], io.cwd).map((path) => ({ path }));
  });
  const context: FixContext = { dryRun, io, configs: new ProjectConfigs(io), hooks };
  const results: FileStatus[] = [];
  let failed = false;
  for (const operand of operands) {
    try {
      results.push(await fixOne(operand, context));
    } catch (error) {
      if (!(error instanceof InputError || error instanceof ProjectConfigError)) throw error;
      io.stderr(`quota-state: ${error.message}`);
      failed = true;
    }
  }
  if (failed) return 2;
  return results.includes('invalid') || results.includes('refused') ? 1 : 0;
}

interface FixContext {
  dryRun: boolean;
  io: CliIO;
  configs: ProjectConfigs;
  hooks: FixHooks;
}

/** What the fixes make of one text: its kind (none: not ours), the result and the errors left. */
interface FixedText {
  text: string;
  kind: ReturnType<typeof kindOf>;
  result?: ReturnType<typeof fixAll>;
  remaining: Diagnostic[];
}

/** A file's kind is found by its name (`file`, its path or object name) and its folder's `.quota-state.json` (`configured`). */
interface Named {
  file: string;
  configured: string;
  display: string;
}

function fixText(named: Named, text: string, configs: ProjectConfigs): FixedText {
  const kind = kindOf(named.file, text, configs.for(named.configured));
  if (!kind) return { text, kind, remaining: [] };
  const result = fixAll(kind, text);
  // Valid means what Pulumi or Forgejo would load, so the registries' own severities decide.
  return { text, kind, result, remaining: result.diagnostics.filter((d) => d.severity === 'error') };
}

const toWrite = (fixed: FixedText): boolean => !!fixed.result && fixed.remaining.length === 0 && fixed.result.text !== fixed.text;

/** A file or a stack: read, fixed, and written when the fixes make it valid. */
async function fixOne(operand: Operand, context: FixContext): Promise<FileStatus> {
  const { io, configs } = context;
  let named: Named;
  let document: DecodedFile;
  if ('path' in operand) {
    named = { file: operand.path, configured: operand.path, display: displayPath(io.cwd, operand.path) };
    document = readDocumentOrFail(operand.path, io, named.display);
  } else {
    const { stack } = operand;
    named = { file: stack.path ?? stack.name, configured: stack.path ?? stack.display, display: stack.display };
    document = decodeOrFail((await readTargets([stack]))[0].bytes, named.display);
  }
  if (document.compression) return skipCompressed(named.display, kindOfDocument(named.file, document, configs.for(named.configured)), io);
  const first = fixText(named, document.text, configs);
  if (context.dryRun || !toWrite(first)) return settle(named.display, first, context);
  const target = 'stack' in operand ? operand.stack : fileTarget(operand.path, io.cwd);
  return writeFixed(named, target, first, context);
}

/**
 * Fixes the file again as it is when written (the fixes apply to what is there then, so nothing
 * written meanwhile is lost), and writes it only if still that version: a state file through the one
 * stack writer (FILE.bak, and Pulumi's lock for a DIY stack), any other in place.
 */
async function writeFixed(named: Named, target: StackTarget, first: FixedText, context: FixContext): Promise<FileStatus> {
  const { io, configs } = context;
  const edit = async (current: StoredObject): Promise<TargetEdit<FixedText>> => {
    const now = decodeOrFail(current.bytes, named.display);
    const fixed = now.text === first.text ? first : fixText(named, now.text, configs);
    if (!toWrite(fixed)) return { bytes: [], value: fixed };
    await context.hooks.edited?.();
    return { bytes: [compressAs(Buffer.from(fixed.result!.text, 'utf8'), now.compression ?? 'none')], value: fixed };
  };
  let fixed: FixedText;
  try {
    if (first.kind === 'state') {
      const options = cliLockOptions(false, staleAfterFlag(undefined), io.stderr);
      fixed = (await withTargetWrites([target], options, ([current]) => edit(current))).value;
    } else fixed = await withTargetRewrite(target, edit);
  } catch (error) {
    if (!(error instanceof StackLockedError || error instanceof StoreConflict)) throw error;
    io.stdout(`${named.display}: refused: ${error.message}`);
    return 'refused';
  }
  return settle(named.display, fixed, context, toWrite(fixed));
}

/** `fix` writes no compressed file: a compressed DIY stack is repaired, and stays compressed, with `quota-state state repair`. */
function skipCompressed(display: string, kind: ReturnType<typeof kindOf>, io: CliIO): FileStatus {
  if (kind) io.stdout(`${display}: skipped: a compressed stack file; \`quota-state state repair ${display}\` repairs it in place, compressed`);
  else io.stdout(skippedLine(display));
  return 'skipped';
}

/** Reports one file's fixes (`written`: they were written). */
function settle(display: string, { text, kind, result, remaining }: FixedText, { dryRun, io }: FixContext, written = false): FileStatus {
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
  const titles = result.applied.map((a) => `  ${a.title}`);
  io.stdout([`${display}: ${written ? 'applied' : 'would apply'} ${result.applied.length} ${plural(result.applied.length, 'fix', 'fixes')}`, ...titles].join('\n'));
  return 'fixed';
}

function remainingErrors(display: string, remaining: Diagnostic[], applied: number): string {
  const after = applied ? ` after ${applied} ${plural(applied, 'fix', 'fixes')}` : '';
  const count = `${remaining.length} ${plural(remaining.length, 'error remains', 'errors remain')}`;
  return [`${display}: ${count}${after}; nothing written`, ...remaining.map((d) => `  ${located(display, d)}`)].join('\n');
}
