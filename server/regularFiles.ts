/**
 * Reading a file the servers were pointed at, safely: the language server's analysis from disk and the
 * CLI both read through here, so neither imports the other.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

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
