/** The file system behind `quota-state`: the command's process and its check workers read alike. */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readRegularBytes, readRegularFile } from './files';
import type { CliIO } from './io';
import { DEFAULT_STALE_LOCK_AGE, judgeLock, parseStaleLockAge } from '../shared/backend';
import { pidAlive } from '../shared/node/lockIdentity';

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** `.<name>.<pid>.quota-state.tmp` (and `.quota-state.bak.tmp`): what a killed write of an earlier quota-state left. */
const TEMPORARY = /^\.(.+)\.(\d+)\.quota-state(?:\.bak)?\.tmp$/;
/** `<name>.<uuid>.quota-state.tmp`: what a killed write of the folder store (shared/node/fileStore.ts) leaves; no pid says whose. */
const STORE_TEMPORARY = /^(.+)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.quota-state\.tmp$/;

/** Whose temporary `name` is: the file it was written for, and its writer's pid when the name says it. */
function temporaryOf(name: string): { file: string; pid?: number } | undefined {
  const withPid = TEMPORARY.exec(name);
  if (withPid) return { file: withPid[1], pid: Number(withPid[2]) };
  const withUuid = STORE_TEMPORARY.exec(name);
  return withUuid ? { file: withUuid[1] } : undefined;
}

/**
 * Removes the temporaries a killed write of `path` left beside it, once their writer is gone by the
 * stale-lock rule: its pid does not run on this machine, or the file is older than `staleAfterMs` (a
 * temporary whose name holds no pid goes by its age only). A writer still running keeps its file.
 * Answers the paths removed.
 */
export function removeStaleTemporaries(path: string, staleAfterMs = parseStaleLockAge(DEFAULT_STALE_LOCK_AGE)!): string[] {
  const folder = dirname(path);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const temporary = temporaryOf(name);
    if (!temporary || temporary.file !== basename(path) || temporary.pid === process.pid) continue;
    const leftover = join(folder, name);
    try {
      const stats = statSync(leftover);
      if (!stats.isFile()) continue;
      const holder = { ...(temporary.pid === undefined ? {} : { pid: temporary.pid, hostname: hostname() }), timestamp: stats.mtime.toISOString() };
      const verdict = judgeLock(holder, { now: Date.now(), hostname: hostname(), pidAlive, staleAfterMs });
      if (!verdict.stale) continue;
      rmSync(leftover, { force: true });
      removed.push(leftover);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
  return removed;
}

export function realIo(cwd: string): CliIO {
  return {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    readFile: (path) => readRegularFile(path),
    readBytes: (path) => readRegularBytes(path),
    readIfExists,
    cwd,
  };
}
