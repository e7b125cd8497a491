/**
 * A DIY backend folder as the backend model's store (shared/state/backend/store.ts), read through
 * `vscode.workspace.fs`: the same on disk, on a remote workspace and in the browser. Listing walks
 * the folder under a prefix; a folder that cannot be listed is empty, as a missing prefix is in a
 * bucket.
 */
import * as vscode from 'vscode';
import { StoreError, type BackendStore, type StoreObject } from '../../shared/state/vocabulary';

export function workspaceBackendStore(root: vscode.Uri): BackendStore {
  const uriOf = (name: string) => vscode.Uri.joinPath(root, ...name.split('/'));
  const walk = async (folder: vscode.Uri, name: string, into: StoreObject[]): Promise<void> => {
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
  };
  return {
    url: root.toString(),
    async list(prefix) {
      const objects: StoreObject[] = [];
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      await walk(uriOf(folder), folder, objects);
      return objects.filter((o) => o.name.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async read(name) {
      try {
        return await vscode.workspace.fs.readFile(uriOf(name));
      } catch (error) {
        throw new StoreError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
