/**
 * What the writing commands (`state …`, `fix`, `restore`) write, and the one way they write it. A
 * target is an object of a store: a FILE is a one-object store (its folder), or, when its real path
 * is a stack file of a DIY backend, that backend's folder store with the object `.pulumi/stacks/…`
 * (so that Pulumi's lock is taken); a STACK of `--backend` is the backend's store (a folder or a
 * bucket) and the stack file's object. Every write goes through shared/backend's one stack writer
 * (`withStackWrites`: Pulumi's lock, the versions read, FILE.bak, the write only if unchanged).
 *
 * Around it, what the CLI adds: a refusal because another writer came between the read and the write
 * (nothing written) is retried on the new content for a few seconds, as runs started together queue;
 * a write of several objects that another writer interrupts halfway is undone; messages name a file
 * as the user typed it, never the store's internal object name; and a file keeps its permissions.
 */
import { chmodSync, realpathSync, statSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import {
  createBackendService,
  lockFolderOf,
  objectUrl,
  readIfPresent,
  stackFileOf,
  StoreConflict,
  StoreError,
  StoreMissing,
  withStackWrites,
  type BackendStack,
  type StoredObject,
  type WritableBackendStore,
} from '../shared/backend';
import { fileBackendStore, objectPath } from '../shared/node/fileStore';
import { acquireFolderLock } from '../shared/folderLock';
import { nodeFolderLockIo } from '../shared/node/folderLockIo';
import { LOCK_WAIT_MS, STALE_LOCK_MS, writeLockPath } from '../shared/writeLock';
import { InputError } from './args';
import type { Opened } from './backendAccess';
import { MAX_FILE_BYTES } from './files';
import { displayPath } from './io';
import type { CliLockOptions } from './lockFlags';
import { removeStaleTemporaries } from './realIo';

const backends = createBackendService();

/** An object a command writes, and how messages name it. */
export interface StackTarget {
  store: WritableBackendStore;
  /** The object's name in the store (`.pulumi/stacks/app/dev.json`, or a plain file's own name). */
  name: string;
  /** How messages name it: the FILE as the user typed it (relative to the working folder), or the object's URL. */
  display: string;
  /** The file on this machine, when the store is a folder (its native path): for its permissions and leftovers. */
  path?: string;
  /** A folder store's root on this machine. */
  root?: string;
  /** How messages name another object of the store (the `.bak`). */
  displayOf(name: string): string;
}

/** The stacks among a command's operands, by the operand the command sees (runOnBackendStacks). */
export type NamedStacks = ReadonlyMap<string, StackTarget>;

/** One store per folder, so that the objects of one folder are written by one call of the writer. */
const folderStores = new Map<string, WritableBackendStore>();

function folderStore(root: string): WritableBackendStore {
  let store = folderStores.get(root);
  if (!store) {
    store = fileBackendStore(root, `file://${root.split(sep).join('/')}`);
    folderStores.set(root, store);
  }
  return store;
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
 * A FILE as a target (`path`, resolved; messages name it relative to `cwd`), by its real path (a
 * symbolic link and its target are one file). A stack file of a DIY backend is its backend's object,
 * written under Pulumi's lock; any other file is the one object of its folder. Refused as unreadable
 * input (exit 2) when missing, not a regular file or too large.
 */
export function fileTarget(path: string, cwd: string): StackTarget {
  const display = displayPath(cwd, path);
  const real = realPathOf(path, display);
  const stats = statSync(real);
  if (!stats.isFile()) throw new InputError(`${display} is not a regular file`);
  if (stats.size > MAX_FILE_BYTES) throw new InputError(`${display} is over the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit`);
  const stack = stackFileOf(real.split(sep).join('/'));
  const root = stack ? stack.root.split('/').join(sep) || sep : dirname(real);
  const name = stack ? ['.pulumi', 'stacks', ...(stack.project ? [stack.project] : []), basename(real)].join('/') : basename(real);
  // The `.bak` is beside the real file: named as FILE is when FILE is no link.
  const displayOf = (other: string) => (other === `${name}.bak` && real === path ? `${display}.bak` : displayPath(cwd, join(root, ...other.split('/'))));
  return { store: folderStore(root), name, display, path: real, root, displayOf };
}

/**
 * The path of a stack file of a folder backend, for a command that opens it as a file: refused
 * (exit 2, naming it) when a folder on its way is a symbolic link, or the file is one and the command
 * may write it, or it links outside the backend.
 */
export function stackFilePath(opened: Opened, name: string, writes: boolean): string {
  try {
    return objectPath(opened.root!, opened.backend.url, name, writes ? 'edit' : 'read');
  } catch (error) {
    if (error instanceof StoreError) throw new InputError(error.message);
    throw error;
  }
}

/**
 * A STACK of an opened backend as a target: its stack file in the backend's store. In a folder, the
 * file is edited in place only, never through a symbolic link (its lock would be another file's, or
 * none, and it may lead outside): such a file is refused before any lock is taken.
 */
export function backendTarget(opened: Opened, stack: BackendStack, cwd: string): StackTarget {
  if (!stack.file) throw new InputError(`the stack "${stack.ref}" in ${opened.backend.url} has no stack file`);
  const name = stack.file.name;
  if (!opened.root) return { store: opened.store, name, display: objectUrl(opened.backend.url, name), displayOf: (other) => objectUrl(opened.backend.url, other) };
  const root = opened.root;
  const path = stackFilePath(opened, name, true);
  return { store: opened.store, name, display: displayPath(cwd, path), path, root, displayOf: (other) => displayPath(cwd, join(root, ...other.split('/'))) };
}

/** The stack whose Pulumi lock guards an object, by its name (as the writer finds it). */
function stackOf(name: string): Pick<BackendStack, 'project' | 'name'> | undefined {
  const stack = stackFileOf(name);
  return stack && stack.root === '' ? { project: stack.project, name: stack.name } : undefined;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message of the store or the writer, naming the targets as the user knows them: a folder's object
 * by its path (a FILE as typed), never by the store's internal name. A bucket's objects keep the
 * names the store gives them.
 */
function sayTargets(message: string, targets: readonly StackTarget[]): string {
  let said = message;
  for (const target of targets) {
    if (target.root === undefined) continue;
    said = said.split(objectUrl(target.store.url, target.name)).join(target.display);
    said = said.replace(new RegExp(`(^|[\\s(,'"])${escaped(target.name)}(?=\\.bak\\b|[\\s:;,)'"]|$)`, 'g'), (_match, before: string) => `${before}${target.display}`);
  }
  for (const target of targets) if (target.root !== undefined) said = said.split(`${target.store.url}/`).join(target.root.endsWith(sep) ? target.root : target.root + sep);
  return said;
}

/** A store error as the command reports it: a refusal (exit 1) stays one; a missing or unreadable object is unreadable input (exit 2). */
function targetError(error: unknown, targets: readonly StackTarget[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = sayTargets(error.message, targets);
  if (error instanceof StoreMissing || (error instanceof StoreError && !(error instanceof StoreConflict))) return new InputError(message);
  error.message = message;
  return error;
}

/** The targets' current bytes (a dry run's: no lock is taken). */
export async function readTargets(targets: readonly StackTarget[]): Promise<StoredObject[]> {
  try {
    return await Promise.all(targets.map((target) => target.store.read(target.name)));
  } catch (error) {
    throw targetError(error, targets);
  }
}

/**
 * A dry run's look at Pulumi's locks: a locked stack is refused, naming each holder, and no lock is
 * taken or removed (with --break-lock, a warning says so).
 */
export async function refuseIfTargetsLocked(targets: readonly StackTarget[], options: CliLockOptions): Promise<void> {
  for (const target of targets) {
    const stack = stackOf(target.name);
    if (!stack) continue;
    if (options.breakLock) options.warn(`--dry-run: no lock is removed or taken in ${target.displayOf(lockFolderOf(target.name)!.replace(/^\//, ''))}`);
    else await backends.refuseIfLocked(target.store, stack, { ...options, breakLock: false }).catch((error: unknown) => Promise.reject(targetError(error, targets)));
  }
}

/** What an edit of the targets answers: each target's new bytes (none: it is not written) and what the command gets back. */
export interface TargetEdit<T> {
  bytes: Array<Uint8Array | undefined>;
  value: T;
}

export interface TargetWriteOutcome<T> {
  value: T;
  /** For each target written, the `.bak` that keeps what it replaced, as messages name it. */
  backups: Array<string | undefined>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The refusals of a write of several objects whose objects written were all restored: nothing of it is left. */
const undone = new WeakSet<Error>();

/**
 * Two writers racing for a file's write lock: one removes the `<file>.lock` folder as the other makes
 * it or writes its owner file in it (shared/node/folderLockIo.ts lets that ENOENT through); the file
 * was not written.
 */
const lockRace = (error: unknown): boolean => {
  const { code, path, cause } = (error ?? {}) as NodeJS.ErrnoException;
  return (code === 'ENOENT' && typeof path === 'string' && /\.lock([\\/]|$)/.test(path)) || (cause !== undefined && lockRace(cause));
};

/** Whether a refusal may be retried: another writer changed an object between the read and the write, and nothing of ours is left written. */
const retryable = (error: unknown) =>
  lockRace(error) || undone.has(error as Error) || (error instanceof StoreConflict && /changed since it was read/.test(error.message) && !/; (?!nothing )[^;]+ was written$/.test(error.message));

/**
 * Runs `edit` on the targets' current content and writes what it answers, every object through the
 * one stack writer: the targets of one store in one `withStackWrites` (Pulumi's locks in a fixed
 * order; each object checked before any is written; written in the targets' order), several stores
 * one inside the other (the first target's written first). A refusal because another writer came
 * between the read and the write is retried on the new content until LOCK_WAIT_MS have passed, as
 * runs started together queue; then it is the refusal.
 */
export async function withTargetWrites<T>(
  targets: readonly StackTarget[],
  options: CliLockOptions,
  edit: (current: StoredObject[]) => Promise<TargetEdit<T>> | TargetEdit<T>,
): Promise<TargetWriteOutcome<T>> {
  const modes = targets.map((target) => (target.path ? statSync(target.path).mode & 0o7777 : undefined));
  for (const target of targets) if (target.path) removeStaleTemporaries(target.path);
  return withEditLocks(targets, async () => {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const outcome = await writeOnce(targets, options, edit);
        keepModes(targets, modes, outcome.backups);
        return { value: outcome.value, backups: outcome.backups.map((backup, index) => (backup ? targets[index].displayOf(backup) : undefined)) };
      } catch (error) {
        if (!retryable(error) || Date.now() >= deadline) throw targetError(error, targets);
        await sleep(20 + Math.floor(Math.random() * 80));
      }
    }
  });
}

/**
 * A command that writes several files that are no DIY stacks (a `move` between two plain state files)
 * holds quota-state's own lock of each from its read to its last write: `<file>.quota-state.lock`
 * (shared/folderLock.ts's convention, kept fresh while held), taken in one fixed order. Pulumi's lock
 * does that for stacks; without it, two moves started together could each build on the other's half
 * write. A single file needs none: its write is refused when the file changed since it was read.
 */
async function withEditLocks<T>(targets: readonly StackTarget[], body: () => Promise<T>): Promise<T> {
  const plain = new Map(targets.filter((target) => target.path && !stackOf(target.name)).map((target) => [target.path!, target.display]));
  if (targets.length < 2 || plain.size === 0) return body();
  const held: Array<{ folder: string; release: () => Promise<void> }> = [];
  const keepFresh = setInterval(() => {
    const now = new Date();
    for (const { folder } of held) utimes(folder, now, now).catch(() => undefined);
  }, STALE_LOCK_MS / 4);
  keepFresh.unref();
  try {
    for (const path of [...plain.keys()].sort()) {
      const folder = `${path}.quota-state.lock`;
      const lock = await acquireFolderLock(nodeFolderLockIo(folder), { holder: 'quota-state' });
      if (!lock) throw new StoreConflict(`${plain.get(path)} is being edited by another quota-state: its lock ${folder} was not released within ${LOCK_WAIT_MS / 1000} seconds; nothing was written`);
      held.push({ folder, release: () => lock.release() });
    }
    return await body();
  } finally {
    clearInterval(keepFresh);
    for (const { release } of held.reverse()) await release();
  }
}

/** A file written keeps its permissions, and its `.bak` gets them too (the store writes new files with the default mode). */
function keepModes(targets: readonly StackTarget[], modes: Array<number | undefined>, backups: Array<string | undefined>): void {
  targets.forEach((target, index) => {
    const mode = modes[index];
    if (!target.path || mode === undefined || !backups[index]) return;
    for (const path of [target.path, join(target.root!, ...backups[index].split('/'))]) {
      try {
        if ((statSync(path).mode & 0o7777) !== mode) chmodSync(path, mode);
      } catch {
        // replaced meanwhile by another writer: its mode is its own
      }
    }
  });
}

/** One attempt: every lock, every read, the edit, the writes; a write another writer interrupts halfway is undone. */
async function writeOnce<T>(
  targets: readonly StackTarget[],
  options: CliLockOptions,
  edit: (current: StoredObject[]) => Promise<TargetEdit<T>> | TargetEdit<T>,
): Promise<{ value: T; backups: Array<string | undefined> }> {
  const stores = [...new Set(targets.map((target) => target.store))];
  const groups = stores.map((store) => targets.flatMap((target, index) => (target.store === store ? [index] : [])));
  const read: StoredObject[] = [];
  const next: Array<Uint8Array | undefined> = [];
  const backups: Array<string | undefined> = targets.map(() => undefined);
  let value: T | undefined;
  // Group 0 (the first target's) innermost: all is read before the edit, and it is written first.
  const write = async (level: number): Promise<void> => {
    const group = groups[level];
    const outcome = await withStackWrites(
      stores[level],
      group.map((index) => targets[index].name),
      options,
      async (current) => {
        group.forEach((index, at) => (read[index] = current[at]!));
        if (level > 0) await write(level - 1);
        else {
          const edited = await edit(read);
          value = edited.value;
          edited.bytes.forEach((bytes, index) => (next[index] = bytes));
          // The other stores' objects still the ones read, before anything is written.
          for (const other of groups.slice(1).flat()) if (next[other]) await refuseIfChanged(targets[other], read[other]);
        }
        return { bytes: group.map((index) => next[index]), value: undefined };
      },
    );
    group.forEach((index) => {
      if (outcome.written.includes(targets[index].name)) backups[index] = `${targets[index].name}.bak`;
    });
  };
  try {
    await write(groups.length - 1);
  } catch (error) {
    if (targets.length > 1 && read.length) throw await undoPartialWrite(targets, read, next, options, error);
    throw await lockHeld(targets[0], read[0], error);
  }
  return { value: value as T, backups };
}

/**
 * A refused write of a file that did not change: it was the file's write lock, which another program
 * held past the wait (the writer says "changed since it was read" of any refused write); said so.
 */
async function lockHeld(target: StackTarget, read: StoredObject | undefined, error: unknown): Promise<unknown> {
  if (!(error instanceof StoreConflict) || !target.path || !read) return error;
  const now = await readIfPresent(target.store, target.name, { length: 1 }).catch(() => undefined);
  if (now?.version !== read.version) return error;
  return new StoreConflict(`${target.name} is being written by another program: its lock ${writeLockPath(target.path)} was not released within ${LOCK_WAIT_MS / 1000} seconds; it was not written`);
}

async function refuseIfChanged(target: StackTarget, read: StoredObject): Promise<void> {
  const now = await readIfPresent(target.store, target.name, { length: 1 });
  if (now?.version !== read.version) throw new StoreConflict(`${target.name} changed since it was read (another writer); nothing was written`);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);

/**
 * After a write of several objects failed: each object that holds what this command wrote gets back
 * what it held before (only if it is still what was written, under its stack's lock), so that no
 * change is left half made. The error then says which were restored, or which could not be.
 */
async function undoPartialWrite(targets: readonly StackTarget[], read: StoredObject[], next: Array<Uint8Array | undefined>, options: CliLockOptions, error: unknown): Promise<unknown> {
  const restored: string[] = [];
  const failed: string[] = [];
  for (const [index, target] of targets.entries()) {
    const bytes = next[index];
    if (!bytes || !read[index] || sameBytes(bytes, read[index].bytes)) continue;
    const undo = async () => {
      const now = await readIfPresent(target.store, target.name);
      if (!now || !sameBytes(now.bytes, bytes)) return;
      await target.store.write(target.name, read[index].bytes, { ifVersion: now.version });
      restored.push(target.name);
    };
    const stack = stackOf(target.name);
    try {
      await (stack ? backends.withStackLock(target.store, stack, options.identity, { ...options, breakLock: false }, undo) : undo());
    } catch (undoError) {
      failed.push(`${target.name} (${undoError instanceof Error ? undoError.message : String(undoError)})`);
    }
  }
  if (!(error instanceof Error) || (!restored.length && !failed.length)) return error;
  const said = [error.message, ...(restored.length ? [`${restored.join(', ')} was restored`] : []), ...(failed.length ? [`${failed.join(', ')} could not be restored`] : [])].join('; ');
  const raced = error instanceof StoreConflict || lockRace(error);
  const reported = raced ? new StoreConflict(said) : new StoreError(said);
  if (raced && !failed.length) undone.add(reported);
  return reported;
}

/**
 * A write of a file that is no stack and keeps no `.bak` (`fix` of a quota file): read with its
 * version, edited, and written only if still that version, through the same store; retried as
 * withTargetWrites retries.
 */
export async function withTargetRewrite<T>(target: StackTarget, edit: (current: StoredObject) => Promise<TargetEdit<T>> | TargetEdit<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const mode = target.path ? statSync(target.path).mode & 0o7777 : undefined;
  for (;;) {
    try {
      const current = await target.store.read(target.name);
      const { bytes, value } = await edit(current);
      if (bytes?.[0]) {
        await target.store.write(target.name, bytes[0], { ifVersion: current.version });
        if (target.path && mode !== undefined && (statSync(target.path).mode & 0o7777) !== mode) chmodSync(target.path, mode);
      }
      return value;
    } catch (error) {
      if (!retryable(error) || Date.now() >= deadline) throw targetError(error, [target]);
      await sleep(20 + Math.floor(Math.random() * 80));
    }
  }
}
