/**
 * `quota-state state …`: the `pulumi state` edits, offline, on a state file. The operations are
 * shared/state/surgery's; stateFiles.ts reads, refuses a locked DIY stack or a read-only file, keeps
 * FILE.bak and writes atomically; stateReport.ts prints the report.
 * Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.
 */
import { resolve } from 'node:path';
import { clearPending, moveResources, removeResources, renameResource, repairState, setFlag, type SurgeryOutcome } from '../../../shared/state/surgery';
import { InputError, parseArguments, UsageError, type ParsedArguments } from '../args';
import { displayPath } from '../io';
import { diffOf, load, openOrRefuse, Refusal, refuseIfLocked, refuseIfReadOnly, write, type LoadedFile, type StateDocument } from '../stateFiles';
import { refusedOutcome, report, type FileResult } from '../stateReport';

export const STATE_USAGE = `Usage:
  quota-state state remove|rm|delete FILE (URN…|--all) [--target-dependents] [--force]
  quota-state state protect|unprotect FILE (URN…|--all)
  quota-state state taint FILE URN…
  quota-state state untaint FILE (URN…|--all)
  quota-state state rename FILE URN NEW-NAME
  quota-state state repair FILE
  quota-state state clear-pending FILE [URN…]
  quota-state state move FILE URN… --dest FILE [--include-parents]

The edits of \`pulumi state\`, offline, on an export, a DIY checkpoint, a bare deployment or a
compressed DIY stack file (.json.gz). FILE is edited in place, atomically; the old content is kept
as FILE.bak (a second edit replaces it). URN#N names the N-th record with that URN, in file order.

  --dry-run            print a unified diff (of the files pretty-printed) and write nothing
  --format text|json   the report's format (default text)
  --force              remove: protected resources too; every command: edit a locked DIY stack
  --target-dependents  remove: remove whatever depends on the targets too
  --all                remove, protect, unprotect, untaint: every resource
  --dest FILE          move: the state file the resources go to
  --include-parents    move: the resources' parents go too

Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.`;

const COMMANDS = ['remove', 'rm', 'delete', 'protect', 'unprotect', 'taint', 'untaint', 'rename', 'repair', 'clear-pending', 'move', 'mv'];

const FLAGS = {
  'dry-run': 'boolean',
  format: 'value',
  force: 'boolean',
  'target-dependents': 'boolean',
  all: 'boolean',
  dest: 'value',
  'include-parents': 'boolean',
  yes: 'boolean',
} as const;

/** The switches each operation takes besides --dry-run and --format. */
const ALLOWED: Record<string, string[]> = {
  remove: ['all', 'target-dependents', 'force'],
  protect: ['all', 'force'],
  unprotect: ['all', 'force'],
  taint: ['force'],
  untaint: ['all', 'force'],
  rename: ['force'],
  repair: ['force'],
  'clear-pending': ['force'],
  move: ['force', 'include-parents'],
};

export interface StateIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** A checked `state` command line. */
interface StatePlan {
  /** The operation (`rm` and `delete` are `remove`, `mv` is `move`). */
  op: string;
  format: 'text' | 'json';
  dryRun: boolean;
  force: boolean;
  all: boolean;
  targetDependents: boolean;
  includeParents: boolean;
  path: string;
  targets: string[];
  dest: string | undefined;
}

/** One run: the plan, where it prints, and the warnings that go before the report. */
interface Run {
  plan: StatePlan;
  io: StateIO;
  warnings: string[];
}

export function runStateCommand(args: string[], io: StateIO): number {
  const [command, ...rest] = args;
  if (command === undefined) throw new UsageError('state needs a command');
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(STATE_USAGE);
    return 0;
  }
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown state command "${command}"`);
  const parsed = parseArguments(rest, FLAGS);
  if (parsed.booleans.has('help')) {
    io.stdout(STATE_USAGE);
    return 0;
  }
  const run: Run = { plan: planStateCommand(command, parsed, io.cwd), io, warnings: [] };
  const file = load(run.plan.path, displayPath(io.cwd, run.plan.path));
  try {
    const warning = refuseIfLocked(file, run.plan.force);
    if (warning) run.warnings.push(warning);
    const doc = openOrRefuse(file);
    return run.plan.op === 'move' ? move(run, file, doc) : edit(run, file, doc);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return emit(run, [{ file: file.display, outcome: refusedOutcome(run.plan.op, file.text, error.message), written: false }], 1);
  }
}

/** Checks the command line against what the operation takes. */
function planStateCommand(command: string, parsed: ParsedArguments, cwd: string): StatePlan {
  const format = parsed.flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const all = parsed.booleans.has('all');
  const op = command === 'rm' || command === 'delete' ? 'remove' : command === 'mv' ? 'move' : command;
  for (const flag of ['all', 'target-dependents', 'include-parents']) {
    if (parsed.booleans.has(flag) && !ALLOWED[op].includes(flag)) throw new UsageError(`${command} takes no --${flag}`);
  }
  if (parsed.flags.dest !== undefined && op !== 'move') throw new UsageError(`${command} takes no --dest`);
  const [fileArg, ...targets] = parsed.positional;
  if (fileArg === undefined) throw new UsageError(`${command} needs a state FILE`);
  if (all && targets.length) throw new UsageError('cannot specify a resource URN together with --all');
  const needsTargets = ['remove', 'protect', 'unprotect', 'untaint'].includes(op) ? !all : op === 'taint' || op === 'move';
  if (needsTargets && targets.length === 0) throw new UsageError(`${command} needs at least one URN${op === 'taint' || op === 'move' ? '' : ' (or --all)'}`);
  if (op === 'rename' && targets.length !== 2) throw new UsageError('rename takes FILE URN NEW-NAME (NEW-NAME is a name, not a URN)');
  if (op === 'repair' && targets.length) throw new UsageError('repair takes only FILE');
  if (op === 'move' && parsed.flags.dest === undefined) throw new UsageError('move needs --dest FILE');
  return {
    op,
    format,
    dryRun: parsed.booleans.has('dry-run'),
    force: parsed.booleans.has('force'),
    all,
    targetDependents: parsed.booleans.has('target-dependents'),
    includeParents: parsed.booleans.has('include-parents'),
    path: resolve(cwd, fileArg),
    targets,
    dest: parsed.flags.dest,
  };
}

function emit(run: Run, results: FileResult[], code: number): number {
  report(results, run.plan.format, run.warnings, run.io.stdout);
  return code;
}

/** Every operation but `move`: one file, edited in place. */
function edit(run: Run, file: LoadedFile, doc: StateDocument): number {
  const outcome = runOperation(run.plan, doc);
  const result: FileResult = { file: file.display, outcome, written: false };
  if (outcome.status === 'refused') return emit(run, [result], 1);
  if (outcome.status === 'unchanged') return emit(run, [result], 0);
  if (run.plan.dryRun) {
    result.diff = diffOf(file, file.text, outcome.text);
    return emit(run, [result], 0);
  }
  refuseIfReadOnly(file);
  try {
    result.backup = displayPath(run.io.cwd, write(file, outcome.text));
  } catch (error) {
    throw new InputError(`cannot write ${file.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
  }
  result.written = true;
  return emit(run, [result], 0);
}

/** `move`: resources from one file to another; both are written, or neither stays changed. */
function move(run: Run, file: LoadedFile, doc: StateDocument): number {
  const { plan, io } = run;
  const destPath = resolve(io.cwd, plan.dest!);
  if (destPath === plan.path) throw new UsageError('--dest must be another file');
  const dest = load(destPath, displayPath(io.cwd, destPath));
  const destWarning = refuseIfLocked(dest, plan.force);
  if (destWarning) run.warnings.push(destWarning);
  const moved = moveResources(doc, openOrRefuse(dest), plan.targets, { includeParents: plan.includeParents });
  const results: FileResult[] = [
    { file: file.display, outcome: moved.source, written: false },
    { file: dest.display, outcome: moved.dest, written: false },
  ];
  if (moved.source.status === 'refused' || moved.dest.status === 'refused') return emit(run, results, 1);
  if (plan.dryRun) {
    results[0].diff = diffOf(file, file.text, moved.source.text);
    results[1].diff = diffOf(dest, dest.text, moved.dest.text);
    return emit(run, results, 0);
  }
  refuseIfReadOnly(file);
  refuseIfReadOnly(dest);
  // Destination first, as Pulumi does; if the source cannot be written, the destination is restored.
  results[1].backup = displayPath(io.cwd, write(dest, moved.dest.text));
  results[1].written = true;
  try {
    results[0].backup = displayPath(io.cwd, write(file, moved.source.text));
    results[0].written = true;
  } catch (error) {
    write(dest, dest.text);
    throw new InputError(`cannot write ${file.display} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${dest.display} was restored`);
  }
  return emit(run, results, 0);
}

function runOperation(plan: StatePlan, doc: StateDocument): SurgeryOutcome {
  const { op, targets } = plan;
  switch (op) {
    case 'remove':
      return removeResources(doc, targets, { all: plan.all, force: plan.force, targetDependents: plan.targetDependents });
    case 'protect':
    case 'unprotect':
    case 'taint':
    case 'untaint':
      return setFlag(doc, op, targets, { all: plan.all });
    case 'rename':
      return renameResource(doc, targets[0], targets[1]);
    case 'repair':
      return repairState(doc);
    case 'clear-pending':
      return clearPending(doc, targets);
    default:
      throw new UsageError(`unknown state command "${op}"`);
  }
}
