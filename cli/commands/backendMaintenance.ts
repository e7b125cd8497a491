/**
 * The two chores a DIY backend needs: `backend prune` (history, backups and retained checkpoints by
 * count or age; the plan is shared/state/backend/prune.ts) and `backend upgrade` (the legacy layout
 * to the project layout, as `pulumi state upgrade` does it: pkg/backend/diy/backend.go's Upgrade).
 * Both hold each stack's Pulumi lock while they change it, and take a dry run.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createStateService, PruneRefusal, type BackendStack, type PrunePlan } from '../../shared/state';
import { decodeFile } from '../../shared/text/inflate';
import { InputError, UsageError } from '../args';
import { commandArguments, formatFlag, type CliIO } from '../io';
import { LockRefusal, withPulumiLock } from '../lockedWrite';
import { openBackend, openStack, type Opened } from '../backendAccess';

const state = createStateService();

export const PRUNE_USAGE = `Usage:
  quota-state backend prune [--backend URL] [--stack STACK] (--keep N | --older-than DURATION) [--dry-run] [--break-lock] [--format text|json]

Removes a DIY backend's old history entries (each history file with its checkpoint), and by the same
rule its backups and retained checkpoints, in every stack or in --stack's. Never the stack file, its
.bak, a lock, or a stack's newest entry (Pulumi reads its config).

  --keep N                 keep the newest N of each (N at least 1)
  --older-than DURATION    remove what is older: Go's units (90m, 36h, 1h30m) or days (30d)
  --dry-run                say what would be removed, remove nothing
  --break-lock             remove a stack's Pulumi lock files first, naming each

Exit codes: 0 pruned or shown, 1 refused (a locked stack, or a rule that would remove every entry),
2 usage error or unreadable input.`;

export const UPGRADE_USAGE = `Usage:
  quota-state backend upgrade [--backend URL] [--project-for STACK=PROJECT]… [--dry-run] [--format text|json]

Moves a legacy DIY backend (bare stack names) to the project layout, as \`pulumi state upgrade\` does:
meta.yaml version 1 first, then each stack file to .pulumi/stacks/<project>/ (the old file kept as its
.bak) and its history to .pulumi/history/<project>/<stack>/. Unlike Pulumi, the backups move too. A
stack's project is read from its first resource's urn; a stack without resources needs
--project-for STACK=PROJECT. Unlike Pulumi, which skips such a stack and hides it, nothing is
upgraded until every stack can be placed and none is locked. Progress goes to stderr.

Exit codes: 0 upgraded (or nothing to do), 1 refused (a stack not placed, or locked), 2 usage error or unreadable input.`;

const PRUNE_FLAGS = { backend: 'value', stack: 'value', keep: 'value', 'older-than': 'value', 'dry-run': 'boolean', 'break-lock': 'boolean', format: 'value' } as const;
const UPGRADE_FLAGS = { backend: 'value', 'project-for': 'values', 'dry-run': 'boolean', format: 'value' } as const;

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function lockFolderOf(root: string, stack: Pick<BackendStack, 'project' | 'name'>): string {
  return stack.project ? join(root, '.pulumi', 'locks', 'organization', stack.project, stack.name) : join(root, '.pulumi', 'locks', stack.name);
}

const lockHint = 'If no Pulumi process is running, `pulumi cancel` or --break-lock removes the lock.';

function pruneRule(flags: Record<string, string | undefined>): { keep?: number; olderThanMs?: number } {
  const { keep, 'older-than': olderThan } = flags;
  if ((keep === undefined) === (olderThan === undefined)) throw new UsageError('prune needs one of --keep N or --older-than DURATION');
  if (keep !== undefined) {
    const count = Number(keep);
    if (!Number.isInteger(count) || count < 1) throw new UsageError(`--keep must be a whole number of at least 1, not "${keep}": Pulumi reads the newest entry's config`);
    return { keep: count };
  }
  const ms = state.backend.parseDuration(olderThan!);
  if (ms === undefined) throw new UsageError(`--older-than must be a duration such as 90m, 36h or 30d, not "${olderThan}"`);
  return { olderThanMs: Date.now() - ms };
}

export async function runPrune(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(PRUNE_USAGE, args, PRUNE_FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length) throw new UsageError('prune takes no positional arguments (the backend is --backend URL)');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const rule = pruneRule(parsed.flags);
  const dryRun = parsed.booleans.has('dry-run');
  const opened = await openBackend(parsed.flags.backend, io);
  if (typeof opened === 'number') return opened;
  let stacks = opened.backend.stacks;
  if (parsed.flags.stack !== undefined) {
    const one = openStack(opened, parsed.flags.stack, io);
    if (one === 1) return 1;
    stacks = [one];
  }
  // Every plan first: a rule refused for one stack removes nothing anywhere.
  let plans: PrunePlan[];
  try {
    plans = await Promise.all(stacks.map((stack) => state.backend.planPrune(opened.store, stack, rule)));
  } catch (error) {
    if (!(error instanceof PruneRefusal)) throw error;
    io.stderr(`quota-state: ${error.message}; nothing was removed`);
    return 1;
  }
  const removed: PrunePlan[] = [];
  try {
    for (const [index, plan] of plans.entries()) {
      const options = { breakLock: parsed.booleans.has('break-lock'), dryRun, hint: lockHint, warn: (message: string) => io.stderr(message) };
      withPulumiLock(lockFolderOf(opened.root, stacks[index]), options, () => {
        // The plan's order: each history file before its checkpoint, so no entry is left without one.
        if (!dryRun) for (const object of plan.remove) rmSync(join(opened.root, ...object.name.split('/')), { force: true });
      });
      removed.push(plan);
    }
  } catch (error) {
    if (!(error instanceof LockRefusal)) throw error;
    io.stderr(`quota-state: ${error.message}`);
    reportPrune(removed, dryRun, format, io);
    return 1;
  }
  reportPrune(removed, dryRun, format, io);
  return 0;
}

function reportPrune(plans: PrunePlan[], dryRun: boolean, format: 'text' | 'json', io: CliIO): void {
  const freed = plans.reduce((sum, plan) => sum + plan.freedBytes, 0);
  if (format === 'json') {
    io.stdout(JSON.stringify({ dryRun, freedBytes: freed, stacks: plans.map((p) => ({ ...p, remove: p.remove.map((o) => ({ file: o.name, bytes: o.size })) })) }, null, 2));
    return;
  }
  const verb = dryRun ? 'would remove' : 'removed';
  for (const plan of plans) {
    const counts = `history ${plan.entries.before} → ${plan.entries.after}, backups ${plan.backups.before} → ${plan.backups.after}, retained checkpoints ${plan.retained.before} → ${plan.retained.after}`;
    io.stdout(`${plan.stack}: ${verb} ${plan.remove.length} files (${sizeOf(plan.freedBytes)}): ${counts}`);
    if (dryRun) for (const object of plan.remove) io.stdout(`  ${object.name}`);
  }
  io.stdout(`${dryRun ? 'would free' : 'freed'} ${sizeOf(freed)} in ${plans.length} ${plans.length === 1 ? 'stack' : 'stacks'}${dryRun ? ' (nothing removed)' : ''}`);
}

interface StackUpgrade {
  stack: string;
  project?: string;
  moves: Array<{ from: string; to: string }>;
  skipped?: string;
}

/** The project of a legacy stack: its first resource's urn (guessProject), else --project-for's. */
function projectOf(opened: Opened, stack: BackendStack, given: Map<string, string>): string | undefined {
  if (given.has(stack.name)) return given.get(stack.name);
  if (!stack.file) return undefined;
  const path = join(opened.root, ...stack.file.name.split('/'));
  const { text } = decodeFile(readFileSync(path), { name: stack.file.name, maxBytes: opened.maxInflatedBytes });
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${stack.file.name} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const urn = state.structureOf(root).resources.find((r) => r.urn)?.urn;
  return urn ? /^urn:pulumi:[^:]*::([^:]+)::/.exec(urn)?.[1] : undefined;
}

/** What moves where for one stack (names relative to the backend's folder). */
function movesOf(opened: Opened, stack: BackendStack, project: string): Array<{ from: string; to: string }> {
  const moves: Array<{ from: string; to: string }> = [];
  const under = (folder: string) => {
    const path = join(opened.root, '.pulumi', folder, stack.name);
    if (!existsSync(path)) return [];
    return (statSync(path).isDirectory() ? readdirNames(path) : []).map((name) => ({ from: `.pulumi/${folder}/${stack.name}/${name}`, to: `.pulumi/${folder}/${project}/${stack.name}/${name}` }));
  };
  if (stack.file) {
    const name = stack.file.name.slice('.pulumi/stacks/'.length);
    moves.push({ from: stack.file.name, to: `.pulumi/stacks/${project}/${name}` });
    if (existsSync(join(opened.root, '.pulumi', 'stacks', `${name}.attrs`))) moves.push({ from: `${stack.file.name}.attrs`, to: `.pulumi/stacks/${project}/${name}.attrs` });
  }
  // renameHistory: only `<stack>-<…>` files move; others stay where they are.
  moves.push(...under('history').filter((m) => m.from.slice(m.from.lastIndexOf('/') + 1).startsWith(`${stack.name}-`)));
  moves.push(...under('backups'));
  return moves;
}

function readdirNames(path: string): string[] {
  return readdirSync(path).filter((name) => statSync(join(path, name)).isFile());
}

export async function runUpgrade(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(UPGRADE_USAGE, args, UPGRADE_FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length) throw new UsageError('upgrade takes no positional arguments (the backend is --backend URL)');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const given = new Map<string, string>();
  for (const pair of parsed.lists['project-for'] ?? []) {
    const match = /^([^=]+)=([A-Za-z0-9_.-]+)$/.exec(pair);
    if (!match) throw new UsageError(`--project-for takes STACK=PROJECT, not "${pair}"`);
    given.set(match[1], match[2]);
  }
  const dryRun = parsed.booleans.has('dry-run');
  const opened = await openBackend(parsed.flags.backend, io);
  if (typeof opened === 'number') return opened;
  if (opened.backend.layout === 'project') {
    io.stdout(`${opened.backend.url} already has the project layout (meta.yaml version ${opened.backend.metaVersion}); nothing to upgrade`);
    return 0;
  }
  const stacks = [...opened.backend.stacks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plans: StackUpgrade[] = stacks.map((stack) => {
    const project = projectOf(opened, stack, given);
    if (!project) return { stack: stack.ref, moves: [], skipped: `no project name found (it holds no resources); give --project-for ${stack.name}=PROJECT` };
    const existing = ['', '.gz', '.zst'].find((ext) => existsSync(join(opened.root, '.pulumi', 'stacks', project, `${stack.name}.json${ext}`)));
    if (existing !== undefined) return { stack: stack.ref, project, moves: [], skipped: `a stack named organization/${project}/${stack.name} already exists` };
    return { stack: stack.ref, project, moves: movesOf(opened, stack, project) };
  });
  // A stack that cannot be placed, or a locked one, refuses the whole upgrade before anything is
  // written: once meta.yaml says "project layout", a legacy stack left behind is one Pulumi no
  // longer sees (Pulumi itself skips it with a warning, #12600).
  if (!dryRun && plans.some((plan) => plan.skipped)) {
    reportUpgrade(plans, true, format, io);
    io.stderr('quota-state: nothing was upgraded: every stack must be placed first (see above)');
    return 1;
  }
  try {
    for (const [index, plan] of plans.entries()) if (!plan.skipped) withPulumiLock(lockFolderOf(opened.root, stacks[index]), { hint: lockHint, warn: () => undefined, dryRun: true }, () => undefined);
  } catch (error) {
    if (!(error instanceof LockRefusal)) throw error;
    io.stderr(`quota-state: ${error.message}\nnothing was upgraded`);
    return 1;
  }
  if (!dryRun) {
    // As Pulumi: the metadata first, so a backend whose files cannot be written is never half moved.
    writeFileSync(join(opened.root, '.pulumi', 'meta.yaml'), 'version: 1\n');
    for (const [index, plan] of plans.entries()) {
      if (plan.skipped) continue;
      try {
        withPulumiLock(lockFolderOf(opened.root, stacks[index]), { hint: lockHint, warn: (message) => io.stderr(message) }, () => moveStack(opened.root, stacks[index], plan, io));
      } catch (error) {
        if (!(error instanceof LockRefusal)) throw error;
        plan.skipped = error.message;
      }
    }
  }
  reportUpgrade(plans, dryRun, format, io);
  return plans.some((plan) => plan.skipped) ? 1 : 0;
}

/** Moves one stack's files (each a rename within the backend's folder); the old stack file becomes its `.bak`, as Pulumi leaves it. */
function moveStack(root: string, stack: BackendStack, plan: StackUpgrade, io: CliIO): void {
  const [stackFile, ...rest] = plan.moves;
  io.stderr(`upgrading ${stack.name} → organization/${plan.project}/${stack.name}: ${plan.moves.length} files`);
  const path = (name: string) => join(root, ...name.split('/'));
  if (stack.file && stackFile) {
    // A copy first, then the old file becomes the .bak: the stack is never without a file.
    mkdirSync(dirname(path(stackFile.to)), { recursive: true });
    const temporary = `${path(stackFile.to)}.quota-state.tmp`;
    writeFileSync(temporary, readFileSync(path(stackFile.from)));
    renameSync(temporary, path(stackFile.to));
    renameSync(path(stackFile.from), `${path(stackFile.from)}.bak`);
  }
  let done = 0;
  for (const move of rest) {
    if (!existsSync(path(move.from))) continue;
    mkdirSync(dirname(path(move.to)), { recursive: true });
    renameSync(path(move.from), path(move.to));
    if (++done % 500 === 0) io.stderr(`  ${done} of ${rest.length} files moved`);
  }
  // The emptied legacy folders go; one still holding something (a file not of this stack) stays.
  for (const folder of ['history', 'backups']) {
    try {
      rmdirSync(join(root, '.pulumi', folder, stack.name));
    } catch {
      // not empty, or never there
    }
  }
}

function reportUpgrade(plans: StackUpgrade[], dryRun: boolean, format: 'text' | 'json', io: CliIO): void {
  if (format === 'json') {
    io.stdout(JSON.stringify({ dryRun, stacks: plans }, null, 2));
    return;
  }
  for (const plan of plans) {
    if (plan.skipped) io.stdout(`${plan.stack}: skipped: ${plan.skipped}`);
    else io.stdout(`${plan.stack} → organization/${plan.project}/${plan.stack}: ${dryRun ? 'would move' : 'moved'} ${plan.moves.length} files`);
    if (dryRun) for (const move of plan.moves) io.stdout(`  ${move.from} → ${move.to}`);
  }
  const upgraded = plans.filter((p) => !p.skipped).length;
  io.stdout(`${dryRun ? 'would upgrade' : 'upgraded'} ${upgraded} of ${plans.length} ${plans.length === 1 ? 'stack' : 'stacks'} to the project layout${dryRun ? ' (nothing written)' : ''}`);
}
