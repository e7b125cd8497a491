/**
 * The files of `quota-state state …`: reading (gzip- and zstd-compressed DIY stack files too),
 * refusing a locked DIY stack or a read-only file, and writing atomically with FILE.bak kept.
 */
import { createTwoFilesPatch } from 'diff';
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import * as zlib from 'node:zlib';
import { gunzipSync, gzipSync } from 'node:zlib';
import { openState, SurgeryError } from '../../shared/state/surgery';
import { InputError } from './args';
import { MAX_FILE_BYTES } from './files';

type Compression = 'none' | 'gzip' | 'zstd';

/** node:zlib's zstd (Node ≥ 22.15), when this Node has it. */
const zstd = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer; zstdDecompressSync?: (b: Buffer) => Buffer };

export interface LoadedFile {
  path: string;
  display: string;
  text: string;
  compression: Compression;
  bytes: Buffer;
}

/** A state file opened for surgery. */
export type StateDocument = ReturnType<typeof openState>;

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

export function load(path: string, display: string): LoadedFile {
  const bytes = readBytes(path, display);
  // Pulumi sniffs compression from the bytes, not the name.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return { path, display, text: gunzipSync(bytes).toString('utf8'), compression: 'gzip', bytes };
    } catch (error) {
      throw new InputError(`${display} looks gzip-compressed but does not decompress: ${(error as Error).message}`);
    }
  }
  if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) {
    if (zstd.zstdDecompressSync && zstd.zstdCompressSync) {
      try {
        return { path, display, text: zstd.zstdDecompressSync(bytes).toString('utf8'), compression: 'zstd', bytes };
      } catch (error) {
        throw new InputError(`${display} looks zstd-compressed but does not decompress: ${(error as Error).message}`);
      }
    }
    throw new InputError(`${display} is zstd-compressed, which this Node.js cannot read (node:zlib has zstd from Node 22.15); decompress it with \`zstd -d\` first`);
  }
  return { path, display, text: bytes.toString('utf8'), compression: 'none', bytes };
}

/** The file's state, opened for surgery; a file the operations cannot read is a refusal. */
export function openOrRefuse(file: LoadedFile): StateDocument {
  try {
    return openState(file.text, file.display);
  } catch (error) {
    if (error instanceof SurgeryError) throw new Refusal(error.message);
    throw error;
  }
}

/**
 * The lock folder of a DIY stack file: `<root>/.pulumi/stacks/<project>/<stack>.json[.gz]` is locked
 * by files in `<root>/.pulumi/locks/organization/<project>/<stack>/`.
 */
export function lockFolder(path: string): string | undefined {
  const parts = resolve(path).split(sep);
  const at = parts.lastIndexOf('.pulumi');
  if (at === -1 || parts[at + 1] !== 'stacks') return undefined;
  const rest = parts.slice(at + 2);
  const stack = rest[rest.length - 1].replace(/\.json(\.gz|\.zst)?$/, '');
  const root = parts.slice(0, at + 1).join(sep);
  if (rest.length === 2) return join(root, 'locks', 'organization', rest[0], stack);
  if (rest.length === 1) return join(root, 'locks', stack);
  return undefined;
}

/** Refuses a locked stack; with `force`, a warning to print instead. */
export function refuseIfLocked(file: LoadedFile, force: boolean): string | undefined {
  const folder = lockFolder(file.path);
  if (!folder || !existsSync(folder)) return undefined;
  const locks = readdirSync(folder).filter((name) => name.endsWith('.json'));
  if (locks.length === 0) return undefined;
  if (force) return `warning: ${file.display}'s stack is locked by ${locks.length} lock(s) in ${folder}; editing anyway (--force)`;
  throw new Refusal(
    `the stack is currently locked by ${locks.length} lock(s): an update may be running (${join(folder, locks[0])}). ` +
      'Wait for it, or run `pulumi cancel` if none is; --force edits the file anyway.',
  );
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

/** FILE.bak gets the old bytes, then the new content replaces FILE by rename (atomic within a folder). Returns the backup's path. */
export function write(file: LoadedFile, text: string): string {
  const backup = `${file.path}.bak`;
  const mode = statSync(file.path).mode & 0o7777;
  const plain = Buffer.from(text, 'utf8');
  const bytes = file.compression === 'gzip' ? gzipSync(plain) : file.compression === 'zstd' ? zstd.zstdCompressSync!(plain) : plain;
  const temporary = join(dirname(file.path), `.${basename(file.path)}.${process.pid}.quota-state.tmp`);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  try {
    copyFileSync(file.path, backup);
    renameSync(temporary, file.path);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  }
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
