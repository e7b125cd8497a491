/**
 * The one rule for Pulumi's stack locks, read by the CLI (`backend ls`), the Backends view and every
 * dialog that offers to break a lock: a lock is **stale** when its holder is a process of this
 * machine that is no longer running, or when it is older than a limit (`--stale-after`, the setting
 * `quotaState.backends.staleLockAge`, one hour by default). Any other lock may have a live holder.
 * The clock, this machine's name and the process check are the caller's (no I/O here).
 */
import { stackLockFolder, type BackendStack } from './backend';
import { parseDuration } from './duration';
import { listAll, readBytes, type BackendStore } from './store';

/** What a lock file says of its holder (lock.go's lockContent); any field may be missing. */
export interface LockFacts {
  pid?: number;
  username?: string;
  hostname?: string;
  /** RFC 3339, as Go writes `time.Time`. */
  timestamp?: string;
}

export interface StaleLockContext {
  /** Milliseconds since the epoch. */
  now: number;
  /** This machine's host name; undefined where it is unknown (the browser). */
  hostname?: string;
  /** Whether a process of this machine runs: undefined when that cannot be told. */
  pidAlive?: (pid: number) => boolean | undefined;
  /** A lock at least this old is stale, whoever holds it. */
  staleAfterMs: number;
}

export interface LockVerdict {
  stale: boolean;
  /** Why it is stale: its process is gone, or it is older than the limit. */
  reason?: 'process-gone' | 'too-old';
  /** How old the lock is, when its timestamp says. */
  ageMs?: number;
}

/** The default of `--stale-after` and of `quotaState.backends.staleLockAge`. */
export const DEFAULT_STALE_LOCK_AGE = '1h';

/** Milliseconds of a Go-style duration (`90m`, `1h30m`, `2d`), or undefined when it is none or not positive. */
export function parseStaleLockAge(text: string): number | undefined {
  const ms = parseDuration(text.trim());
  return ms !== undefined && ms > 0 ? ms : undefined;
}

/** When the lock was taken, or undefined (missing, unreadable, or Go's zero time `0001-01-01`). */
function takenAt(timestamp: string | undefined): number | undefined {
  if (!timestamp || timestamp.startsWith('0001-')) return undefined;
  // Go writes up to nine fractional digits; Date.parse is sure of three.
  const at = Date.parse(timestamp.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(at) ? undefined : at;
}

/** The one rule: stale when its process of this machine is gone, or when it is older than the limit. */
export function judgeLock(lock: LockFacts, context: StaleLockContext): LockVerdict {
  const at = takenAt(lock.timestamp);
  const ageMs = at === undefined ? undefined : Math.max(0, context.now - at);
  const age = ageMs === undefined ? {} : { ageMs };
  if (context.hostname !== undefined && lock.hostname === context.hostname && lock.pid !== undefined && lock.pid > 0 && context.pidAlive?.(lock.pid) === false) {
    return { stale: true, reason: 'process-gone', ...age };
  }
  if (ageMs !== undefined && ageMs >= context.staleAfterMs) return { stale: true, reason: 'too-old', ...age };
  return { stale: false, ...age };
}

/** A lock's age in words a message can hold: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function lockAgeText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** The facts of a lock file's parsed JSON: the fields of the right type, the rest left out. */
export function lockFactsOf(value: unknown): LockFacts {
  const lock = (value ?? {}) as Record<string, unknown>;
  return {
    ...(typeof lock.pid === 'number' ? { pid: lock.pid } : {}),
    ...(typeof lock.username === 'string' ? { username: lock.username } : {}),
    ...(typeof lock.hostname === 'string' ? { hostname: lock.hostname } : {}),
    ...(typeof lock.timestamp === 'string' ? { timestamp: lock.timestamp } : {}),
  };
}

/** The lock files of a stack as they are now (gocloud's `.attrs` sidecars left out); an unreadable one names no holder. */
export async function readStackLocks(store: BackendStore, stack: Pick<BackendStack, 'project' | 'name'>): Promise<Array<LockFacts & { file: string }>> {
  const folder = stackLockFolder(stack);
  const names = (await listAll(store, folder)).map((o) => o.name).filter((name) => name.endsWith('.json') && !name.slice(folder.length).includes('/'));
  return Promise.all(
    names.map(async (file) => {
      try {
        return { file, ...lockFactsOf(JSON.parse(new TextDecoder().decode(await readBytes(store, file)))) };
      } catch {
        return { file };
      }
    }),
  );
}
