/**
 * The one writer of a stack file, in a backend or alone: every command and editor action that writes
 * a stack goes through `withStackWrite` (surgery on a file or a stack, `fix`, restore, the bucket file
 * system's save). It takes Pulumi's lock when the object is a stack of a backend (stackLock.ts), reads
 * the object with its version, lets the edit compute the new bytes, keeps what it replaces as
 * `<name>.bak` (as Pulumi's backupTarget does), writes only if the object is still the version read,
 * and releases the lock however the edit ends. A plain file that is not in a backend is a one-object
 * store with the same rules, without Pulumi's lock (it has no lock folder).
 */
import * as l10n from '@vscode/l10n';
import type { BackendStack } from './backend';
import { stackFileOf } from './paths';
import { withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { readIfPresent, StoreBusy, StoreConflict, StoreError, StoreMissing, type StoredObject, type WritableBackendStore } from './store';

export interface StackWriteOptions extends StackLockOptions {
  identity: LockIdentity;
  /**
   * The stack whose Pulumi lock guards the object; by default the one its name gives
   * (`.pulumi/stacks/[<project>/]<stack>.json[.gz|.zst]`), none for any other name.
   */
  stack?: Pick<BackendStack, 'project' | 'name'> | null;
  /** Creates the object when it is absent (the edit is then called with undefined). */
  create?: boolean;
  /** Called under the lock, before the object is read: a last refusal. */
  underLock?(): void | Promise<void>;
}

/** What an edit answers: the new bytes (none: nothing is written) and what the caller gets back. */
export interface StackEditResult<T> {
  bytes?: Uint8Array;
  value: T;
}

export interface StackWriteOutcome<T> {
  value: T;
  /** Whether the object was written. */
  written: boolean;
  /** The `.bak` that keeps what was replaced, when something was. */
  backup?: string;
}

/** The stack whose lock guards an object, by its name. */
function lockedStack(name: string, options: StackWriteOptions): Pick<BackendStack, 'project' | 'name'> | undefined {
  if (options.stack !== undefined) return options.stack ?? undefined;
  const path = stackFileOf(name);
  return path && path.root === '' ? { project: path.project, name: path.name } : undefined;
}

/**
 * Runs `edit` on the object `name` under Pulumi's lock and writes what it answers, keeping the `.bak`.
 * Refused with a StoreConflict (nothing written, the `.bak` as it was) when another writer changed the
 * object between the read and the write.
 */
export async function withStackWrite<T>(
  store: WritableBackendStore,
  name: string,
  options: StackWriteOptions,
  edit: (current: StoredObject | undefined) => Promise<StackEditResult<T>> | StackEditResult<T>,
): Promise<StackWriteOutcome<T>> {
  const outcome = await withStackWrites(store, [name], options, async ([current]) => {
    const { bytes, value } = await edit(current);
    return { bytes: [bytes], value };
  });
  return { value: outcome.value, written: outcome.written.length > 0, backup: outcome.backups[0] };
}

/**
 * `withStackWrite` of several objects at once (a move between two stacks): every stack's lock, every
 * object read, one edit, then each object checked to be still the version read before anything is
 * written, and written in order with its `.bak`. A writer that comes between two writes gets the
 * refusal, which names what was already written.
 */
export async function withStackWrites<T>(
  store: WritableBackendStore,
  names: readonly string[],
  options: StackWriteOptions,
  edit: (current: Array<StoredObject | undefined>) => Promise<{ bytes: Array<Uint8Array | undefined>; value: T }>,
): Promise<{ value: T; written: string[]; backups: string[] }> {
  const run = async () => {
    await options.underLock?.();
    const current = await Promise.all(names.map((name) => readIfPresent(store, name)));
    const missing = names.find((_name, index) => !current[index] && !options.create);
    if (missing !== undefined) throw new StoreMissing(l10n.t('{0} does not exist (it was removed meanwhile?); nothing was written', missing));
    const { bytes, value } = await edit(current);
    const changes = names.map((name, index) => ({ name, bytes: bytes[index], current: current[index] })).filter((change) => change.bytes !== undefined);
    // Each object still the one read, before any `.bak` is touched: a refusal leaves the store as it was.
    for (const change of changes) if (change.current) await refuseIfChanged(store, change.name, change.current);
    const written: string[] = [];
    const backups: string[] = [];
    for (const change of changes) {
      try {
        if (change.current) backups.push(await writeKeepingBackup(store, change.name, change.bytes!, change.current));
        else await store.write(change.name, change.bytes!, { ifVersion: null });
      } catch (error) {
        if (!written.length) throw error;
        // What was written already is named, whatever stopped the rest; the error keeps its kind.
        const message = l10n.t('{0}; {1} was written', error instanceof Error ? error.message : String(error), written.join(', '));
        throw error instanceof StoreConflict ? new StoreConflict(message) : error instanceof StoreError ? new StoreError(message) : new Error(message, { cause: error });
      }
      written.push(change.name);
    }
    return { value, written, backups };
  };
  const stacks = names.map((name) => lockedStack(name, options)).filter((stack) => stack !== undefined);
  return stacks.length ? withStackLocks(store, stacks, options.identity, options, run) : run();
}

/** Refused (a StoreConflict) when the object is no longer the version read; reads one byte where the store can. */
async function refuseIfChanged(store: WritableBackendStore, name: string, current: StoredObject): Promise<void> {
  const now = await readIfPresent(store, name, { length: 1 });
  if (now?.version !== current.version) throw new StoreConflict(l10n.t('{0} changed since it was read (another writer); nothing was written', name));
}

/**
 * Replaces the object `name` with `bytes`, keeping `current` (what was read, and its version) as
 * `<name>.bak` first; answers the `.bak`'s name. The object is still checked to be that version before
 * the `.bak` is written, so a refused write leaves the `.bak` as it was; a writer that comes between the
 * `.bak` and the write still gets the write refused, and the message says what the `.bak` holds.
 */
async function writeKeepingBackup(store: WritableBackendStore, name: string, bytes: Uint8Array, current: StoredObject): Promise<string> {
  await refuseIfChanged(store, name, current);
  const backup = `${name}.bak`;
  await store.write(backup, current.bytes);
  try {
    await store.write(name, bytes, { ifVersion: current.version });
  } catch (error) {
    // Another writer's lock held past the wait: the store's own words name it, and the object is as it was.
    if (!(error instanceof StoreConflict) || error instanceof StoreBusy) throw error;
    throw new StoreConflict(l10n.t('{0} changed since it was read (another writer); it was not written, and {1} now holds the state read before the change', name, backup));
  }
  return backup;
}
