/**
 * Pulumi's DIY stack lock taken through a store, as pkg/backend/diy/lock.go takes it: list the
 * stack's lock folder and refuse when a lock is there (naming each holder, in Pulumi's words), write
 * our own `<uuid>.json`, list again (of two writers starting together, one sees the other), run the
 * change, and remove our lock. The one implementation: the CLI, the tree and the dialogs take it here,
 * and stackWrite.ts around every write of a stack file.
 */
import * as l10n from '@vscode/l10n';
import { stackLockFolder, type BackendStack } from './backend';
import { lockFactsOf, lockVerdictText, type StaleLockContext } from './staleLock';
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
}

/** Go's `time.Time` JSON in UTC of `now` (ms since the epoch): RFC 3339 with the sub-second digits, trailing zeros dropped. */
export function goTimestamp(now: number): string {
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

/**
 * `created by user@host (pid N) at <time>` of a lock file's text, as Pulumi names a lock's holder;
 * with `staleness`, followed by the stale-lock rule's verdict (`; stale: pid N is not running on
 * this machine`). Throws when it is no JSON.
 */
export function lockHolderText(text: string, staleness?: StaleLockContext): string {
  const value = JSON.parse(text) as unknown;
  const lock = (value ?? {}) as Partial<LockIdentity & { timestamp: string }>;
  // Fields a lock lacks print as Go's zero values, as Pulumi prints them.
  const at = String(lock.timestamp ?? '0001-01-01T00:00:00Z').replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+/, '$1');
  const holder = l10n.t('created by {0}@{1} (pid {2}) at {3}', lock.username ?? '', lock.hostname ?? '', lock.pid ?? 0, at);
  return staleness ? `${holder}; ${lockVerdictText(lockFactsOf(value), staleness)}` : holder;
}

async function holderOf(store: WritableBackendStore, name: string, staleness?: StaleLockContext): Promise<string> {
  try {
    return lockHolderText(new TextDecoder().decode(await readBytes(store, name)), staleness);
  } catch (error) {
    return l10n.t('unreadable ({0})', error instanceof Error ? error.message : String(error));
  }
}

async function lockedError(store: WritableBackendStore, names: string[], options: StackLockOptions): Promise<StackLockedError> {
  const lines = await Promise.all(names.map(async (name) => `  ${objectUrl(store.url, name)}: ${await holderOf(store, name, options.staleness)}`));
  return new StackLockedError(
    [
      l10n.t('the stack is currently locked by {0} lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.', names.length),
      ...lines,
      ...(options.hint ? [options.hint] : []),
    ].join('\n'),
  );
}

/** Refuses (StackLockedError) when the stack is locked; with `breakLock`, removes each lock and says so. Takes no lock. */
export async function clearOrRefuseStackLocks(store: WritableBackendStore, stack: Pick<BackendStack, 'project' | 'name'>, options: StackLockOptions = {}): Promise<void> {
  const folder = stackLockFolder(stack);
  const others = await otherLocks(store, folder);
  if (others.length === 0) return;
  if (!options.breakLock) throw await lockedError(store, others, options);
  for (const name of others) {
    options.warn?.(l10n.t("removing Pulumi's lock {0} ({1})", name, await holderOf(store, name, options.staleness)));
    await store.delete(name);
    await store.delete(`${name}.attrs`);
  }
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
