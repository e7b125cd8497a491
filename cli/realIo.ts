/** The file system behind `quota-state`: the command's process and its check workers read alike. */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readRegularBytes, readRegularFile } from './files';
import type { CliIO } from './io';
import { DEFAULT_STALE_LOCK_AGE, judgeLock, parseStaleLockAge } from '../shared/backend';
import { pidAlive } from './lockedWrite';

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Writes a sibling temporary file, flushes it, then renames it over the original: a rename within
 * a folder is atomic, so an interrupted run leaves either the old or the new state file, never half
 * of one. The original's permissions carry over. `beforeReplace` runs just before the rename (the
 * check that the file did not change since it was read); if it throws, nothing is replaced.
 */
function writeFileAtomic(path: string, text: string, beforeReplace?: () => void): void {
  const temporary = writeTemporarySibling(path, 'quota-state.tmp', text, statSync(path).mode & 0o7777);
  try {
    beforeReplace?.();
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
}

/** `.<name>.<pid>.quota-state.tmp` (and `.quota-state.bak.tmp`): what writeTemporarySibling leaves when its writer is killed. */
const TEMPORARY = /^\.(.+)\.(\d+)\.quota-state(?:\.bak)?\.tmp$/;

/**
 * Removes the temporaries a killed write of `path` left beside it (`.<name>.<pid>.quota-state.tmp`),
 * once their writer is gone by the stale-lock rule: its pid does not run on this machine, or the file
 * is older than `staleAfterMs`. A writer still running keeps its file. Answers the paths removed.
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
    const match = TEMPORARY.exec(name);
    if (!match || match[1] !== basename(path) || Number(match[2]) === process.pid) continue;
    const temporary = join(folder, name);
    try {
      const stats = statSync(temporary);
      if (!stats.isFile()) continue;
      const verdict = judgeLock({ pid: Number(match[2]), hostname: hostname(), timestamp: stats.mtime.toISOString() }, { now: Date.now(), hostname: hostname(), pidAlive, staleAfterMs });
      if (!verdict.stale) continue;
      rmSync(temporary, { force: true });
      removed.push(temporary);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Writes `content` to `.<name>.<pid>.<suffix>` beside `path`, flushed, with `mode`; returns its path (removed again on failure). */
export function writeTemporarySibling(path: string, suffix: string, content: string | Uint8Array, mode: number): string {
  removeStaleTemporaries(path);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${suffix}`);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  return temporary;
}

export function realIo(cwd: string): CliIO {
  return {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    readFile: (path) => readRegularFile(path),
    readBytes: (path) => readRegularBytes(path),
    readIfExists,
    writeFileAtomic,
    cwd,
  };
}
