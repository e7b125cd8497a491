/**
 * The write lock every writer of a state file shares: the `<file>.lock` folder (proper-lockfile's
 * convention), which the folder stores take around a conditional write (shared/node/fileStore.ts for
 * `quota-state`, client/backends/store.ts for the editor) through the one shared/folderLock.ts,
 * so each waits for the other and both treat a lock left by a process that is gone alike.
 */

/** The lock folder of `path`. */
export const writeLockPath = (path: string): string => `${path}.lock`;

/** A lock folder older than this (by its mtime) belongs to a process that is gone. */
export const STALE_LOCK_MS = 10_000;

/** How long a writer waits for another writer's lock before it refuses. */
export const LOCK_WAIT_MS = 5_000;
