/**
 * Pulumi stack locks in the editor, under the one stale-lock rule (shared/backend/staleLock.ts):
 * stale when its process on this machine is gone or when it is older than the setting
 * `quotaState.backends.staleLockAge`. The tree marks stale locks; the dialogs that offer to break a
 * lock never do it on one Enter when a holder may be live: the first button (what Enter picks in VS
 * Code's modal) keeps the lock, and breaking asks a second time, naming the holder and the age.
 */
import * as vscode from 'vscode';
import { DEFAULT_STALE_LOCK_AGE, describeLock, judgeLock, lockAgeText, parseStaleLockAge, type LockDescription, type LockFacts } from '../../shared/backend/vocabulary';
import type { Notifier } from '../notifier';
import { lockHost } from '../../shared/node/lockIdentity';

/** The setting's limit in milliseconds (its default when the value is no duration). */
function staleLockAgeMs(): number {
  const raw = vscode.workspace.getConfiguration('quotaState').get<string>('backends.staleLockAge') ?? DEFAULT_STALE_LOCK_AGE;
  return parseStaleLockAge(raw) ?? parseStaleLockAge(DEFAULT_STALE_LOCK_AGE)!;
}

/** A lock judged by the one rule, here and now, and in the words every view of a lock uses (shared/backend/describe.ts). */
export function judgeStackLock(lock: LockFacts, now = Date.now()): LockDescription & { stale: boolean } {
  const staleAfterMs = staleLockAgeMs();
  const verdict = judgeLock(lock, { now, ...lockHost(), staleAfterMs });
  return { ...describeLock(lock, verdict, staleAfterMs), stale: verdict.stale };
}

/** Button labels of the lock dialogs: `breakStale` removes stale locks, `breakLive` is the second, explicit confirmation. */
export interface BreakLockLabels {
  breakStale: string;
  breakLive: string;
}

/**
 * Asks whether to break the stack's locks; true when the user confirmed. Stale locks only: one
 * question. A lock that may be live: the first question's default keeps it, and breaking needs a
 * second answer naming each live holder and its age.
 */
export async function confirmBreakingLocks(notifier: Notifier, stackRef: string, locks: readonly LockFacts[], labels: BreakLockLabels): Promise<boolean> {
  const now = Date.now();
  const judged = locks.map((lock) => judgeStackLock(lock, now));
  const lines = judged.map((lock) => `  ${lock.line}`).join('\n');
  const live = judged.filter((lock) => !lock.stale);
  const caution = vscode.l10n.t('Remove a lock only when no Pulumi process is updating this stack, as pulumi cancel does.');
  if (live.length === 0) {
    const question =
      locks.length === 1
        ? vscode.l10n.t('{0} is locked by a stale lock: nothing was written.', stackRef)
        : vscode.l10n.t('{0} is locked by {1} stale locks: nothing was written.', stackRef, locks.length);
    return (await notifier.confirm(question, `${lines}\n\n${caution}`, labels.breakStale)) === labels.breakStale;
  }
  const keep = vscode.l10n.t('Keep Lock');
  const ask = vscode.l10n.t('Break Lock…');
  const rule = vscode.l10n.t('A lock is stale when its process on this machine is gone or when it is older than {0} (the setting quotaState.backends.staleLockAge).', lockAgeText(staleLockAgeMs()));
  const first = await notifier.confirm(vscode.l10n.t('{0} is locked, and its holder may still be running: nothing was written.', stackRef), `${lines}\n\n${rule}`, keep, ask);
  if (first !== ask) return false;
  const holders = live.map((lock) => lock.taken).join('; ');
  const second = await notifier.confirm(
    vscode.l10n.t('Break the lock of {0}?', holders),
    vscode.l10n.t('If that process is still updating {0}, both writes race and the state can lose resources. Break it only when you know that update has ended.', stackRef),
    keep,
    labels.breakLive,
  );
  return second === labels.breakLive;
}
