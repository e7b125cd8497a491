/**
 * `quota-state backend copy SRC DST`: stacks with their whole history copied (or moved) between any
 * two backends the CLI opens (file://, s3://, and any store of the remote registry), by
 * shared/backend/copy.ts: history first, the stack file last, resumable, verified by reading DST back.
 * Exit codes: 0 copied and verified (or planned), 1 refused or a difference found, 2 usage error or
 * unreadable input.
 */
import { createBackendService, sizeText, StackLockedError, StoreConflict, type BackendStack, type WritableBackendStore } from '../../shared/backend';
import { UsageError } from '../args';
import { killingAfterWrites, openBackend, openDestination, openStack } from '../backendAccess';
import { commandArguments, formatFlag, type CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { findStackConfig } from '../stackConfig';

const backends = createBackendService();

export const COPY_USAGE = `Usage:
  quota-state backend copy SRC DST [--stack STACK]… [--move] [--overwrite] [--project-for STACK=PROJECT]… [--dry-run] [--break-lock] [--stale-after DURATION] [--format text|json]

Copies every stack of the backend SRC, or each --stack, into the backend DST (any two of file://,
s3:// and the other remote backends, either layout): the stack file as it is (its compression too),
every history entry with its checkpoint, the backups, the retained checkpoints, the .bak and the
tags file. It holds Pulumi's lock of each stack in SRC and in DST while it copies it, writes the
history first and the stack file last (an interrupted copy never leaves DST a stack whose history is
missing), skips what DST already holds with the same bytes (a rerun resumes, and says how many), then
reads each stack back from DST and compares (the same bytes, records and history entries); a
difference is exit 1. A DST without .pulumi/ gets the project layout (meta.yaml version 1); a legacy
SRC stack is placed in the project layout as \`backend upgrade\` places it. Nothing is copied until every
stack can be placed. Progress goes to stderr. The secrets provider's state travels in the state: a
passphrase stack opens in DST with the same passphrase; the salt of its Pulumi.<stack>.yaml
(encryptionsalt), which is not in the backend, is printed: keep that file with the project.

  --stack STACK            copy this stack only (repeatable)
  --move                   once DST is verified, move each stack into SRC's deleted area (\`stack restore-deleted\` brings it back)
  --overwrite              a stack DST holds with another state goes into DST's deleted area first (else refused)
  --project-for STACK=PROJECT   the project of a legacy stack without resources
  --dry-run                print the plan, write nothing
  --break-lock             remove each stack's Pulumi lock files first, naming each (a killed copy leaves its locks)
  --stale-after DURATION   a lock this old is stale whoever holds it (default 1h)

Exit codes: 0 copied and verified, 1 refused (a stack DST holds differently, a lock, a stack not placed) or a difference, 2 usage error or unreadable input.`;

const FLAGS = {
  stack: 'values',
  move: 'boolean',
  overwrite: 'boolean',
  'project-for': 'values',
  'dry-run': 'boolean',
  'break-lock': 'boolean',
  'stale-after': 'value',
  format: 'value',
} as const;

function projectFor(pairs: string[]): Map<string, string> {
  const given = new Map<string, string>();
  for (const pair of pairs) {
    const match = /^([^=]+)=([A-Za-z0-9_.-]+)$/.exec(pair);
    if (!match) throw new UsageError(`--project-for takes STACK=PROJECT, not "${pair}"`);
    given.set(match[1], match[2]);
  }
  return given;
}

/** Which salt the user must carry, per stack: the state's (it travels) and Pulumi.<stack>.yaml's (it does not). */
function saltLines(plan: Awaited<ReturnType<typeof backends.planCopy>>['stacks'][number], io: CliIO): { lines: string[]; json: Record<string, unknown> } {
  const config = plan.to.project || !plan.from.project ? findStackConfig(io.cwd, plan.to.project, plan.to.name) : undefined;
  const lines: string[] = [];
  const state = plan.secrets;
  if (state?.salt) lines.push(`  secrets: passphrase; the state's salt (secrets_providers) travels with it: ${state.salt}`);
  else if (state) lines.push(`  secrets: ${state.type} (its state travels unchanged; DST needs the same provider's access)`);
  if (config?.encryptionSalt) {
    lines.push(`  ${config.display} (not in the backend) has encryptionsalt ${config.encryptionSalt}: carry this file with the project, and the same passphrase`);
    if (state?.salt && state.salt !== config.encryptionSalt) lines.push(`  warning: the state's salt and ${config.display}'s differ: each opens its own secrets, with the same passphrase`);
  } else if (state?.salt) lines.push(`  no Pulumi.${plan.to.name}.yaml at hand: its encryptionsalt (if any) must travel with the project; the state's salt above is the one the stack needs`);
  return { lines, json: { stateSalt: state?.salt ?? null, provider: state?.type ?? null, configFile: config?.display ?? null, configEncryptionSalt: config?.encryptionSalt ?? null } };
}

export async function runCopy(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(COPY_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length !== 2) throw new UsageError('copy takes SRC and DST');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const lock = cliLockOptions(parsed.booleans.has('break-lock'), staleAfterFlag(parsed.flags['stale-after']), io.stderr);
  const dryRun = parsed.booleans.has('dry-run');
  const given = projectFor(parsed.lists['project-for'] ?? []);
  const [srcUrl, dstUrl] = parsed.positional;
  const opened = await openBackend(srcUrl, io);
  if (typeof opened === 'number') return opened;
  let stacks: BackendStack[] | undefined;
  for (const reference of parsed.lists.stack ?? []) {
    const stack = openStack(opened, reference, io);
    if (stack === 1) return 1;
    (stacks ??= []).push(stack);
  }
  const destination = await openDestination(dstUrl, io);
  if (destination.store.url === opened.store.url || (destination.root !== undefined && destination.root === opened.root)) throw new UsageError('SRC and DST are the same backend');
  const dst = killingAfterWrites(destination.store, process.env);
  const plan = await backends.planCopy(opened.store, opened.backend, dst, destination.backend, { stacks, projectFor: given, overwrite: parsed.booleans.has('overwrite') });
  const salts = plan.stacks.map((stack) => saltLines(stack, io));
  const refused = plan.stacks.filter((stack) => stack.refused);
  if (dryRun || refused.length) {
    printPlan(plan, salts, dryRun, format, io);
    if (refused.length) io.stderr(`quota-state: nothing was copied: ${refused.map((s) => `${s.stack}: ${s.refused}`).join('; ')}`);
    return refused.length ? 1 : 0;
  }
  // A rerun resumes a killed copy: the locks its process left are taken over (shared/backend/stackLock.ts).
  return applyCopy(opened.store, dst, plan, salts, { ...lock, takeOverAbandoned: true, move: parsed.booleans.has('move'), overwrite: parsed.booleans.has('overwrite') }, format, io);
}

function printPlan(plan: Awaited<ReturnType<typeof backends.planCopy>>, salts: Array<ReturnType<typeof saltLines>>, dryRun: boolean, format: 'text' | 'json', io: CliIO): void {
  if (format === 'json') {
    io.stdout(JSON.stringify({ dryRun, ...plan, stacks: plan.stacks.map((s, i) => ({ ...s, salts: salts[i].json })) }, null, 2));
    return;
  }
  if (plan.newDestination) io.stdout('DST is new: meta.yaml version 1 (the project layout) is written first');
  for (const [index, stack] of plan.stacks.entries()) {
    const there = stack.destination === 'same' ? 'DST holds the same stack file (a rerun: what is there is skipped)' : stack.destination === 'different' ? 'DST holds another state' : 'new in DST';
    io.stdout(`${stack.stack} → ${stack.target}: ${stack.objects.length} objects, ${sizeText(stack.bytes)}; ${there}${stack.refused ? `; refused: ${stack.refused}` : ''}`);
    if (dryRun) for (const object of stack.objects) io.stdout(`  ${object.from}${object.to === object.from ? '' : ` → ${object.to}`}`);
    for (const line of salts[index].lines) io.stdout(line);
  }
}

async function applyCopy(
  src: WritableBackendStore,
  dst: WritableBackendStore,
  plan: Awaited<ReturnType<typeof backends.planCopy>>,
  salts: Array<ReturnType<typeof saltLines>>,
  options: ReturnType<typeof cliLockOptions> & { takeOverAbandoned: boolean; move: boolean; overwrite: boolean },
  format: 'text' | 'json',
  io: CliIO,
): Promise<number> {
  if (plan.newDestination) await backends.writeNewDestinationMeta(dst);
  const outcomes: Awaited<ReturnType<typeof backends.copyStack>>[] = [];
  try {
    for (const [index, stack] of plan.stacks.entries()) {
      io.stderr(`[${index + 1}/${plan.stacks.length}] copying ${stack.stack} → ${stack.target}: ${stack.objects.length} objects, ${sizeText(stack.bytes)}`);
      const outcome = await backends.copyStack(src, dst, stack, { ...options, nowMs: Date.now() });
      io.stderr(
        `  ${outcome.written} written (${sizeText(outcome.bytesWritten)}), ${outcome.skipped} skipped (already in DST with the same bytes); ${outcome.differences.length ? `${outcome.differences.length} differences` : 'verified'}` +
          `${outcome.replaced ? `; DST's old stack kept in ${outcome.replaced}` : ''}${outcome.moved ? `; moved into SRC's ${outcome.moved}` : ''}`,
      );
      outcomes.push(outcome);
    }
  } catch (error) {
    if (!(error instanceof StackLockedError || error instanceof StoreConflict)) throw error;
    io.stderr(`quota-state: ${error.message}`);
    return 1;
  }
  const differences = outcomes.flatMap((o) => o.differences.map((d) => `${o.target}: ${d}`));
  if (format === 'json') io.stdout(JSON.stringify({ stacks: outcomes.map((o, i) => ({ ...o, salts: salts[i].json })) }, null, 2));
  else {
    const written = outcomes.reduce((sum, o) => sum + o.written, 0);
    const skipped = outcomes.reduce((sum, o) => sum + o.skipped, 0);
    io.stdout(
      `${options.move ? 'moved' : 'copied'} ${outcomes.length} stacks: ${written} objects written, ${skipped} skipped (already in DST with the same bytes); ${differences.length ? `${differences.length} differences` : 'all verified'}`,
    );
    for (const [index, outcome] of outcomes.entries()) {
      io.stdout(`${outcome.stack} → ${outcome.target}`);
      for (const line of salts[index].lines) io.stdout(line);
    }
  }
  for (const difference of differences) io.stderr(`quota-state: verification: ${difference}`);
  return differences.length ? 1 : 0;
}
