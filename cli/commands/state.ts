/**
 * `quota-state state …`: the `pulumi state` edits, offline, on a state file or a stack of `--backend`.
 * The operations are shared/state/surgery's; stackTargets.ts opens FILE (and `--dest`) as objects of a
 * store and writes them through the one stack writer (Pulumi's lock for a DIY stack, FILE.bak, the
 * write only if unchanged since the read); stateFiles.ts decodes, refuses a read-only file and
 * compresses back; stateReport.ts prints the report.
 * Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.
 */
import { resolve } from 'node:path';
import { StackLockedError, StoreConflict, type StoredObject } from '../../shared/backend';
import { createStateService, surgeryRow, SURGERY_TABLE, type EditableState, type SurgeryRow, type SurgerySwitch } from '../../shared/state';
import { argumentPositions, parseArguments, UsageError, type ParsedArguments } from '../args';
import type { CliIO } from '../io';
import { cliLockOptions, staleAfterFlag, type CliLockOptions } from '../lockFlags';
import { compressAs, decode, diffOf, openOrRefuse, Refusal, refuseIfReadOnly, refuseIfUnwritable, type DecodedFile } from '../stateFiles';
import { refusedOutcome, report, type FileResult } from '../stateReport';
import { fileTarget, readTargets, refuseIfTargetsLocked, withTargetWrites, type NamedStacks, type StackTarget } from '../stackTargets';

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
compressed DIY stack file (.json.gz, or .json.zst on Node 22.15 or later). FILE is edited in place, atomically
(a DIY stack holding Pulumi's lock), and only if it did not change since it was read: when another
program wrote it meanwhile, the edit is made again on the new content for up to 5 s, then refused;
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

/** Ways in for the tests. */
export interface StateHooks {
  /** Called once the edit is computed, just before it is written (where another writer may come). */
  edited?(): void | Promise<void>;
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
  /** FILE, as given (or the operand a STACK of --backend became). */
  file: string;
  targets: string[];
  /** move: the destination, as given. */
  dest: string | undefined;
}

/** One run: the plan, where it prints, the stacks --backend named, and the warnings that go before the report. */
interface Run {
  plan: StatePlan;
  io: CliIO;
  stacks: NamedStacks;
  warnings: string[];
}

/** What the operation made of the files: the report, the exit code, and the new texts when they are to be written. */
interface Computed {
  results: FileResult[];
  code: number;
  texts?: string[];
}

export async function runStateCommand(args: string[], io: CliIO, stacks: NamedStacks = new Map(), hooks: StateHooks = {}): Promise<number> {
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
  const run: Run = { plan: planStateCommand(command, parsed, io.cwd, stacks), io, stacks, warnings: [] };
  const options = cliLockOptions(run.plan.breakLock, run.plan.staleAfterMs, (message) => run.warnings.push(message));
  const operands = [run.plan.file, ...(run.plan.dest === undefined ? [] : [run.plan.dest])];
  const targets = operands.map((operand) => targetOf(run, operand));
  if (targets.length === 2 && targets[0].store === targets[1].store && targets[0].name === targets[1].name) throw new UsageError('--dest must be another file');
  try {
    if (run.plan.dryRun) {
      await refuseIfTargetsLocked(targets, options);
      const computed = compute(run, decodeAll(targets, await readTargets(targets)));
      return emit(run, computed.results, computed.code);
    }
    return await write(run, targets, options, hooks);
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof StackLockedError || error instanceof StoreConflict)) throw error;
    return emit(run, [{ file: targets[0].display, outcome: refusedOutcome(run.plan.op, '', error.message), written: false }], 1);
  }
}

/** FILE or --dest as a target: the stack --backend named, else the file. */
function targetOf(run: Run, operand: string): StackTarget {
  const stack = run.stacks.get(operand);
  if (stack) return stack;
  return fileTarget(resolve(run.io.cwd, operand), run.io.cwd);
}

const decodeAll = (targets: StackTarget[], objects: StoredObject[]): DecodedFile[] => objects.map((object, index) => decode(object.bytes, targets[index].display));

/**
 * The operation, written through the one writer: the destination first, as Pulumi does, then FILE;
 * both or neither (a write another writer interrupts halfway is undone).
 */
async function write(run: Run, targets: StackTarget[], options: CliLockOptions, hooks: StateHooks): Promise<number> {
  // The writer writes in the order it is given: the destination first.
  const order = targets.length === 2 ? [targets[1], targets[0]] : targets;
  const { value, backups } = await withTargetWrites(order, options, async (current) => {
    const files = decodeAll(order, current);
    const inOrder = order.length === 2 ? [files[1], files[0]] : files;
    const computed = compute(run, inOrder);
    if (!computed.texts) return { bytes: [], value: computed };
    for (const target of targets) if (target.path) refuseIfReadOnly(target.path, target.display);
    inOrder.forEach(refuseIfUnwritable);
    const bytes = computed.texts.map((text, index) => compressAs(Buffer.from(text, 'utf8'), inOrder[index].compression));
    await hooks.edited?.();
    return { bytes: order.length === 2 ? [bytes[1], bytes[0]] : bytes, value: computed };
  });
  if (value.texts) {
    const backupOf = (target: StackTarget) => backups[order.indexOf(target)];
    value.results.forEach((result, index) => {
      result.written = true;
      result.backup = backupOf(targets[index]);
    });
  }
  return emit(run, value.results, value.code);
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
function planStateCommand(command: string, parsed: ParsedArguments, cwd: string, stacks: NamedStacks): StatePlan {
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
  const [file, ...targets] = parsed.positional;
  if (file === undefined) throw new UsageError(`${command} needs a state FILE`);
  if (all && targets.length) throw new UsageError('cannot specify a resource URN together with --all');
  checkArguments(command, row, targets, all);
  if (row.destination && parsed.flags.dest === undefined) throw new UsageError(`${command} needs --dest FILE`);
  const dest = parsed.flags.dest;
  const where = (operand: string) => stacks.get(operand)?.display ?? resolve(cwd, operand);
  if (dest !== undefined && where(dest) === where(file)) throw new UsageError('--dest must be another file');
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
    file,
    targets,
    dest,
  };
}

/** The report: on stdout, but a refusal's text on stderr (as every error); JSON stays on stdout, for the program reading it. */
function emit(run: Run, results: FileResult[], code: number): number {
  report(results, run.plan.format, run.warnings, code !== 0 && run.plan.format === 'text' ? run.io.stderr : run.io.stdout);
  return code;
}

/** The operation on the files read (FILE, and --dest for `move`): what to report, and what to write unless --dry-run. */
function compute(run: Run, [file, dest]: DecodedFile[]): Computed {
  const doc = openOrRefuse(file);
  if (!run.plan.row.destination) return edit(run, file, doc);
  const ran = runOperation(run.plan, doc, openOrRefuse(dest));
  // An operation given a destination always reports on it.
  const moved = { source: ran.source, dest: ran.dest! };
  const results: FileResult[] = [
    { file: file.display, outcome: moved.source, written: false },
    { file: dest.display, outcome: moved.dest, written: false },
  ];
  if (moved.source.status === 'refused' || moved.dest.status === 'refused') return { results, code: 1 };
  if (run.plan.dryRun) {
    results[0].diff = diffOf(file.display, file.text, moved.source.text);
    results[1].diff = diffOf(dest.display, dest.text, moved.dest.text);
    return { results, code: 0 };
  }
  return { results, code: 0, texts: [moved.source.text, moved.dest.text] };
}

/** Every operation but `move`: one file, edited in place. */
function edit(run: Run, file: DecodedFile, doc: EditableState): Computed {
  const outcome = runOperation(run.plan, doc).source;
  const result: FileResult = { file: file.display, outcome, written: false };
  if (outcome.status === 'refused') return { results: [result], code: 1 };
  if (outcome.status === 'unchanged') return { results: [result], code: 0 };
  if (run.plan.dryRun) {
    result.diff = diffOf(file.display, file.text, outcome.text);
    return { results: [result], code: 0 };
  }
  return { results: [result], code: 0, texts: [outcome.text] };
}

/** The plan's operation (its run in the surgery table); `rename` takes its new name as the second argument. */
function runOperation(plan: StatePlan, doc: EditableState, dest?: EditableState) {
  const { targets } = plan;
  const call = { operation: plan.op, all: plan.all, force: plan.force, targetDependents: plan.targetDependents, includeParents: plan.includeParents };
  return state.surgery.run(doc, plan.row.arguments === 'urn-and-name' ? { ...call, targets: [targets[0]], newName: targets[1] } : { ...call, targets }, dest);
}
