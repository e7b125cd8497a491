/**
 * A `file://` DIY backend as a store (shared/state/backend/store.ts): its folder walked for object
 * names, files read within the shared size limit. Symbolic links are followed as gocloud's fileblob
 * follows them; a folder that cannot be listed is empty, as a missing prefix is in a bucket.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { StoreError, type BackendStore, type StoreObject } from '../shared/state';
import { readRegularBytes } from './files';

export function fileBackendStore(root: string, url: string): BackendStore {
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
