/**
 * The files of `quota-state state …`: reading (gzip- and zstd-compressed DIY stack files too),
 * refusing a read-only file, and writing atomically under lock (lockedWrite.ts) with FILE.bak kept.
 */
import { createTwoFilesPatch } from 'diff';
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import * as zlib from 'node:zlib';
import { gzipSync } from 'node:zlib';
import { createStateService, SurgeryError, type EditableState } from '../shared/state';
import { lockFolderOf } from '../shared/backend';
import { compressionOf } from '../shared/text/inflate';
import { InputError } from './args';
import { MAX_FILE_BYTES } from './files';
import { decodeOrFail } from './io';
import { writeTemporarySibling } from './realIo';
import type { WriteGuard } from './lockedWrite';

const state = createStateService();

type Compression = 'none' | 'gzip' | 'zstd';

/** node:zlib's zstd compression (Node ≥ 22.15), when this Node has it; reading needs none (shared/text/inflate.ts). */
const zstd = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer };

/** `plain` compressed as a file of `compression` was (Pulumi sniffs the bytes, so the file's name stays valid). */
export function compressAs(plain: Uint8Array, compression: Compression): Uint8Array {
  if (compression === 'gzip') return gzipSync(plain);
  if (compression === 'zstd') {
    if (!zstd.zstdCompressSync) throw new InputError(`this Node (${process.version}) cannot write zstd; Node 22.15 or later can`);
    return zstd.zstdCompressSync(Buffer.from(plain));
  }
  return plain;
}

export interface LoadedFile {
  path: string;
  display: string;
  text: string;
  compression: Compression;
  bytes: Buffer;
}

/** The edit is refused and nothing is written: exit code 1, with the message in the report. */
export class Refusal extends Error {}

function readBytes(path: string, display: string): Buffer {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new InputError(`${display} is not a regular file`);
    if (stats.size > MAX_FILE_BYTES) throw new InputError(`${display} is over the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit`);
    return readFileSync(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : `cannot read ${display}: ${code ?? String(error)}`);
  }
}

/**
 * Reads a state file; a gzip or zstd one (Pulumi sniffs compression from the bytes, not the name) is
 * decompressed within the limit (`QUOTA_STATE_MAX_INFLATED_MIB`, else 256 MiB): past it, or not
 * decompressible, the file is unreadable input.
 */
export function load(path: string, display: string): LoadedFile {
  const bytes = readBytes(path, display);
  const { text, compression } = decodeOrFail(bytes, display);
  return { path, display, text, compression: compression ?? 'none', bytes };
}

/**
 * A file about to be replaced whole (restore): read as `load` reads it, except that bytes that cannot
 * be decompressed (truncated, a bomb) are no refusal: `damage` says why, and the bytes are kept for the `.bak`.
 */
export function loadForReplacing(path: string, display: string): LoadedFile & { damage?: string } {
  const bytes = readBytes(path, display);
  try {
    const { text, compression } = decodeOrFail(bytes, display);
    return { path, display, text, compression: compression ?? 'none', bytes };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { path, display, text: '', compression: compressionOf(bytes) ?? 'none', bytes, damage: error.message };
  }
}

/** Refuses, before anything is written, an edit this Node.js cannot write back: zstd compression needs Node 22.15. */
export function refuseIfUnwritable(file: LoadedFile): void {
  if (file.compression !== 'zstd' || zstd.zstdCompressSync) return;
  throw new Refusal(
    `${file.display} is zstd-compressed, and this Node.js (${process.version}) can read zstd but not write it (node:zlib compresses zstd from Node 22.15); ` +
      'nothing was written. Run quota-state on Node 22.15 or later, or decompress the file with `zstd -d` and edit that.',
  );
}

/** The file's state, opened for surgery; a file the operations cannot read is a refusal. */
export function openOrRefuse(file: LoadedFile): EditableState {
  try {
    return state.surgery.open(file.text, file.display);
  } catch (error) {
    if (error instanceof SurgeryError) throw new Refusal(error.message);
    throw error;
  }
}

/** The lock folder of a DIY stack file, by shared/backend/paths.ts's one rule, over native paths. */
export function lockFolder(path: string): string | undefined {
  return lockFolderOf(resolve(path).split(sep).join('/'))?.split('/').join(sep);
}

export function refuseIfReadOnly(file: LoadedFile): void {
  const stats = statSync(file.path);
  // Mode bits, not access(2): as root every file is writable, yet a read-only file says "do not edit".
  if ((stats.mode & 0o222) === 0) throw new Refusal(`${file.display} is read-only; make it writable (chmod u+w) to edit it`);
  try {
    const probe = join(dirname(file.path), `.${basename(file.path)}.${process.pid}.probe`);
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (error) {
    throw new Refusal(`cannot write in ${dirname(file.display) || '.'}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Replaces FILE with `text` (compressed as it was), holding its lock: FILE.bak gets the bytes the edit
 * was computed from (`file.bytes`, never a copy of what is on disk now) and the new content replaces
 * FILE, each by rename (atomic within a folder). `guard.check()` runs just before the renames and
 * refuses when the file changed since it was read. Returns the backup's path.
 */
export function write(file: LoadedFile, text: string, guard: WriteGuard): string {
  const backup = `${file.path}.bak`;
  const mode = statSync(file.path).mode & 0o7777;
  const plain = Buffer.from(text, 'utf8');
  const bytes = compressAs(plain, file.compression);
  const temporaries: string[] = [];
  try {
    const next = writeTemporarySibling(file.path, 'quota-state.tmp', bytes, mode);
    temporaries.push(next);
    const old = writeTemporarySibling(file.path, 'quota-state.bak.tmp', file.bytes, mode);
    temporaries.push(old);
    guard.check();
    renameSync(old, backup);
    temporaries.pop();
    renameSync(next, file.path);
    temporaries.pop();
  } finally {
    for (const temporary of temporaries) if (existsSync(temporary)) unlinkSync(temporary);
  }
  guard.written();
  return backup;
}

function pretty(text: string): string {
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}

/** `--dry-run`'s unified diff, of the file pretty-printed before and after. */
export function diffOf(file: LoadedFile, before: string, after: string): string {
  return createTwoFilesPatch(`a/${file.display.replace(/^\/+/, '')}`, `b/${file.display.replace(/^\/+/, '')}`, pretty(before), pretty(after), '', '', { context: 3 }).replace(/^=+\n/, '');
}
