/**
 * The words of a DIY backend, written once: a size, a history entry, a lock, a prune plan and an
 * upgrade plan. `quota-state backend ls`, `history`, `backend prune` and `backend upgrade` print
 * them, and so do the Backends view's tree and dialogs, as every quota view renders
 * shared/quota/explain.ts. Plain data in, words out, through `@vscode/l10n` (the editor's language
 * in the extension, English in the CLI). Pure: the clock and the stale-lock verdict are the caller's.
 */
import * as l10n from '@vscode/l10n';
import type { HistoryEntry } from './backend';
import { judgeLock, lockAgeText, lockFactsOf, type LockFacts, type LockVerdict, type StaleLockContext } from './staleLock';

const UNITS = ['KiB', 'MiB', 'GiB'];

/** `512 B`, `41.2 KiB`, `96.0 MiB`, `1.5 GiB`: binary units, one decimal. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `1 file`, `3 files`: one and many are two sentences. */
export const filesText = (count: number) => (count === 1 ? l10n.t('1 file') : l10n.t('{0} files', count));

/** `1 stack`, `3 stacks`. */
export const stacksText = (count: number) => (count === 1 ? l10n.t('1 stack') : l10n.t('{0} stacks', count));

// ---------------------------------------------------------------------------------------------
// History entries

/** How the caller shows a time given in RFC 3339: the CLI as it is, the view relative to now. */
type TimeText = (iso: string) => string;

const asGiven: TimeText = (iso) => iso;

interface EntryDescription {
  /** `9  destroy`: the version and the kind. */
  title: string;
  /** `destroy succeeded 2 hours ago`: the kind, the result (when the entry has one) and the time. */
  summary: string;
  /** `succeeded · 2 hours ago · +0 ~0 -4`: the result, the time and the change counts. */
  details: string;
  /** `+2 ~1 -0`, with `±N` for replacements: created (imports too), updated, deleted. */
  counts: string;
  /** `update 1, same 40`: each kind of change Pulumi counted, by its name; empty when none is recorded. */
  changes: string;
  /** The message's first line, without the quotes around a message given quoted. */
  message: string;
  /** `checkpoint missing` when the entry's checkpoint is gone; empty otherwise. */
  checkpoint: string;
}

type EntryFacts = Pick<HistoryEntry, 'version' | 'kind' | 'result' | 'startTime' | 'message' | 'resourceChanges' | 'checkpoint'>;

/** One history entry in words, its time as `time` shows it (`history`'s rows, the tree's entries, Show History). */
export function describeEntry(entry: EntryFacts, time: TimeText = asGiven): EntryDescription {
  const changes = entry.resourceChanges ?? {};
  const counts = `+${(changes.create ?? 0) + (changes.import ?? 0)} ~${changes.update ?? 0} -${changes.delete ?? 0}${changes.replace ? ` ±${changes.replace}` : ''}`;
  const when = time(entry.startTime);
  return {
    title: `${entry.version}  ${entry.kind}`,
    summary: lastUpdateText(entry, time),
    details: [entry.result, when, counts].filter(Boolean).join(' · '),
    counts,
    changes: Object.entries(changes)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', '),
    message: entry.message.replace(/^"([\s\S]*)"$/, '$1').split('\n')[0],
    checkpoint: entry.checkpoint ? '' : l10n.t('checkpoint missing'),
  };
}

/** A stack's last update, `destroy succeeded 2 hours ago`, or `never updated` (`backend ls`'s LAST UPDATE, the tree's stacks). */
export function lastUpdateText(last: Pick<HistoryEntry, 'kind' | 'result' | 'startTime'> | null | undefined, time: TimeText = asGiven): string {
  return last ? [last.kind, last.result, time(last.startTime)].filter(Boolean).join(' ') : l10n.t('never updated');
}

// ---------------------------------------------------------------------------------------------
// Locks

export interface LockDescription {
  /** `ci@runner-7 (pid 4121)`, as Pulumi names a lock's holder; `?` for what the lock file does not say. */
  holder: string;
  /** The holder, marked when the lock is stale: `ci@runner-7 (pid 4121, stale)` (`backend ls`'s LOCKS, the tree's stacks). */
  marked: string;
  /** The holder and the lock's age: `ci@runner-7 (pid 4121), taken 2 d ago`. */
  taken: string;
  /** The age and the verdict: `ci@runner-7 (pid 4121), taken 2 d ago: stale, older than 1 h` (the tree's tooltip, the lock dialogs). */
  line: string;
}

/** A lock in words, under the one stale-lock rule's `verdict` (staleLock.ts) with its limit `staleAfterMs`. */
export function describeLock(lock: LockFacts, verdict: LockVerdict, staleAfterMs: number): LockDescription {
  const [user, host, pid] = [lock.username ?? '?', lock.hostname ?? '?', lock.pid ?? '?'];
  const holder = l10n.t('{0}@{1} (pid {2})', user, host, pid);
  const taken = verdict.ageMs === undefined ? l10n.t('{0}, taken at an unknown time', holder) : l10n.t('{0}, taken {1} ago', holder, lockAgeText(verdict.ageMs));
  const line =
    verdict.reason === 'process-gone'
      ? l10n.t('{0}: stale, its process on this machine is no longer running', taken)
      : verdict.reason === 'too-old'
        ? l10n.t('{0}: stale, older than {1}', taken, lockAgeText(staleAfterMs))
        : l10n.t('{0}: its holder may still be running', taken);
  return { holder, marked: verdict.stale ? l10n.t('{0}@{1} (pid {2}, stale)', user, host, pid) : holder, taken, line };
}

/**
 * What the rule says of a lock, in the words a refusal appends to its holder:
 * `stale: pid N is not running on this machine`, `stale: taken 3 h ago (older than 1 h)`, or
 * `may be live: taken 12 min ago (stale after 1 h)`.
 */
function lockVerdictText(lock: LockFacts, context: StaleLockContext): string {
  const verdict = judgeLock(lock, context);
  const limit = lockAgeText(context.staleAfterMs);
  if (verdict.reason === 'process-gone') return l10n.t('stale: pid {0} is not running on this machine', lock.pid!);
  if (verdict.reason === 'too-old') return l10n.t('stale: taken {0} ago (older than {1})', lockAgeText(verdict.ageMs!), limit);
  if (verdict.ageMs === undefined) return l10n.t('may be live: taken at an unknown time (stale after {0})', limit);
  return l10n.t('may be live: taken {0} ago (stale after {1})', lockAgeText(verdict.ageMs), limit);
}

/**
 * A lock file's holder as Pulumi's refusal names it, `created by user@host (pid N) at <time>`;
 * with `staleness`, followed by the stale-lock rule's verdict (`; stale: pid N is not running on
 * this machine`). `read` is the file's text, or the error reading it; a text that is no JSON, or
 * an error, is `unreadable (…)`.
 */
export function lockFileHolder(read: string | Error, staleness?: StaleLockContext): string {
  let value: unknown;
  try {
    if (read instanceof Error) throw read;
    value = JSON.parse(read) as unknown;
  } catch (error) {
    return l10n.t('unreadable ({0})', error instanceof Error ? error.message : String(error));
  }
  const lock = (value ?? {}) as Record<string, unknown>;
  // Fields a lock lacks print as Go's zero values, as Pulumi prints them.
  const at = String(lock.timestamp ?? '0001-01-01T00:00:00Z').replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+/, '$1');
  const holder = l10n.t('created by {0}@{1} (pid {2}) at {3}', String(lock.username ?? ''), String(lock.hostname ?? ''), String(lock.pid ?? 0), at);
  return staleness ? `${holder}; ${lockVerdictText(lockFactsOf(value), staleness)}` : holder;
}

/** Pulumi's refusal of a locked stack, word for word, one line per lock (`where: holder`), then `hint`. */
export function lockRefusalText(locks: ReadonlyArray<{ where: string; holder: string }>, hint?: string): string {
  return [
    l10n.t('the stack is currently locked by {0} lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.', locks.length),
    ...locks.map(({ where, holder }) => `  ${where}: ${holder}`),
    ...(hint ? [hint] : []),
  ].join('\n');
}

/** What breaking a lock says: `removing Pulumi's lock <where> (<holder>)`. */
export const lockRemovalText = (where: string, holder: string) => l10n.t("removing Pulumi's lock {0} ({1})", where, holder);

/** What taking over an abandoned lock says: `taking over Pulumi's lock <where> (<holder>): its process is gone`. */
export const lockTakeOverText = (where: string, holder: string) => l10n.t("taking over Pulumi's lock {0} ({1}): its process is gone", where, holder);

// ---------------------------------------------------------------------------------------------
// Prune and upgrade plans

/**
 * What the words of a prune plan read (prune.ts's `PrunePlan`, declared here as its shape: prune.ts
 * takes the lock through stackLock.ts, which speaks through this module).
 */
interface PrunePlan {
  stack: string;
  remove: readonly unknown[];
  entries: { before: number; after: number };
  backups: { before: number; after: number };
  retained: { before: number; after: number };
  freedBytes: number;
}

/** What the words of an upgrade plan read (upgrade.ts's `StackUpgrade`, as its shape, for the same reason). */
interface StackUpgrade {
  stack: string;
  project?: string;
  moves: readonly unknown[];
  skipped?: string;
}

/** Whose words: a confirmation's (`plan`: what it would do, no verb), a dry run's (`would …`), or a report's (`… removed`). */
export type PlanVoice = 'plan' | 'dry-run' | 'done';

/** One stack's prune: `dev: would remove 36 files (1.2 MiB): history 9 → 5, backups 9 → 5, retained checkpoints 0 → 0`. */
export function prunePlanText(plan: PrunePlan, voice: PlanVoice): string {
  const counts = l10n.t(
    'history {0} → {1}, backups {2} → {3}, retained checkpoints {4} → {5}',
    plan.entries.before,
    plan.entries.after,
    plan.backups.before,
    plan.backups.after,
    plan.retained.before,
    plan.retained.after,
  );
  const [files, size] = [filesText(plan.remove.length), sizeText(plan.freedBytes)];
  if (voice === 'dry-run') return l10n.t('{0}: would remove {1} ({2}): {3}', plan.stack, files, size, counts);
  if (voice === 'done') return l10n.t('{0}: removed {1} ({2}): {3}', plan.stack, files, size, counts);
  return l10n.t('{0}: {1} ({2}): {3}', plan.stack, files, size, counts);
}

/** The bytes a prune frees in its stacks: `would free 1.2 MiB in 2 stacks (nothing removed)`, `freed 1.2 MiB in 1 stack`. */
export function pruneTotalText(plans: readonly PrunePlan[], dryRun: boolean): string {
  const freed = sizeText(plans.reduce((sum, plan) => sum + plan.freedBytes, 0));
  return dryRun ? l10n.t('would free {0} in {1} (nothing removed)', freed, stacksText(plans.length)) : l10n.t('freed {0} in {1}', freed, stacksText(plans.length));
}

/** One stack's upgrade: `dev → organization/hist/dev: would move 20 files`, or `empty: skipped: <why>`. */
export function upgradePlanText(plan: StackUpgrade, voice: PlanVoice): string {
  if (plan.skipped) return l10n.t('{0}: skipped: {1}', plan.stack, plan.skipped);
  const [target, files] = [`organization/${plan.project}/${plan.stack}`, filesText(plan.moves.length)];
  if (voice === 'dry-run') return l10n.t('{0} → {1}: would move {2}', plan.stack, target, files);
  if (voice === 'done') return l10n.t('{0} → {1}: moved {2}', plan.stack, target, files);
  return l10n.t('{0} → {1}: {2}', plan.stack, target, files);
}

/** `would upgrade 1 of 2 stacks to the project layout (nothing written)`, `upgraded 1 of 1 stack to the project layout`. */
export function upgradeTotalText(plans: readonly StackUpgrade[], dryRun: boolean): string {
  const upgraded = plans.filter((plan) => !plan.skipped).length;
  return dryRun
    ? l10n.t('would upgrade {0} of {1} to the project layout (nothing written)', upgraded, stacksText(plans.length))
    : l10n.t('upgraded {0} of {1} to the project layout', upgraded, stacksText(plans.length));
}
