/** Expands the file arguments of `quota-state check`: plain paths, or globs walked from their fixed prefix. */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { compileGlob } from '../../shared/glob';
import { UsageError } from './args';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

function hasGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

function walk(folder: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) walk(path, out);
    } else if (entry.isFile()) out.push(path);
  }
}

export function expandFileArguments(patterns: string[], cwd: string): string[] {
  const files: string[] = [];
  for (const pattern of patterns) {
    // An existing file is taken as named, even when its name has glob characters such as `[`.
    if (!hasGlob(pattern) || statSync(resolve(cwd, pattern), { throwIfNoEntry: false })) {
      files.push(isAbsolute(pattern) ? pattern : resolve(cwd, pattern));
      continue;
    }
    const normal = pattern.replace(/\\/g, '/');
    const segments = normal.split('/');
    const firstGlob = segments.findIndex(hasGlob);
    const prefix = segments.slice(0, firstGlob).join('/');
    const base = resolve(cwd, prefix === '' && normal.startsWith('/') ? '/' : prefix || '.');
    const matcher = compileGlob(resolve(cwd, normal).replace(/\\/g, '/'));
    const found: string[] = [];
    if (statSync(base, { throwIfNoEntry: false })?.isDirectory()) walk(base, found);
    const matched = found.filter((file) => matcher.test(file.replace(/\\/g, '/'))).sort();
    if (matched.length === 0) throw new UsageError(`no file matches ${pattern}`);
    files.push(...matched);
  }
  return [...new Set(files)];
}

/** The largest file read (state files over VS Code's 50 MB sync limit are read too; a string holds at most ~512 MiB). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** A file refused before reading: not a regular file, or over the size limit. The message names the path. */
export class FileRefusedError extends Error {}

function describeSpecial(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refuseUnlessReadable(path: string, stats: Stats, maxBytes: number): void {
  const special = describeSpecial(stats);
  if (special) throw new FileRefusedError(`${path} is ${special}, not a regular file`);
  if (stats.size > maxBytes) throw new FileRefusedError(`${path} is ${formatMiB(stats.size)}, over the ${formatMiB(maxBytes)} limit`);
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
}

/**
 * Reads a regular file of at most `maxBytes` as UTF-8, promptly: devices, FIFOs and sockets are
 * refused from their type before any read (a FIFO is opened non-blocking, so opening never waits
 * for a writer), and reading stops past the limit even if the file grows meanwhile.
 */
export function readRegularFile(path: string, maxBytes = MAX_FILE_BYTES): string {
  refuseUnlessReadable(path, statSync(path), maxBytes);
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    // The path may have been swapped between the two looks: trust what was opened.
    const stats = fstatSync(fd);
    refuseUnlessReadable(path, stats, maxBytes);
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) {
        if (length > maxBytes) throw new FileRefusedError(`${path} grew past the ${formatMiB(maxBytes)} limit while being read`);
        break;
      }
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
