/** shared/folderLock.ts's lock folder through `vscode.workspace.fs`: the editor's side of the one write lock. */
import * as vscode from 'vscode';
import type { LockFolderIo } from '../shared/folderLock';

export function folderLockIo(folder: vscode.Uri): LockFolderIo {
  const fs = vscode.workspace.fs;
  const child = (name: string) => vscode.Uri.joinPath(folder, name);
  return {
    mtime: async () => {
      try {
        return (await fs.stat(folder)).mtime;
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
        throw error;
      }
    },
    create: async () => fs.createDirectory(folder),
    writeOwner: async (name, content) => fs.writeFile(child(name), content),
    list: async () => (await fs.readDirectory(folder)).map(([name]) => name),
    removeOwner: async (name) => fs.delete(child(name)),
    remove: async (recursive) => fs.delete(folder, { recursive, useTrash: false }),
  };
}
