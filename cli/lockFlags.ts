/**
 * The lock flags every writing command shares (`--break-lock`, `--stale-after`), and the options the
 * one stack writer (shared/backend's `withStackWrite`) is given by the CLI: who takes Pulumi's lock,
 * the stale-lock rule's context on this machine, and how a refusal and a removed lock are said.
 */
import { hostname } from 'node:os';
import { DEFAULT_STALE_LOCK_AGE, parseStaleLockAge, type LockIdentity, type StaleLockContext } from '../shared/backend';
import { lockIdentity, pidAlive } from '../shared/node/lockIdentity';
import { UsageError } from './args';

export { pidAlive };

/** Who takes Pulumi's lock: this process, user and machine. */
export const cliLockIdentity = (): LockIdentity => lockIdentity();

/** What a lock refusal offers. */
export const LOCK_HINT = 'If no Pulumi process is running, `pulumi cancel` or --break-lock removes the lock.';

/** `--stale-after DURATION` in milliseconds (default 1h); a value that is no positive duration is a usage error. */
export function staleAfterFlag(value: string | undefined): number {
  const text = value ?? DEFAULT_STALE_LOCK_AGE;
  const ms = parseStaleLockAge(text);
  if (ms === undefined) throw new UsageError(`--stale-after must be a duration such as 30m, 1h or 2d, not "${text}"`);
  return ms;
}

/** The one stale-lock rule's context on this machine, now (shared/backend/staleLock.ts). */
export function cliStaleness(staleAfterMs: number): StaleLockContext {
  return { now: Date.now(), hostname: hostname(), pidAlive, staleAfterMs };
}

/** What the stack writer is told by a command's `--break-lock` and `--stale-after`. */
export interface CliLockOptions {
  identity: LockIdentity;
  breakLock: boolean;
  hint: string;
  staleness: StaleLockContext;
  warn: (message: string) => void;
}

/**
 * The writer's options for a command: each lock `--break-lock` removes is said through `warn`, as
 * `warning: removing Pulumi's lock NAME (HOLDER) (--break-lock)`.
 */
export function cliLockOptions(breakLock: boolean, staleAfterMs: number, warn: (message: string) => void): CliLockOptions {
  return {
    identity: cliLockIdentity(),
    breakLock,
    hint: LOCK_HINT,
    staleness: cliStaleness(staleAfterMs),
    warn: (message) => warn(`warning: ${message}${breakLock && message.startsWith("removing Pulumi's lock") ? ' (--break-lock)' : ''}`),
  };
}
