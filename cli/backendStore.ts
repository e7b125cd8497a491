/**
 * A `file://` DIY backend as a store (shared/state/backend/store.ts): its folder walked for object
 * names, files read within the shared size limit. Symbolic links are followed as gocloud's fileblob
 * follows them; a folder that cannot be listed is empty, as a missing prefix is in a bucket.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { StoreConflict, StoreError, type StoreObject, type WritableBackendStore } from '../shared/state';
import { readRegularBytes } from './files';

export function fileBackendStore(root: string, url: string): WritableBackendStore {
  const pathOf = (name: string) => join(root, ...name.split('/'));
  const versionOf = (name: string) => {
    try {
      const stats = statSync(pathOf(name), { bigint: true });
      return `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreError(`${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  };
  return {
    url,
    async list(prefix) {
      const objects: StoreObject[] = [];
      // The prefix's folder part is walked; the rest filters names (as a bucket's prefix does).
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      walk(join(root, ...folder.split('/').filter(Boolean)), folder, objects);
      return objects.filter((o) => o.name.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async read(name) {
      try {
        return readRegularBytes(join(root, ...name.split('/')));
      } catch (error) {
        throw new StoreError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async readStart(name, length) {
      let fd: number | undefined;
      try {
        fd = openSync(join(root, ...name.split('/')), 'r');
        const buffer = new Uint8Array(length);
        const read = readSync(fd, buffer, 0, length, 0);
        return buffer.subarray(0, read);
      } catch (error) {
        throw new StoreError(`${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    async version(name) {
      return versionOf(name);
    },
    async write(name, bytes, options = {}) {
      const path = pathOf(name);
      mkdirSync(dirname(path), { recursive: true });
      if (options.ifMatch === null) {
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
      writeFileSync(temporary, bytes);
      try {
        if (options.ifMatch !== undefined && versionOf(name) !== options.ifMatch) throw new StoreConflict(`${name} changed since it was read (another program wrote it); nothing was written`);
        renameSync(temporary, path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
    },
    async remove(name) {
      rmSync(pathOf(name), { force: true });
    },
    async move(from, to) {
      mkdirSync(dirname(pathOf(to)), { recursive: true });
      renameSync(pathOf(from), pathOf(to));
    },
  };
}

function walk(path: string, name: string, into: StoreObject[]): void {
  let entries: string[];
  try {
    entries = readdirSync(path);
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path + sep + entry;
    let stats;
    try {
      stats = statSync(full);
    } catch {
      continue; // a dangling link, or a file removed meanwhile
    }
    if (stats.isDirectory()) walk(full, `${name}${entry}/`, into);
    else if (stats.isFile()) into.push({ name: `${name}${entry}`, size: stats.size, modifiedMs: stats.mtimeMs });
  }
}
