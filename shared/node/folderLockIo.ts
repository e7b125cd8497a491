/** The `<file>.lock` folder of shared/folderLock.ts over Node's fs: what the CLI's and the server's folder stores take. */
import { mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LockFolderIo } from '../folderLock';

export function nodeFolderLockIo(folder: string): LockFolderIo {
  return {
    mtime: async () => {
      try {
        return (await stat(folder)).mtimeMs;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    create: async () => {
      await mkdir(folder, { recursive: true });
    },
    writeOwner: (name, content) => writeFile(join(folder, name), content),
    list: () => readdir(folder),
    removeOwner: (name) => rm(join(folder, name), { force: true }),
    remove: (recursive) => (recursive ? rm(folder, { recursive: true, force: true }) : rmdir(folder)),
  };
}
