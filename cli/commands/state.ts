/**
 * `quota-state state …`: the `pulumi state` edits, offline, on a state file. The operations are
 * shared/state/surgery's; lockedWrite.ts holds the file's lock (and a DIY stack's Pulumi lock) for the
 * whole read-modify-write; stateFiles.ts reads, refuses a read-only file, keeps FILE.bak and writes
 * atomically; stateReport.ts prints the report.
 * Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.
 */
import { resolve } from 'node:path';
import { createStateService, surgeryRow, SURGERY_TABLE, type EditableState, type SurgeryRow, type SurgerySwitch } from '../../shared/state';
import { argumentPositions, InputError, parseArguments, UsageError, type ParsedArguments } from '../args';
import { displayPath } from '../io';
import { cliStaleness, LockRefusal, staleAfterFlag, withLockedFiles, withPulumiLock, type LockedFile } from '../lockedWrite';
import { diffOf, load, lockFolder, openOrRefuse, Refusal, refuseIfReadOnly, refuseIfUnwritable, write, type LoadedFile } from '../stateFiles';
import { refusedOutcome, report, type FileResult } from '../stateReport';

const state = createStateService();

/** The operations of the table a row test picks, as the usage names them: `remove, protect`. */
function operationsWith(test: (row: SurgeryRow) => boolean): string {
  return SURGERY_TABLE.filter(test)
    .map((row) => row.operation)
    .join(', ');
}

/** A switch's usage line: the operations that take it (from the table), and what it does. */
function switchHelp(name: SurgerySwitch, help: string): string {
  return `  --${name.padEnd(19)}${operationsWith((row) => row.switches.includes(name))}: ${help}`;
}

export const STATE_USAGE = `Usage:
${SURGERY_TABLE.map((row) => `  quota-state state ${row.usage}`).join('\n')}

The edits of \`pulumi state\`, offline, on an export, a DIY checkpoint, a bare deployment or a
compressed DIY stack file (.json.gz, or .json.zst on Node 22.15 or later). FILE is edited in place, atomically, holding its lock
(FILE.lock; a DIY stack also gets Pulumi's lock), and only if it did not change since it was read;
FILE.bak keeps the content the edit was computed from (a second edit replaces it). URN#N names the
N-th record with that URN, in file order.

  --dry-run            print a unified diff (of the files pretty-printed) and write nothing
  --format text|json   the report's format (default text)
${switchHelp('force', 'protected resources too (as `pulumi state delete --force`)')}
  --break-lock         every command: remove the DIY stack's Pulumi lock files (each is named),
                       then edit; only when no Pulumi process is running (\`pulumi cancel\` does the same)
  --stale-after DURATION
                       every command: a Pulumi lock this old is stale whoever holds it (default 1h);
                       a refusal says of each lock whether it is stale
${switchHelp('target-dependents', 'remove whatever depends on the targets too')}
${switchHelp('all', 'every resource')}
  --dest FILE          ${operationsWith((row) => row.destination === true)}: the state file the resources go to
${switchHelp('include-parents', "the resources' parents go too")}

Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.`;

const FLAGS = {
  'dry-run': 'boolean',
  format: 'value',
  force: 'boolean',
  'break-lock': 'boolean',
  'stale-after': 'value',
  'target-dependents': 'boolean',
  all: 'boolean',
  dest: 'value',
  'include-parents': 'boolean',
  yes: 'boolean',
} as const;

/**
 * The operands of `state …` that may name a stack of `--backend`: FILE (the first positional after
 * the command) and `--dest`'s value. Never a URN or `rename`'s NEW-NAME, whatever they read like.
 */
export function stateStackOperands(args: string[]): { args: string[]; at: Set<number> } {
  const positions = argumentPositions(args, FLAGS);
  const file = positions.positional[1];
  return { args: positions.args, at: new Set([...(file === undefined ? [] : [file]), ...(positions.values.dest ?? [])]) };
}

export interface StateIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** A checked `state` command line. */
interface StatePlan {
  /** The operation's row (`rm` and `delete` are `remove`'s aliases, `mv` is `move`'s). */
  row: SurgeryRow;
  op: SurgeryRow['operation'];
  format: 'text' | 'json';
  dryRun: boolean;
  force: boolean;
  breakLock: boolean;
  /** --stale-after: a Pulumi lock this old is stale. */
  staleAfterMs: number;
  all: boolean;
  targetDependents: boolean;
  includeParents: boolean;
  path: string;
  targets: string[];
  /** move: the destination file, resolved. */
  dest: string | undefined;
}

/** One run: the plan, where it prints, the warnings that go before the report, and the files' locks (none for --dry-run). */
interface Run {
  plan: StatePlan;
  io: StateIO;
  warnings: string[];
  locks: Map<string, LockedFile>;
}

export function runStateCommand(args: string[], io: StateIO): number {
  const [command, ...rest] = args;
  if (command === undefined) throw new UsageError('state needs a command');
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(STATE_USAGE);
    return 0;
  }
  if (!surgeryRow(command)) throw new UsageError(`unknown state command "${command}"`);
  const parsed = parseArguments(rest, FLAGS);
  if (parsed.booleans.has('help')) {
    io.stdout(STATE_USAGE);
    return 0;
  }
  const run: Run = { plan: planStateCommand(command, parsed, io.cwd), io, warnings: [], locks: new Map() };
  const paths = [run.plan.path, ...(run.plan.dest ? [run.plan.dest] : [])];
  try {
    if (run.plan.dryRun) return withPulumiLocks(run, paths, () => perform(run));
    const files = paths.map((path) => ({ path, display: displayPath(io.cwd, path) }));
    // Our lock first (runs of quota-state queue on it), then Pulumi's, both held until the write is done.
    return withLockedFiles(files, (locks) => {
      locks.forEach((lock, index) => run.locks.set(paths[index], lock));
      return withPulumiLocks(run, paths, () => perform(run));
    });
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof LockRefusal)) throw error;
    return emit(run, [{ file: displayPath(io.cwd, run.plan.path), outcome: refusedOutcome(run.plan.op, '', error.message), written: false }], 1);
  }
}

/** Pulumi's lock of each DIY stack among `paths`, taken in one fixed order. */
function withPulumiLocks(run: Run, paths: string[], body: () => number): number {
  // The real path when the file is locked (a symlink to a stack file is that stack).
  const folders = [...new Set(paths.map((path) => lockFolder(run.locks.get(path)?.path ?? path)).filter((folder) => folder !== undefined))].sort();
  const options = {
    breakLock: run.plan.breakLock,
    dryRun: run.plan.dryRun,
    hint: 'If no Pulumi process is running, `pulumi cancel` or --break-lock removes the lock.',
    staleness: cliStaleness(run.plan.staleAfterMs),
    warn: (message: string) => run.warnings.push(message),
  };
  return folders.reduceRight<() => number>((inner, folder) => () => withPulumiLock(folder, options, inner), body)();
}

/** Reads FILE (under its lock unless --dry-run) and runs the operation. */
function perform(run: Run): number {
  const file = read(run, run.plan.path);
  const doc = openOrRefuse(file);
  return run.plan.row.destination ? move(run, file, doc) : edit(run, file, doc);
}

/** A state file, read holding its lock (which records what was read, for the check before the write). */
function read(run: Run, path: string): LoadedFile {
  const display = displayPath(run.io.cwd, path);
  const lock = run.locks.get(path);
  return lock ? lock.read(() => load(lock.path, display)) : load(path, display);
}

/** The lock of a file about to be written: refreshed after the work, the guard of its write. */
function lockOf(run: Run, file: LoadedFile): LockedFile {
  const lock = [...run.locks.values()].find((l) => l.path === file.path);
  if (!lock) throw new Error(`internal error: ${file.display} is written without its lock`);
  lock.refresh();
  return lock;
}

/** The positional arguments after FILE, as the row's `arguments` says. */
function checkArguments(command: string, row: SurgeryRow, targets: string[], all: boolean): void {
  switch (row.arguments) {
    case 'urns-or-all':
      if (!all && targets.length === 0) throw new UsageError(`${command} needs at least one URN (or --all)`);
      return;
    case 'urns':
      if (targets.length === 0) throw new UsageError(`${command} needs at least one URN`);
      return;
    case 'urn-and-name':
      if (targets.length !== 2) throw new UsageError(`${command} takes FILE URN NEW-NAME (NEW-NAME is a name, not a URN)`);
      return;
    case 'none':
      if (targets.length) throw new UsageError(`${command} takes only FILE`);
      return;
    case 'optional-urns':
      return;
  }
}

/** Checks the command line against what the operation takes. */
function planStateCommand(command: string, parsed: ParsedArguments, cwd: string): StatePlan {
  const format = parsed.flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const all = parsed.booleans.has('all');
  const row = surgeryRow(command)!;
  const op = row.operation;
  for (const flag of ['all', 'target-dependents', 'include-parents', 'force'] as const) {
    if (parsed.booleans.has(flag) && !row.switches.includes(flag)) {
      throw new UsageError(`${command} takes no --${flag}${flag === 'force' ? " (--force is remove's, for protected resources; --break-lock removes a DIY stack's Pulumi lock)" : ''}`);
    }
  }
  if (parsed.flags.dest !== undefined && !row.destination) throw new UsageError(`${command} takes no --dest`);
  const [fileArg, ...targets] = parsed.positional;
  if (fileArg === undefined) throw new UsageError(`${command} needs a state FILE`);
  if (all && targets.length) throw new UsageError('cannot specify a resource URN together with --all');
  checkArguments(command, row, targets, all);
  if (row.destination && parsed.flags.dest === undefined) throw new UsageError(`${command} needs --dest FILE`);
  const path = resolve(cwd, fileArg);
  const dest = parsed.flags.dest === undefined ? undefined : resolve(cwd, parsed.flags.dest);
  if (dest === path) throw new UsageError('--dest must be another file');
  return {
    row,
    op,
    format,
    dryRun: parsed.booleans.has('dry-run'),
    force: parsed.booleans.has('force'),
    breakLock: parsed.booleans.has('break-lock'),
    staleAfterMs: staleAfterFlag(parsed.flags['stale-after']),
    all,
    targetDependents: parsed.booleans.has('target-dependents'),
    includeParents: parsed.booleans.has('include-parents'),
    path,
    targets,
    dest,
  };
}

/** The report: on stdout, but a refusal's text on stderr (as every error); JSON stays on stdout, for the program reading it. */
function emit(run: Run, results: FileResult[], code: number): number {
  report(results, run.plan.format, run.warnings, code !== 0 && run.plan.format === 'text' ? run.io.stderr : run.io.stdout);
  return code;
}

/** Every operation but `move`: one file, edited in place. */
function edit(run: Run, file: LoadedFile, doc: EditableState): number {
  const outcome = runOperation(run.plan, doc).source;
  const result: FileResult = { file: file.display, outcome, written: false };
  if (outcome.status === 'refused') return emit(run, [result], 1);
  if (outcome.status === 'unchanged') return emit(run, [result], 0);
  if (run.plan.dryRun) {
    result.diff = diffOf(file, file.text, outcome.text);
    return emit(run, [result], 0);
  }
  const lock = lockOf(run, file);
  refuseIfReadOnly(file);
  refuseIfUnwritable(file);
  try {
    result.backup = displayPath(run.io.cwd, write(file, outcome.text, lock));
  } catch (error) {
    if (error instanceof LockRefusal) throw error;
    throw new InputError(`cannot write ${file.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
  }
  result.written = true;
  return emit(run, [result], 0);
}

/** `move`: resources from one file to another; both are written, or neither stays changed. */
function move(run: Run, file: LoadedFile, doc: EditableState): number {
  const { plan, io } = run;
  const dest = read(run, plan.dest!);
  const ran = runOperation(plan, doc, openOrRefuse(dest));
  // An operation given a destination always reports on it.
  const moved = { source: ran.source, dest: ran.dest! };
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
  const [fileLock, destLock] = [lockOf(run, file), lockOf(run, dest)];
  refuseIfReadOnly(file);
  refuseIfReadOnly(dest);
  [file, dest].forEach(refuseIfUnwritable);
  // Destination first, as Pulumi does; if the source cannot be written, the destination is restored.
  fileLock.check();
  results[1].backup = displayPath(io.cwd, write(dest, moved.dest.text, destLock));
  results[1].written = true;
  try {
    results[0].backup = displayPath(io.cwd, write(file, moved.source.text, fileLock));
    results[0].written = true;
  } catch (error) {
    write(dest, dest.text, destLock);
    if (error instanceof LockRefusal) throw new LockRefusal(`${error.message}; ${dest.display} was restored`);
    throw new InputError(`cannot write ${file.display} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${dest.display} was restored`);
  }
  return emit(run, results, 0);
}

/** The plan's operation (its run in the surgery table); `rename` takes its new name as the second argument. */
function runOperation(plan: StatePlan, doc: EditableState, dest?: EditableState) {
  const { targets } = plan;
  const call = { operation: plan.op, all: plan.all, force: plan.force, targetDependents: plan.targetDependents, includeParents: plan.includeParents };
  return state.surgery.run(doc, plan.row.arguments === 'urn-and-name' ? { ...call, targets: [targets[0]], newName: targets[1] } : { ...call, targets }, dest);
}
