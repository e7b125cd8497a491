/**
 * A `file://` DIY backend as a store (shared/backend/store.ts): its folder walked for object
 * names, files read within the shared size limit. It follows gocloud's fileblob at the version Pulumi
 * v3.274.1 pins: the walk (filepath.WalkDir there) never follows a folder that is a symbolic link,
 * and a prefix whose folder is a link lists nothing; a link to a file is listed as the link (its own
 * size and time), and read only when its real path is inside the backend. Stricter than fileblob,
 * a folder on an object's way that is a link is never followed either (fileblob leaves that to the
 * kernel): nothing outside the backend is read, written, locked or removed through the store. Every
 * listing walks at most `maxListedEntries` entries (a million by default) and fails past it, naming
 * the folder and the limit. A folder that cannot be listed is empty, as a missing prefix is in a bucket.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { objectUrl, StoreBusy, StoreConflict, StoreError, StoreMissing, type StoreObject, type WritableBackendStore } from '../backend/vocabulary';
import { acquireFolderLock } from '../folderLock';
import { writeLockPath } from '../writeLock';
import { nodeFolderLockIo } from './folderLockIo';
import { fileVersionOf, readRegularVersion } from './regularFiles';

/** How many entries (files, folders, links) one listing walks at most. */
const MAX_LISTED_ENTRIES = 1_000_000;

export interface FileStoreOptions {
  maxListedEntries?: number;
}

/**
 * How an object's final name may be a symbolic link: `read`, when its real path is inside the
 * backend; `replace`, always (a write, rename or removal acts on the link itself, inside the
 * backend); `edit`, never (a file edited in place under its own lock and Pulumi's: through a link it
 * would be another file, under another stack's lock or none).
 */
export type LinkRule = 'read' | 'replace' | 'edit';

/**
 * The native path of the object `name` of the backend at `root`, checked: a folder on its way that
 * is a symbolic link, or a final link the rule refuses, is a StoreError naming the object. A part
 * that does not exist ends the check (nothing past it can be a link yet).
 */
export function objectPath(root: string, url: string, name: string, rule: LinkRule): string {
  const parts = name.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) throw new StoreError(`${objectUrl(url, name)}: not an object name`);
  let path = root;
  for (const [index, part] of parts.entries()) {
    path = join(path, part);
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return join(root, ...parts);
    }
    if (!stats.isSymbolicLink()) continue;
    const target = linkTarget(path);
    const last = index === parts.length - 1;
    if (!last) {
      throw new StoreError(
        `${objectUrl(url, name)}: its folder ${parts.slice(0, index + 1).join('/')} is a symbolic link (to ${target}); ` +
          'quota-state does not follow a linked folder in a file:// backend, as Pulumi does not',
      );
    }
    if (rule === 'replace') return path;
    if (rule === 'edit') {
      throw new StoreError(`${objectUrl(url, name)} is a symbolic link (to ${target}); quota-state edits a stack file in place only, never through a link: nothing was written`);
    }
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return path; // a dangling link: reading it fails, naming it
    }
    const realRoot = realpathSync(root);
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
      throw new StoreError(`${objectUrl(url, name)} is a symbolic link to ${real}, outside the backend; quota-state reads and writes nothing outside it`);
    }
    return path;
  }
  return path;
}

function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '?';
  }
}

export function fileBackendStore(root: string, url: string, options: FileStoreOptions = {}): WritableBackendStore {
  const maxEntries = options.maxListedEntries ?? MAX_LISTED_ENTRIES;
  const pathOf = (name: string, rule: LinkRule = 'replace') => objectPath(root, url, name, rule);
  const failure = (name: string, error: unknown) => {
    if (error instanceof StoreError) return error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new StoreMissing(`${objectUrl(url, name)}: no such object`);
    return new StoreError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  };
  const versionOf = (name: string): string | undefined => {
    try {
      return fileVersionOf(statSync(pathOf(name, 'read'), { bigint: true }));
    } catch (error) {
      const failed = failure(name, error);
      if (failed instanceof StoreMissing) return undefined;
      throw failed;
    }
  };
  return {
    url,
    async listPage(prefix) {
      const objects: StoreObject[] = [];
      // The prefix's folder part is walked; the rest filters names (as a bucket's prefix does).
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      const start = folderPath(root, folder);
      if (start === undefined) return { objects };
      const budget = {
        left: maxEntries,
        exceeded: () => new StoreError(`listing ${objectUrl(url, folder)}: more than ${maxEntries} entries under it; quota-state walks at most ${maxEntries} in one listing`),
      };
      walk(start, folder, prefix, objects, budget);
      // One page: the walk is bounded by the entry budget instead.
      return { objects: objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
    },
    async read(name, options) {
      try {
        return readRegularVersion(pathOf(name, 'read'), { length: options?.length });
      } catch (error) {
        throw failure(name, error);
      }
    },
    async write(name, bytes, options = {}) {
      const path = pathOf(name);
      if (options.ifVersion === undefined || options.ifVersion === null) return writeObject(path, name, bytes, options.ifVersion);
      const expected = options.ifVersion;
      // The check and the rename under the file's write lock, which the editor's save takes too.
      const lock = await acquireFolderLock(nodeFolderLockIo(writeLockPath(path)), { holder: 'quota-state' });
      if (!lock) throw new StoreBusy(`${objectUrl(url, name)} is being written by another program: its lock ${writeLockPath(path)} was not released within 5 seconds; nothing was written`);
      try {
        writeObject(path, name, bytes, undefined, () => {
          if (versionOf(name) !== expected) throw new StoreConflict(`${name} changed since it was read (another program wrote it); nothing was written`);
        });
      } finally {
        await lock.release();
      }
    },
    async delete(name) {
      rmSync(pathOf(name), { force: true });
    },
  };
}

/** The permission bits of the file at `path`, or the default for a new file. */
function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o666;
  }
}

/** Writes an object whole: a new one (`ifVersion: null`) by an exclusive create, else a temporary file renamed over it (after `check`). */
function writeObject(path: string, name: string, bytes: Uint8Array, ifVersion: null | undefined, check?: () => void): void {
  mkdirSync(dirname(path), { recursive: true });
  if (ifVersion === null) {
    // A new object (a lock file): an exclusive create, as Pulumi's lock is taken.
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (error) {
      throw new StoreConflict(`${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const temporary = `${path}.${randomUUID()}.quota-state.tmp`;
  // The replacement keeps the file's permissions from its first byte (a state file may be private).
  writeFileSync(temporary, bytes, { mode: modeOf(path) });
  try {
    check?.();
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The native path of a listing's folder (`/`-terminated, relative to the root), or undefined when
 * it is not there to walk: missing, not a folder, or a symbolic link at any part (fileblob's WalkDir
 * of a linked folder lists nothing).
 */
function folderPath(root: string, folder: string): string | undefined {
  let path = root;
  for (const part of folder.split('/').filter(Boolean)) {
    if (part === '.' || part === '..') return undefined;
    path = join(path, part);
    try {
      if (!lstatSync(path).isDirectory()) return undefined;
    } catch {
      return undefined;
    }
  }
  return path;
}

/**
 * The objects under `path` (the folder `name`) whose names start with `prefix`, as fileblob's
 * WalkDir finds them: folders that cannot lead to the prefix are skipped, a folder that is a link
 * is not entered, a link is listed as itself. Every entry met costs one of the budget.
 */
function walk(path: string, name: string, prefix: string, into: StoreObject[], budget: { left: number; exceeded: () => Error }): void {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return;
  }
  if (entries.length > budget.left) throw budget.exceeded();
  budget.left -= entries.length;
  for (const entry of entries) {
    const key = `${name}${entry.name}`;
    const full = path + sep + entry.name;
    if (entry.isDirectory()) {
      const folder = `${key}/`;
      if (folder.length > prefix.length ? folder.startsWith(prefix) : prefix.startsWith(folder)) walk(full, folder, prefix, into, budget);
      continue;
    }
    if (!key.startsWith(prefix) || !(entry.isFile() || entry.isSymbolicLink())) continue;
    try {
      const stats = lstatSync(full);
      into.push({ name: key, size: stats.size, modifiedMs: stats.mtimeMs });
    } catch {
      // removed meanwhile
    }
  }
}
