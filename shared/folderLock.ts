/**
 * The write lock on a file every writer shares, in the `<file>.lock` folder convention
 * (shared/writeLock.ts; proper-lockfile's, which quota-state took before): while the folder exists the file is being written; a folder
 * whose mtime is older than 10 s was left by a process that is gone and is removed. The one
 * implementation: the CLI's and the server's folder store (shared/node/fileStore.ts, over Node's fs)
 * and the editor's (client/backends/store.ts, over `vscode.workspace.fs`) take it around the check
 * and the rename of a conditional write.
 *
 * Its I/O is injected. `vscode.workspace.fs.createDirectory` has mkdirp semantics (it succeeds when
 * the folder exists), so creating the folder is no exclusive claim by itself. The lock is therefore
 * claimed as Pulumi claims its DIY lock: create the folder, write an owner file of our own in it, then
 * list it; anything else there (another writer's owner file) means someone else holds it, and we
 * withdraw. Of two claimants, at least one sees the other. The caller compares the file's version
 * just before replacing it.
 */
import { LOCK_WAIT_MS, STALE_LOCK_MS } from './writeLock';

/** What the lock needs of a file system, for one lock folder. */
export interface LockFolderIo {
  /** The folder's modification time (ms), or undefined when it does not exist. */
  mtime(): Promise<number | undefined>;
  /** Creates the folder (succeeding when it exists). */
  create(): Promise<void>;
  writeOwner(name: string, content: Uint8Array): Promise<void>;
  list(): Promise<string[]>;
  removeOwner(name: string): Promise<void>;
  /** Removes the folder: with `recursive`, whatever is in it (a stale lock); without, only when empty. */
  remove(recursive: boolean): Promise<void>;
}

export interface FolderLock {
  release(): Promise<void>;
}

export interface LockOptions {
  staleMs?: number;
  waitMs?: number;
  /** Who takes it, in its owner file's name and content (`vscode`, `quota-state`). */
  holder?: string;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function ownerName(owner: string): string {
  const id = typeof globalThis.crypto?.randomUUID === 'function' ? globalThis.crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `${id}.${owner}-owner`;
}

const ignore = () => undefined;

/** One attempt: undefined when the lock is held by someone else. */
async function claim(io: LockFolderIo, owner: string, holder: string, now: number): Promise<FolderLock | undefined> {
  await io.create();
  await io.writeOwner(owner, new TextEncoder().encode(JSON.stringify({ owner: holder, timestamp: new Date(now).toISOString() })));
  const others = (await io.list()).filter((name) => name !== owner);
  if (others.length > 0) {
    // Withdraw; and when no one else has an owner file there, remove the folder too, so that two
    // editors that saw each other do not both wait for a folder neither holds to go stale.
    await io.removeOwner(owner).catch(ignore);
    await io.remove(false).catch(ignore);
    return undefined;
  }
  return {
    release: async () => {
      await io.removeOwner(owner).catch(ignore);
      await io.remove(false).catch(ignore);
    },
  };
}

/** Takes the lock, waiting a few seconds for another writer; undefined when it stays held. */
export async function acquireFolderLock(io: LockFolderIo, options: LockOptions = {}): Promise<FolderLock | undefined> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const stale = options.staleMs ?? STALE_LOCK_MS;
  const deadline = now() + (options.waitMs ?? LOCK_WAIT_MS);
  const holder = options.holder ?? 'vscode';
  const owner = ownerName(holder);
  for (;;) {
    const mtime = await io.mtime();
    if (mtime !== undefined && mtime < now() - stale) {
      const removed = await io.remove(true).then(
        () => true,
        () => false,
      );
      if (removed && now() < deadline) continue;
    }
    if (mtime === undefined) {
      // Another writer may remove the folder between our create and our owner file (its stale lock, or
      // its release): that claim is lost, not an error; one that keeps failing until the deadline is.
      const lock = await claim(io, owner, holder, now()).catch((error: unknown) => {
        if (now() >= deadline) throw error;
        return undefined;
      });
      if (lock) return lock;
    }
    if (now() >= deadline) return undefined;
    await sleep(20 + Math.floor(Math.random() * 80));
  }
}
