/**
 * Pulumi's DIY stack lock taken through a store, as pkg/backend/diy/lock.go takes it: list the
 * stack's lock folder and refuse when a lock is there (naming each holder, in Pulumi's words), write
 * our own `<uuid>.json`, list again (of two writers starting together, one sees the other), run the
 * change, and remove our lock. The one implementation: the CLI, the tree and the dialogs take it here,
 * and stackWrite.ts around every write of a stack file.
 *
 * Unlike Pulumi, a command that resumes its own interrupted work (`takeOverAbandoned`, with the
 * stale rule's `staleness`: the CLI's `backend copy`, `stack rm`, `stack rename`) takes over a lock
 * whose holder is a process of this machine that is gone (staleLock.ts's `process-gone`), naming it
 * through `warn`: that process cannot be writing any more, so the rerun of a killed run resumes
 * without --break-lock. Every other lock, stale by age included, still refuses unless `breakLock`;
 * every other writer (a restore, a state edit) still refuses even that one, as Pulumi does: the lock
 * of a killed `pulumi up` says its state may be half-updated. The rule lives here only.
 */
import * as l10n from '@vscode/l10n';
import { stackLockFolder, type BackendStack } from './backend';
import { lockFileHolder, lockRefusalText, lockRemovalText, lockTakeOverText } from './describe';
import { judgeLock, lockFactsOf, type StaleLockContext } from './staleLock';
import { listAll, objectUrl, readBytes, type WritableBackendStore } from './store';

/** Who takes the lock: lock.go's lockContent without the timestamp (taken when the lock is written). */
export interface LockIdentity {
  pid: number;
  username: string;
  hostname: string;
}

/** The stack is locked by another process (or our lock could not be taken): nothing was written. */
export class StackLockedError extends Error {}

export interface StackLockOptions {
  /** Remove the locks already there, each named through `warn`, instead of refusing. */
  breakLock?: boolean;
  warn?: (message: string) => void;
  /** Appended to the refusal: what the caller offers (a command, a flag). */
  hint?: string;
  /** The stale-lock rule's context: each lock of a refusal then says whether it is stale (staleLock.ts). */
  staleness?: StaleLockContext;
  /** Take over (remove, naming it) a lock whose holder is a process of this machine that is gone, judged by `staleness`: for a command that resumes its own interrupted work. */
  takeOverAbandoned?: boolean;
}

/** Go's `time.Time` JSON in UTC of `now` (ms since the epoch): RFC 3339 with the sub-second digits, trailing zeros dropped. */
function goTimestamp(now: number): string {
  const micros = Math.round(now * 1000);
  const base = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  const nanos = String((micros % 1_000_000) * 1000)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return `${base}${nanos ? `.${nanos}` : ''}Z`;
}

function uuid(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const hex = [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** The lock files of the folder other than `own` (never gocloud's `.attrs` sidecars, as Pulumi lists them). */
async function otherLocks(store: WritableBackendStore, folder: string, own?: string): Promise<string[]> {
  return (await listAll(store, folder)).map((o) => o.name).filter((name) => !name.slice(folder.length).includes('/') && !name.endsWith('.attrs') && name !== own);
}

async function readLock(store: WritableBackendStore, name: string): Promise<string | Error> {
  try {
    return new TextDecoder().decode(await readBytes(store, name));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

async function holderOf(store: WritableBackendStore, name: string, staleness?: StaleLockContext): Promise<string> {
  return lockFileHolder(await readLock(store, name), staleness);
}

/** Whether the lock is to be taken over: the caller asks it, and its holder is a process of this machine that is gone. */
async function abandoned(store: WritableBackendStore, name: string, options: StackLockOptions): Promise<boolean> {
  const { staleness } = options;
  if (!options.takeOverAbandoned || !staleness) return false;
  const read = await readLock(store, name);
  if (read instanceof Error) return false;
  try {
    return judgeLock(lockFactsOf(JSON.parse(read)), staleness).reason === 'process-gone';
  } catch {
    return false;
  }
}

async function removeLock(store: WritableBackendStore, name: string): Promise<void> {
  await store.delete(name);
  await store.delete(`${name}.attrs`);
}

async function lockedError(store: WritableBackendStore, names: string[], options: StackLockOptions): Promise<StackLockedError> {
  const locks = await Promise.all(names.map(async (name) => ({ where: objectUrl(store.url, name), holder: await holderOf(store, name, options.staleness) })));
  return new StackLockedError(lockRefusalText(locks, options.hint));
}

/**
 * Refuses (StackLockedError) when the stack is locked; with `breakLock`, removes each lock and says
 * so. With `takeOverAbandoned`, a lock whose process of this machine is gone is taken over (removed,
 * and said) without `breakLock`; `look` (a dry run, a check before a plan) removes nothing and lets such a lock pass.
 * Takes no lock.
 */
async function clearOrRefuseStackLocks(store: WritableBackendStore, stack: Pick<BackendStack, 'project' | 'name'>, options: StackLockOptions = {}, mode: 'clear' | 'look' = 'clear'): Promise<void> {
  const folder = stackLockFolder(stack);
  const locks = await otherLocks(store, folder);
  const gone = new Set<string>();
  for (const name of locks) if (await abandoned(store, name, options)) gone.add(name);
  const others = locks.filter((name) => !gone.has(name));
  if (others.length && (!options.breakLock || mode === 'look')) throw await lockedError(store, others, options);
  if (mode === 'look') return;
  for (const name of locks) {
    const holder = await holderOf(store, name, options.staleness);
    options.warn?.(gone.has(name) ? lockTakeOverText(objectUrl(store.url, name), holder) : lockRemovalText(name, holder));
    await removeLock(store, name);
  }
}

/** Refuses (StackLockedError) when the stack is locked by anything but a lock that would be taken over; removes nothing. */
export function refuseIfStackLocked(store: WritableBackendStore, stack: Pick<BackendStack, 'project' | 'name'>, options: StackLockOptions = {}): Promise<void> {
  return clearOrRefuseStackLocks(store, stack, options, 'look');
}

/** Runs `change` holding the stack's Pulumi lock; our lock is removed however `change` ends. */
export async function withStackLock<T>(
  store: WritableBackendStore,
  stack: Pick<BackendStack, 'project' | 'name'>,
  identity: LockIdentity,
  options: StackLockOptions,
  change: () => Promise<T>,
): Promise<T> {
  await clearOrRefuseStackLocks(store, stack, options);
  const folder = stackLockFolder(stack);
  const own = `${folder}${uuid()}.json`;
  const content = { pid: identity.pid, username: identity.username, hostname: identity.hostname, timestamp: goTimestamp(performance.timeOrigin + performance.now()) };
  try {
    await store.write(own, new TextEncoder().encode(JSON.stringify(content)), { ifVersion: null });
  } catch (error) {
    await store.delete(own).catch(() => undefined);
    throw new StackLockedError(l10n.t("cannot take Pulumi's lock {0}: {1}; nothing was written", own, error instanceof Error ? error.message : String(error)));
  }
  try {
    const others = await otherLocks(store, folder, own);
    if (others.length) throw await lockedError(store, others, options);
    return await change();
  } finally {
    // A lock we cannot remove (the connection is gone) would block every later update: say so, and how to clear it.
    await store
      .delete(own)
      .catch((error: unknown) =>
        options.warn?.(l10n.t('our lock {0} could not be removed ({1}); it is left behind: `pulumi cancel` or --break-lock removes it', own, error instanceof Error ? error.message : String(error))),
      );
  }
}

/**
 * Holds Pulumi's lock of each stack around `body`, one after another in a fixed order (by project and
 * name, each stack once), so two writers of the same stacks never wait on each other crosswise.
 */
export function withStackLocks<T>(
  store: WritableBackendStore,
  stacks: ReadonlyArray<Pick<BackendStack, 'project' | 'name'>>,
  identity: LockIdentity,
  options: StackLockOptions,
  body: () => Promise<T>,
): Promise<T> {
  const key = (stack: Pick<BackendStack, 'project' | 'name'>) => `${stack.project ?? ''}/${stack.name}`;
  const distinct = [...new Map(stacks.map((stack) => [key(stack), stack])).values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const hold = (index: number): Promise<T> => (index === distinct.length ? body() : withStackLock(store, distinct[index], identity, options, () => hold(index + 1)));
  return hold(0);
}
