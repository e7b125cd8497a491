/**
 * The content of the stack files the writing commands edit: decoding (gzip- and zstd-compressed DIY
 * stack files too) and compressing it back as it was, opening it for surgery, the refusals before a
 * write (a read-only file, zstd this Node cannot write), and `--dry-run`'s diff. Where it is read
 * from and written to is stackTargets.ts's.
 */
import { createTwoFilesPatch } from 'diff';
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import * as zlib from 'node:zlib';
import { gzipSync } from 'node:zlib';
import { createStateService, SurgeryError, type EditableState } from '../shared/state';
import { lockFolderOf } from '../shared/backend';
import { InputError } from './args';
import { decodeOrFail } from './io';

const state = createStateService();

export type Compression = 'none' | 'gzip' | 'zstd';

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

/** A stack file's content, decoded: its text and the compression it is written back with. */
export interface DecodedFile {
  display: string;
  text: string;
  compression: Compression;
}

/** The edit is refused and nothing is written: exit code 1, with the message in the report. */
export class Refusal extends Error {}

/**
 * A state file's bytes, decoded; a gzip or zstd one (Pulumi sniffs compression from the bytes, not the
 * name) is decompressed within the limit (`QUOTA_STATE_MAX_INFLATED_MIB`, else 256 MiB): past it, or not
 * decompressible, the file is unreadable input.
 */
export function decode(bytes: Uint8Array, display: string): DecodedFile {
  const { text, compression } = decodeOrFail(bytes, display);
  return { display, text, compression: compression ?? 'none' };
}

/** Refuses, before anything is written, an edit this Node.js cannot write back: zstd compression needs Node 22.15. */
export function refuseIfUnwritable(file: DecodedFile): void {
  if (file.compression !== 'zstd' || zstd.zstdCompressSync) return;
  throw new Refusal(
    `${file.display} is zstd-compressed, and this Node.js (${process.version}) can read zstd but not write it (node:zlib compresses zstd from Node 22.15); ` +
      'nothing was written. Run quota-state on Node 22.15 or later, or decompress the file with `zstd -d` and edit that.',
  );
}

/** The file's state, opened for surgery; a file the operations cannot read is a refusal. */
export function openOrRefuse(file: DecodedFile): EditableState {
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

/** Refuses to replace a file on this machine (`path`) that is read-only, or whose folder cannot be written. */
export function refuseIfReadOnly(path: string, display: string): void {
  const stats = statSync(path);
  // Mode bits, not access(2): as root every file is writable, yet a read-only file says "do not edit".
  if ((stats.mode & 0o222) === 0) throw new Refusal(`${display} is read-only; make it writable (chmod u+w) to edit it`);
  try {
    const probe = join(dirname(path), `.${basename(path)}.${process.pid}.probe`);
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (error) {
    throw new Refusal(`cannot write in ${dirname(display) || '.'}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function pretty(text: string): string {
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}

/** `--dry-run`'s unified diff, of the file pretty-printed before and after. */
export function diffOf(display: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${display.replace(/^\/+/, '')}`, `b/${display.replace(/^\/+/, '')}`, pretty(before), pretty(after), '', '', { context: 3 }).replace(/^=+\n/, '');
}
