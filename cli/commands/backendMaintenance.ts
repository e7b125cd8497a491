/**
 * The two chores a DIY backend needs: `backend prune` (history, backups and retained checkpoints by
 * count or age; the plan is shared/backend/prune.ts) and `backend upgrade` (the legacy layout
 * to the project layout, as `pulumi state upgrade` does it: pkg/backend/diy/backend.go's Upgrade).
 * Both hold each stack's Pulumi lock while they change it, and take a dry run. The work itself is
 * shared/backend's (prune.ts, upgrade.ts) through the file store, as the editor's Backends view runs it.
 */
import { lstatSync, rmdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  createBackendService,
  listAll,
  PruneRefusal,
  prunePlanText,
  pruneTotalText,
  StackLockedError,
  stacksText,
  upgradePlanText,
  upgradeTotalText,
  type PrunePlan,
  type StackUpgrade,
} from '../../shared/backend';
import { InputError, UsageError } from '../args';
import { commandArguments, formatFlag, type CliIO } from '../io';
import { cliLockIdentity, cliStaleness, LOCK_HINT, pidAlive, staleAfterFlag } from '../lockFlags';
import { openBackend, openStack } from '../backendAccess';
import { removeStaleTemporaries } from '../realIo';
import { pruneDeletedCommand } from './backendDeleted';

const backends = createBackendService();

export const PRUNE_USAGE = `Usage:
  quota-state backend prune [--backend URL] [--stack STACK] (--keep N | --older-than DURATION) [--deleted] [--dry-run] [--break-lock] [--stale-after DURATION] [--format text|json]

Removes a DIY backend's old history entries (each history file with its checkpoint), and by the same
rule its backups and retained checkpoints, in every stack or in --stack's. Never the stack file, its
.bak, a lock, or a stack's newest entry (Pulumi reads its config).

  --keep N                 keep the newest N of each (N at least 1)
  --older-than DURATION    remove what is older: Go's units (90m, 36h, 1h30m) or days (30d)
  --deleted                prune the deleted area (.pulumi/deleted/, what \`stack rm\` and \`backend copy --move\`
                           keep) instead: its entries older than --older-than, or all but the newest
                           --keep N of each stack, and any an interruption left incomplete
  --dry-run                say what would be removed, remove nothing
  --break-lock             remove a stack's Pulumi lock files first, naming each
  --stale-after DURATION   a lock this old is stale whoever holds it (default 1h); a refusal says which locks are
                           stale; a stack file's leftover temporaries whose writer is gone by this rule are removed

Exit codes: 0 pruned or shown, 1 refused (a locked stack, or a rule that would remove every entry),
2 usage error or unreadable input.`;

export const UPGRADE_USAGE = `Usage:
  quota-state backend upgrade [--backend URL] [--project-for STACK=PROJECT]… [--dry-run] [--break-lock] [--stale-after DURATION] [--format text|json]

Moves a legacy DIY backend (bare stack names) to the project layout, as \`pulumi state upgrade\` does:
meta.yaml version 1 first, then each stack file to .pulumi/stacks/<project>/ (the old file kept as its
.bak) and its history to .pulumi/history/<project>/<stack>/. Unlike Pulumi, the backups move too. A
stack's project is read from its first resource's urn; a stack without resources needs
--project-for STACK=PROJECT. Unlike Pulumi, which skips such a stack and hides it, nothing is
upgraded until every stack can be placed and none is locked. Progress goes to stderr.

  --break-lock             remove each stack's Pulumi lock files as it is moved, naming each
  --stale-after DURATION   a lock this old is stale whoever holds it (default 1h); a refusal says which locks are stale

Exit codes: 0 upgraded (or nothing to do), 1 refused (a stack not placed, or locked), 2 usage error or unreadable input.`;

const PRUNE_FLAGS = {
  backend: 'value',
  stack: 'value',
  deleted: 'boolean',
  keep: 'value',
  'older-than': 'value',
  'dry-run': 'boolean',
  'break-lock': 'boolean',
  'stale-after': 'value',
  format: 'value',
} as const;
const UPGRADE_FLAGS = { backend: 'value', 'project-for': 'values', 'dry-run': 'boolean', 'break-lock': 'boolean', 'stale-after': 'value', format: 'value' } as const;

function pruneRule(flags: Record<string, string | undefined>): { keep?: number; olderThanMs?: number } {
  const { keep, 'older-than': olderThan } = flags;
  if ((keep === undefined) === (olderThan === undefined)) throw new UsageError('prune needs one of --keep N or --older-than DURATION');
  if (keep !== undefined) {
    const count = Number(keep);
    if (!Number.isInteger(count) || count < 1) throw new UsageError(`--keep must be a whole number of at least 1, not "${keep}": Pulumi reads the newest entry's config`);
    return { keep: count };
  }
  const ms = backends.parseDuration(olderThan!);
  if (ms === undefined) throw new UsageError(`--older-than must be a duration such as 90m, 36h or 30d, not "${olderThan}"`);
  return { olderThanMs: Date.now() - ms };
}

export async function runPrune(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(PRUNE_USAGE, args, PRUNE_FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length) throw new UsageError('prune takes no positional arguments (the backend is --backend URL)');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const rule = pruneRule(parsed.flags);
  const staleAfterMs = staleAfterFlag(parsed.flags['stale-after']);
  const dryRun = parsed.booleans.has('dry-run');
  const opened = await openBackend(parsed.flags.backend, io);
  if (typeof opened === 'number') return opened;
  if (parsed.booleans.has('deleted')) return pruneDeletedCommand(opened, rule, parsed.flags.stack, dryRun, format, io);
  let stacks = opened.backend.stacks;
  if (parsed.flags.stack !== undefined) {
    const one = openStack(opened, parsed.flags.stack, io);
    if (one === 1) return 1;
    stacks = [one];
  }
  // Every plan first: a rule refused for one stack removes nothing anywhere.
  let plans: PrunePlan[];
  try {
    plans = await Promise.all(stacks.map((stack) => backends.planPrune(opened.store, stack, rule)));
  } catch (error) {
    if (!(error instanceof PruneRefusal)) throw error;
    io.stderr(`quota-state: ${error.message}; nothing was removed`);
    return 1;
  }
  const removed: PrunePlan[] = [];
  const options = { breakLock: parsed.booleans.has('break-lock'), hint: LOCK_HINT, staleness: cliStaleness(staleAfterMs), warn: (message: string) => io.stderr(`warning: ${message}`) };
  try {
    for (const [index, plan] of plans.entries()) {
      if (dryRun) {
        // As surgery's --dry-run: a locked stack is refused, and no lock is taken or removed.
        if (options.breakLock) io.stderr(`warning: --dry-run: no lock is removed or taken for ${stacks[index].ref}`);
        else await backends.refuseIfLocked(opened.store, stacks[index], options);
      } else await backends.applyPrune(opened.store, stacks[index], plan, { ...options, identity: cliLockIdentity() });
      removed.push(plan);
    }
  } catch (error) {
    if (!(error instanceof StackLockedError)) throw error;
    io.stderr(`quota-state: ${error.message}`);
    reportPrune(removed, dryRun, format, io);
    return 1;
  }
  // Temporaries a killed write left beside each stack file go once their writer is gone (the stale-lock rule).
  if (!dryRun && opened.root) {
    for (const stack of stacks) {
      if (!stack.file) continue;
      for (const temporary of removeStaleTemporaries(join(opened.root, ...stack.file.name.split('/')), staleAfterMs)) io.stderr(`removed ${temporary}: left by an interrupted write`);
    }
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
  for (const plan of plans) {
    io.stdout(prunePlanText(plan, dryRun ? 'dry-run' : 'done'));
    if (dryRun) for (const object of plan.remove) io.stdout(`  ${object.name}`);
  }
  io.stdout(pruneTotalText(plans, dryRun));
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
  const breakLock = parsed.booleans.has('break-lock');
  const staleness = cliStaleness(staleAfterFlag(parsed.flags['stale-after']));
  const opened = await openBackend(parsed.flags.backend, io);
  if (typeof opened === 'number') return opened;
  const journal = await interruptedUpgrade(opened, dryRun, io);
  let backend = opened.backend;
  // An older upgrade that wrote meta.yaml first and stopped halfway left legacy stack files beside version 1.
  const beside = backend.layout === 'project' && !journal && (await listAll(opened.store, '.pulumi/stacks/')).some((o) => /^\.pulumi\/stacks\/[^/]+\.(json|yaml)(\.gz|\.zst)?$/.test(o.name));
  if (beside) {
    backend = await backends.read(opened.store, { maxInflatedBytes: opened.maxInflatedBytes, asLegacy: true });
    io.stderr(`${backend.url}: meta.yaml says the project layout, but legacy stack files are beside it (an upgrade stopped halfway); moving them`);
  } else if (backend.layout === 'project') {
    if (journal && !dryRun) {
      // Stopped after meta.yaml: the new layout is whole; the old objects and the journal are left.
      const finished = await backends.finishUpgrade(opened.store);
      io.stdout(`finished the interrupted upgrade of ${stacksText(finished.length)}: ${finished.join(', ')}`);
      return 0;
    }
    io.stdout(`${backend.url} already has the project layout (meta.yaml version ${backend.metaVersion}); ${journal ? 'an interrupted upgrade is left to finish' : 'nothing to upgrade'}`);
    return 0;
  }
  // Stopped before meta.yaml: the legacy layout is whole; plan again (new entries included), each stack to the project the journal chose.
  if (journal) io.stderr('resuming an interrupted upgrade: what it copied already is kept');
  let plans: StackUpgrade[];
  try {
    plans = await backends.planUpgrade(opened.store, backend, given, opened.maxInflatedBytes, backends.journalProjects(journal), beside);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  // A stack that cannot be placed, or a locked one, refuses the whole upgrade before anything is written.
  if (!dryRun && plans.some((plan) => plan.skipped)) {
    reportUpgrade(plans, true, format, io);
    io.stderr('quota-state: nothing was upgraded: every stack must be placed first (see above)');
    return 1;
  }
  try {
    // With --break-lock each stack's locks go as it is moved (a dry run removes none); without, any lock refuses it all first.
    if (breakLock && dryRun) io.stderr('warning: --dry-run: no lock is removed or taken');
    if (!breakLock) await backends.refuseIfAnyStackLocked(opened.store, backend, plans, { hint: LOCK_HINT, staleness });
    if (!dryRun) {
      await backends.applyUpgrade(opened.store, backend, plans, {
        identity: cliLockIdentity(),
        hint: LOCK_HINT,
        staleness,
        breakLock,
        say: (message) => io.stderr(message),
        warn: (message) => io.stderr(`warning: ${message}`),
      });
      // The emptied legacy folders go; one still holding something (a file not of this stack) stays.
      for (const plan of opened.root ? plans : []) {
        for (const folder of ['history', 'backups']) removeEmptyFolderInside(opened.root!, ['.pulumi', folder, plan.stack]);
      }
    }
  } catch (error) {
    if (!(error instanceof StackLockedError)) throw error;
    io.stderr(`quota-state: ${error.message}\nnothing was upgraded`);
    return 1;
  }
  reportUpgrade(plans, dryRun, format, io);
  return plans.some((plan) => plan.skipped) ? 1 : 0;
}

/**
 * Removes an emptied legacy folder, never one reached through a symbolic link: a `.pulumi/history`
 * that links elsewhere would have this remove an empty folder outside the backend.
 */
function removeEmptyFolderInside(root: string, parts: string[]): void {
  let path = root;
  try {
    for (const part of parts) {
      path = join(path, part);
      if (lstatSync(path).isSymbolicLink()) return;
    }
    rmdirSync(path);
  } catch {
    // not empty, or never there
  }
}

/** The journal of an upgrade a crash stopped, with the locks it left removed (its process is gone); undefined when there is none. */
async function interruptedUpgrade(opened: Exclude<Awaited<ReturnType<typeof openBackend>>, number>, dryRun: boolean, io: CliIO) {
  let journal: Awaited<ReturnType<typeof backends.readUpgradeJournal>>;
  try {
    journal = await backends.readUpgradeJournal(opened.store);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  if (journal && !dryRun) {
    for (const file of await backends.clearInterruptedUpgradeLocks(opened.store, opened.backend, journal, hostname(), (pid) => pidAlive(pid) !== false)) {
      io.stderr(`removing the lock ${file} the interrupted upgrade left (its process is gone)`);
    }
  }
  return journal;
}

function reportUpgrade(plans: StackUpgrade[], dryRun: boolean, format: 'text' | 'json', io: CliIO): void {
  if (format === 'json') {
    io.stdout(JSON.stringify({ dryRun, stacks: plans }, null, 2));
    return;
  }
  for (const plan of plans) {
    io.stdout(upgradePlanText(plan, dryRun ? 'dry-run' : 'done'));
    if (dryRun) for (const move of plan.moves) io.stdout(`  ${move.from} → ${move.to}`);
  }
  io.stdout(upgradeTotalText(plans, dryRun));
}
