/**
 * A DIY backend folder as the backend model's store (shared/backend/store.ts), read and
 * written through `vscode.workspace.fs`: the same on disk, on a remote workspace and in the
 * browser. Listing walks the folder under a prefix; a folder that cannot be listed is empty, as a
 * missing prefix is in a bucket. A write goes to a temporary file renamed over the target; a
 * conditional one holds the target's `<file>.lock` (shared/folderLock.ts, the lock `quota-state`
 * takes too) and compares the file's mtime and size just before the rename.
 */
import * as vscode from 'vscode';
import { StoreBusy, StoreConflict, StoreError, StoreMissing, type StoreObject, type WritableBackendStore } from '../../shared/backend/vocabulary';
import { writeLockPath } from '../../shared/writeLock';
import { acquireFolderLock } from '../../shared/folderLock';
import { folderLockIo } from '../workspaceLock';
import { bucketStore } from './bucketAccess';
import { bucketPartsOf } from './bucketFileSystem';
import { isRemoteUri } from './remoteUris';

const notFound = (error: unknown) => error instanceof vscode.FileSystemError && error.code === 'FileNotFound';

async function walk(folder: vscode.Uri, name: string, into: StoreObject[]): Promise<void> {
  let entries: Array<[string, vscode.FileType]>;
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return;
  }
  await Promise.all(
    entries.map(async ([entry, type]) => {
      const uri = vscode.Uri.joinPath(folder, entry);
      if (type & vscode.FileType.Directory) return walk(uri, `${name}${entry}/`, into);
      if (!(type & vscode.FileType.File)) return;
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        into.push({ name: `${name}${entry}`, size: stat.size, modifiedMs: stat.mtime });
      } catch {
        // removed meanwhile
      }
    }),
  );
}

const parentOf = (uri: vscode.Uri) => uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf('/')) });

/** The bytes to a temporary name beside the target, then renamed over it: readers never see half a file. */
async function replaceFile(target: vscode.Uri, bytes: Uint8Array, check?: () => Promise<void>): Promise<void> {
  const fs = vscode.workspace.fs;
  await fs.createDirectory(parentOf(target));
  const temporary = target.with({ path: `${parentOf(target).path}/.${target.path.slice(target.path.lastIndexOf('/') + 1)}.quota-state.tmp` });
  await fs.writeFile(temporary, bytes);
  try {
    await check?.();
    await fs.rename(temporary, target, { overwrite: true });
  } catch (error) {
    await fs.delete(temporary).then(undefined, () => undefined);
    throw error;
  }
}

export function workspaceBackendStore(root: vscode.Uri): WritableBackendStore {
  // A bucket is read and written by the S3 store itself, not object by object through the file system API.
  if (isRemoteUri(root)) return bucketStore(bucketPartsOf(root).url);
  const fs = vscode.workspace.fs;
  const uriOf = (name: string) => vscode.Uri.joinPath(root, ...name.split('/'));
  const failure = (name: string, error: unknown) =>
    notFound(error) ? new StoreMissing(vscode.l10n.t('{0}: no such object', name)) : new StoreError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  const version = async (name: string) => {
    try {
      const stat = await fs.stat(uriOf(name));
      return `${stat.mtime}:${stat.size}`;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw failure(name, error);
    }
  };
  const replace = (name: string, bytes: Uint8Array, check?: () => Promise<void>) => replaceFile(uriOf(name), bytes, check);
  return {
    url: root.toString(),
    async listPage(prefix) {
      const objects: StoreObject[] = [];
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      await walk(uriOf(folder), folder, objects);
      return { objects: objects.filter((o) => o.name.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
    },
    async read(name) {
      // The version before and after the read: equal, they are the version of the bytes read.
      for (let attempt = 0; ; attempt++) {
        const before = await version(name);
        if (before === undefined) throw new StoreMissing(vscode.l10n.t('{0}: no such object', name));
        let bytes: Uint8Array;
        try {
          bytes = await fs.readFile(uriOf(name));
        } catch (error) {
          throw failure(name, error);
        }
        if ((await version(name)) === before || attempt === 2) return { bytes, version: before };
      }
    },
    async write(name, bytes, options = {}) {
      const expected = options.ifVersion;
      if (expected === undefined) return replace(name, bytes);
      if (expected === null) {
        // A new object (a lock file): refused when the name is taken. No `<file>.lock` folder here: it
        // would sit in Pulumi's lock folder, which Pulumi lists whole.
        if ((await version(name)) !== undefined) throw new StoreConflict(vscode.l10n.t('{0} already exists', name));
        return replace(name, bytes);
      }
      const target = uriOf(name);
      const lockUri = target.with({ path: writeLockPath(target.path) });
      const lock = await acquireFolderLock(folderLockIo(lockUri));
      if (!lock) throw new StoreBusy(vscode.l10n.t('{0} is being written by another program: its lock {1} was not released within 5 seconds; nothing was written', name, lockUri.path));
      try {
        await replace(name, bytes, async () => {
          if ((await version(name)) !== expected) throw new StoreConflict(vscode.l10n.t('{0} changed since it was read (another program wrote it); nothing was written', name));
        });
      } finally {
        await lock.release();
      }
    },
    async delete(name) {
      try {
        await fs.delete(uriOf(name), { useTrash: false });
      } catch (error) {
        if (!notFound(error)) throw failure(name, error);
      }
    },
  };
}
