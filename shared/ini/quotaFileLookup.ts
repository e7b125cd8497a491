/**
 * Finds the quota file an `app.ini` is checked against: the one named in a setting, else the
 * nearest `quota.jsonc` / `*.quota.json[c]` in the app.ini's folder or a folder above it.
 * File access and path rules are injected, so the language server can prefer an open editor's
 * unsaved text, and the browser's server, which has no `node:path`, looks up URI paths.
 */
import { createQuotaService } from '../quota';
import type { GroupSource } from './appIni';

const { analyze: analyzeQuotaConfig } = createQuotaService();

/** The path rules of the file system looked in: the platform's on disk, POSIX for URI paths. */
interface LookupPaths {
  dirname(path: string): string;
  basename(path: string): string;
  isAbsolute(path: string): boolean;
  resolve(...paths: string[]): string;
}

export interface LookupIo {
  path: LookupPaths;
  /** Names in a folder, or undefined when it cannot be read. */
  readDir(folder: string): string[] | undefined;
  /** A file's text, or undefined when it cannot be read. */
  readFile(path: string): string | undefined;
}

const QUOTA_FILE = /^(?:quota\.jsonc|.+\.quota\.jsonc?)$/;

function findNearestQuotaFile(iniPath: string, io: LookupIo, stopAt?: string): string | undefined {
  const { dirname, resolve } = io.path;
  let folder = dirname(iniPath);
  for (;;) {
    const names = (io.readDir(folder) ?? []).filter((name) => QUOTA_FILE.test(name)).sort();
    // A plain quota.jsonc is the folder's main file; otherwise the first in name order.
    const pick = names.includes('quota.jsonc') ? 'quota.jsonc' : names[0];
    if (pick) return resolve(folder, pick);
    const parent = dirname(folder);
    if (parent === folder || (stopAt && resolve(folder) === resolve(stopAt))) return undefined;
    folder = parent;
  }
}

/** The groups of the configured or nearest quota file, as a group source; undefined when there is none. */
export function quotaFileGroups(iniPath: string, io: LookupIo, configured?: string, stopAt?: string): GroupSource | undefined {
  const { basename, dirname, isAbsolute, resolve } = io.path;
  const path = configured ? (isAbsolute(configured) ? configured : resolve(dirname(iniPath), configured)) : findNearestQuotaFile(iniPath, io, stopAt);
  if (!path) return undefined;
  const text = io.readFile(path);
  if (text === undefined) return undefined;
  const names = analyzeQuotaConfig(text).model.groups.map((group) => group.name);
  return { label: basename(path), names };
}
