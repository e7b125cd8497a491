/**
 * The file-system side of looking for an app.ini's quota file, shared by the language server and
 * the CLI: a folder or file that cannot be read is "not there", never an error, because the lookup
 * only decides whether group names can be checked at all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { LookupIo } from '../ini';

/** `readFile` may answer from elsewhere first (an open editor's unsaved text); it may throw. */
export function diskLookupIo(readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): LookupIo {
  return {
    path: { basename, dirname, isAbsolute, resolve },
    readDir: (folder) => {
      try {
        return readdirSync(folder);
      } catch {
        return undefined;
      }
    },
    readFile: (path) => {
      try {
        return readFile(path);
      } catch {
        return undefined;
      }
    },
  };
}
