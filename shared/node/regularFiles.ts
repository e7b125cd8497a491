/**
 * Reading a file the servers were pointed at, safely: the language server's analysis from disk and the
 * CLI both read through here, so neither imports the other.
 */
import * as l10n from '@vscode/l10n';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type BigIntStats, type Stats } from 'node:fs';
import { MAX_FILE_BYTES } from '../text/inflate';

/** The largest file read, on disk and decompressed alike (state files over VS Code's 50 MB sync limit are read too). */
export { MAX_FILE_BYTES };

/** A file refused before reading: not a regular file, or over the size limit. The message names the path. */
export class FileRefusedError extends Error {}

function describeSpecial(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return l10n.t('a folder');
  if (stats.isFIFO()) return l10n.t('a named pipe (FIFO)');
  if (stats.isSocket()) return l10n.t('a socket');
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return l10n.t('a device');
  return l10n.t('not a regular file');
}

function refuseUnlessReadable(path: string, stats: Stats, maxBytes: number): void {
  const special = describeSpecial(stats);
  if (special) throw new FileRefusedError(l10n.t('{0} is {1}, not a regular file', path, special));
  if (stats.size > maxBytes) throw new FileRefusedError(l10n.t('{0} is {1}, over the {2} limit', path, formatMiB(stats.size), formatMiB(maxBytes)));
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
  return readRegularBytes(path, maxBytes).toString('utf8');
}

/** The bytes of a regular file of at most `maxBytes`, read as `readRegularFile` reads (compressed files: shared/text/inflate.ts). */
export function readRegularBytes(path: string, maxBytes = MAX_FILE_BYTES): Buffer {
  return readRegularVersion(path, { maxBytes }).bytes;
}

/** What identifies one version of a file: a rename or an in-place write changes at least one of these. */
export function fileVersionOf(stats: BigIntStats): string {
  return `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
}

/**
 * A regular file's bytes (with `length`, only its first bytes) and its version, taken from the file
 * opened (fileVersionOf), so the two belong together; read as `readRegularFile` reads.
 */
export function readRegularVersion(path: string, options: { maxBytes?: number; length?: number } = {}): { bytes: Buffer; version: string } {
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  refuseUnlessReadable(path, statSync(path), options.length === undefined ? maxBytes : Infinity);
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    // The path may have been swapped between the two looks: trust what was opened.
    const stats = fstatSync(fd);
    const opened = fstatSync(fd, { bigint: true });
    refuseUnlessReadable(path, stats, options.length === undefined ? maxBytes : Infinity);
    const version = fileVersionOf(opened);
    if (options.length !== undefined) {
      const head = Buffer.alloc(Math.min(options.length, stats.size));
      return { bytes: head.subarray(0, readSync(fd, head, 0, head.length, 0)), version };
    }
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) {
        if (length > maxBytes) throw new FileRefusedError(l10n.t('{0} grew past the {1} limit while being read', path, formatMiB(maxBytes)));
        break;
      }
    }
    return { bytes: buffer.subarray(0, length), version };
  } finally {
    closeSync(fd);
  }
}
