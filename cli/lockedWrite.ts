/**
 * Writes that cannot lose an update. Every read-modify-write of a file by `quota-state` runs under
 * `withLockedFiles`: an exclusive lock (proper-lockfile's `<file>.lock` folder, the convention the
 * editor's save follows too), the file's identity recorded as it is read, and a check just before
 * the rename that the file and the lock are still what they were. A DIY stack also gets Pulumi's own
 * lock (`withPulumiLock`), taken as Pulumi's pkg/backend/diy/lock.go takes it.
 *
 * The CLI is synchronous: the lock is retried for a few seconds (sleeping with `Atomics.wait`) so
 * that runs started together queue instead of failing, and proper-lockfile's timer that keeps a lock
 * fresh never runs while one is held; `refresh` does that between long steps instead.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { lockIdentity, pidAlive } from '../shared/node/lockIdentity';
import { lockSync } from 'proper-lockfile';
import { DEFAULT_STALE_LOCK_AGE, goTimestamp, lockFileHolder, lockRefusalText, lockRemovalText, parseStaleLockAge, type StaleLockContext } from '../shared/backend';
import { LOCK_WAIT_MS, STALE_LOCK_MS, writeLockPath } from '../shared/writeLock';
import { InputError, UsageError } from './args';

/** The lock could not be had or was lost, or the file changed since it was read: nothing was written (exit 1). */
export class LockRefusal extends Error {}

/** What identifies one version of a file: a rename or an in-place write changes at least one of these. */
interface FileStamp {
  size: bigint;
  mtimeNs: bigint;
  ino: bigint;
}

function stampOf(path: string): FileStamp | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    return { size: stats.size, mtimeNs: stats.mtimeNs, ino: stats.ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const sameStamp = (a: FileStamp | undefined, b: FileStamp | undefined): boolean => !!a && !!b && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ino === b.ino;

/** What `write` calls around its rename: `check` just before (throws when the file or the lock changed), `written` after. */
export interface WriteGuard {
  check(): void;
  written(): void;
}

/** A file held for a read-modify-write. */
export interface LockedFile extends WriteGuard {
  /** The file (its real path: a symlink and its target share one lock). */
  readonly path: string;
  /** The lock folder, `<path>.lock`. */
  readonly lockPath: string;
  /** Runs `read`, which reads the file, and records the file's identity as it was just before. */
  read<T>(read: () => T): T;
  /** Marks the lock fresh again (proper-lockfile's own refresh cannot run during synchronous work). */
  refresh(): void;
}

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/** Removes a stale lock folder that proper-lockfile cannot (an editor's lock keeps a file in it). */
function removeIfStale(lockPath: string): boolean {
  try {
    if (statSync(lockPath).mtimeMs >= Date.now() - STALE_LOCK_MS) return false;
    rmSync(lockPath, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

function acquire(path: string, display: string): { lockPath: string; release: () => void } {
  const lockPath = writeLockPath(path);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const release = lockSync(path, { stale: STALE_LOCK_MS, realpath: false, lockfilePath: lockPath, onCompromised: () => undefined });
      return { lockPath, release };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' && removeIfStale(lockPath)) continue;
      if (code !== 'ELOCKED' && code !== 'ENOTEMPTY') throw new LockRefusal(`cannot lock ${display}: cannot create ${lockPath} (${code ?? String(error)}); nothing was written`);
      if (Date.now() >= deadline) {
        throw new LockRefusal(
          `${display} is being written by another process: its lock ${lockPath} was not released within ${LOCK_WAIT_MS / 1000} s; nothing was written. ` +
            `Retry when the other run ends (a lock left by a process that is gone counts as stale after ${STALE_LOCK_MS / 1000} s).`,
        );
      }
      sleep(20 + Math.floor(Math.random() * 80));
    }
  }
}

class HeldFile implements LockedFile {
  private stamp: FileStamp | undefined;
  private readStarted = false;
  private lockStamp: FileStamp | undefined;
  private lost = false;

  constructor(
    readonly path: string,
    private readonly display: string,
    readonly lockPath: string,
  ) {
    this.lockStamp = stampOf(lockPath);
  }

  read<T>(read: () => T): T {
    this.stamp = stampOf(this.path);
    this.readStarted = true;
    const result = read();
    this.refresh();
    return result;
  }

  refresh(): void {
    // Never freshen a lock that is no longer ours (another process took it over as stale).
    if (this.lost || !sameStamp(stampOf(this.lockPath), this.lockStamp)) {
      this.lost = true;
      return;
    }
    const now = new Date();
    try {
      utimesSync(this.lockPath, now, now);
    } catch {
      this.lost = true;
    }
    this.lockStamp = stampOf(this.lockPath);
  }

  check(): void {
    if (this.lost || !sameStamp(stampOf(this.lockPath), this.lockStamp)) {
      throw new LockRefusal(`the lock ${this.lockPath} was taken over by another process while ${this.display} was being edited; nothing was written`);
    }
    if (!this.readStarted || !sameStamp(stampOf(this.path), this.stamp)) {
      throw new LockRefusal(`${this.display} changed since it was read (another program wrote it); nothing was written. Run the command again on the new content`);
    }
  }

  written(): void {
    this.stamp = stampOf(this.path);
    this.refresh();
  }
}

function realPathOf(path: string, display: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : `cannot read ${display}: ${code ?? String(error)}`);
  }
}

/**
 * Runs `edit` holding the write locks of every file, taken in one fixed order (by real path) so
 * that two runs locking the same files never wait on each other; released in reverse order.
 */
export function withLockedFiles<T>(files: Array<{ path: string; display: string }>, edit: (locked: LockedFile[]) => T): T {
  const targets = files.map((file) => ({ ...file, path: realPathOf(file.path, file.display) }));
  const order = [...new Set(targets.map((t) => t.path))].sort();
  const held = new Map<string, HeldFile>();
  const releases: Array<() => void> = [];
  const releaseAll = () => {
    for (const release of releases.reverse()) {
      try {
        release();
      } catch {
        // Already gone (taken over as stale): check() has refused the write.
      }
    }
  };
  let settling = false;
  try {
    for (const path of order) {
      const target = targets.find((t) => t.path === path)!;
      const { lockPath, release } = acquire(path, target.display);
      releases.push(release);
      held.set(path, new HeldFile(path, target.display, lockPath));
    }
    const result = edit(targets.map((t) => held.get(t.path)!));
    // An async edit holds the locks until it settles.
    if (result instanceof Promise) {
      settling = true;
      return result.finally(releaseAll) as T;
    }
    return result;
  } finally {
    if (!settling) releaseAll();
  }
}

export function withLockedFile<T>(path: string, display: string, edit: (locked: LockedFile) => T): T {
  return withLockedFiles([{ path, display }], ([locked]) => edit(locked));
}

// ---------------------------------------------------------------------------------------------
// Pulumi's DIY lock: `<root>/.pulumi/locks/organization/<project>/<stack>/<uuid>.json`.

interface PulumiLockContent {
  pid: number;
  username: string;
  hostname: string;
  timestamp: string;
}

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

export { lockIdentity as cliLockIdentity, pidAlive } from '../shared/node/lockIdentity';

/** The lock files in a stack's lock folder other than `own`: files only, never gocloud's `.attrs` sidecars (as Pulumi lists them). */
function otherLocks(folder: string, own?: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.isDirectory() && !entry.name.endsWith('.attrs') && entry.name !== own)
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Pulumi's holder of the lock file at `path` (shared/backend/describe.ts); with `staleness`, whether it is stale. */
function holder(path: string, staleness?: StaleLockContext): string {
  let read: string | Error;
  try {
    read = readFileSync(path, 'utf8');
  } catch (error) {
    read = error as Error;
  }
  return lockFileHolder(read, staleness);
}

/** Pulumi's refusal, word for word, one line per lock, then the command's hint. */
function lockedMessage(folder: string, names: string[], options: PulumiLockOptions): string {
  return lockRefusalText(
    names.map((name) => ({ where: join(folder, name), holder: holder(join(folder, name), options.staleness) })),
    options.hint,
  );
}

interface PulumiLockOptions {
  /** Remove the locks already there (each named in a warning) instead of refusing. */
  breakLock?: boolean;
  /** Appended to the refusal (what the command offers). */
  hint?: string;
  /** The stale-lock rule's context: each lock of a refusal then says whether it is stale. */
  staleness?: StaleLockContext;
  warn: (message: string) => void;
}

/** Refuses when the stack's lock folder holds a lock; with `breakLock`, removes each and warns. */
function clearOrRefuse(folder: string, options: PulumiLockOptions, own?: string): void {
  const others = otherLocks(folder, own);
  if (others.length === 0) return;
  if (!options.breakLock) throw new LockRefusal(lockedMessage(folder, others, options));
  for (const name of others) {
    const path = join(folder, name);
    options.warn(`warning: ${lockRemovalText(path, holder(path, options.staleness))} (--break-lock)`);
    rmSync(path, { force: true });
    rmSync(`${path}.attrs`, { force: true });
  }
}

/** Without a stack (a file outside a DIY backend) this is just `edit()`; `dryRun` checks the lock but takes none. */
export function withPulumiLock<T>(folder: string | undefined, options: PulumiLockOptions & { dryRun?: boolean }, edit: () => T): T {
  if (!folder) return edit();
  if (options.dryRun) {
    if (options.breakLock) options.warn(`warning: --dry-run: no lock is removed or taken in ${folder}`);
    else clearOrRefuse(folder, options);
    return edit();
  }
  clearOrRefuse(folder, options);
  const name = `${randomUUID()}.json`;
  const path = join(folder, name);
  const content: PulumiLockContent = { ...lockIdentity(), timestamp: goTimestamp(performance.timeOrigin + performance.now()) };
  try {
    mkdirSync(folder, { recursive: true });
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeSync(fd, JSON.stringify(content));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(path, { force: true });
    throw new LockRefusal(`cannot take Pulumi's lock in ${folder}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; nothing was written`);
  }
  const cleanup = () => rmSync(path, { force: true });
  process.once('exit', cleanup);
  const release = () => {
    cleanup();
    process.removeListener('exit', cleanup);
  };
  let settling = false;
  try {
    // Pulumi checks again after writing its lock: of two writers starting together, one sees the other.
    const others = otherLocks(folder, name);
    if (others.length) throw new LockRefusal(lockedMessage(folder, others, options));
    const result = edit();
    // An async edit holds the lock until it settles.
    if (result instanceof Promise) {
      settling = true;
      return result.finally(release) as T;
    }
    return result;
  } finally {
    if (!settling) release();
  }
}
