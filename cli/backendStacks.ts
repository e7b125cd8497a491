/**
 * `check`, `fix` and `state …` naming a STACK with `--backend URL` instead of a file
 * (`quota-state state remove --backend s3://… organization/app/dev URN`). In a folder, the STACK is
 * its stack file, edited in place as any file is (its lock and Pulumi's). In a bucket, the command
 * runs on a private copy of the stack object and, when it changed it, the new bytes go back under
 * Pulumi's lock object: the `.bak` object first, then the stack object, only if its ETag is still
 * the one read (checked before the `.bak` is touched). Messages name the object, never the copy.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findStack, objectUrl, StackLockedError, StoreConflict, StoreError, type BackendStack } from '../shared/backend';
import { readIfPresent, withStackWrites } from '../shared/backend/vocabulary';
import { argumentPositions, InputError, type FlagSpec } from './args';
import { openBackend, type Opened } from './backendAccess';
import { objectPath } from '../shared/node/fileStore';
import type { CliIO } from './io';
import { cliLockIdentity, cliStaleness, staleAfterFlag } from './lockedWrite';

/** `--backend URL` (or `--backend=URL`) taken out of `args`; undefined when absent. */
function takeBackendFlag(args: string[]): { url: string; rest: string[] } | undefined {
  const at = args.findIndex((arg) => arg === '--backend' || arg.startsWith('--backend='));
  if (at === -1) return undefined;
  const url = args[at].startsWith('--backend=') ? args[at].slice('--backend='.length) : args[at + 1];
  if (url === undefined) throw new InputError('--backend needs a URL (file://FOLDER or s3://BUCKET?…)');
  return { url, rest: [...args.slice(0, at), ...args.slice(at + (args[at].startsWith('--backend=') ? 1 : 2))] };
}

/** The value of `--name VALUE` or `--name=VALUE` among `args` (left in them for the command to parse too). */
function flagValue(args: string[], name: string): string | undefined {
  const at = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (at === -1) return undefined;
  return args[at].startsWith(`${name}=`) ? args[at].slice(name.length + 1) : args[at + 1];
}

/**
 * Which of a command's arguments name a stack: indexes in `args` (the arguments, with `--name=value`
 * maybe split in two). Only those are looked up in the backend; a URN, a new name or a flag's value
 * is never a stack, even one that reads like a stack's name (`state rename STACK URN hist/dev`).
 */
type StackOperands = (args: string[]) => { args: string[]; at: Set<number> };

/** Every positional argument names a file or a stack (`check`, `fix`); a flag's value does not. */
export function positionalStacks(spec: FlagSpec): StackOperands {
  return (args) => {
    const positions = argumentPositions(args, spec);
    return { args: positions.args, at: new Set(positions.positional) };
  };
}

interface Fetched {
  stack: BackendStack;
  path: string;
  display: string;
  bytes: Uint8Array;
  version: string;
}

/**
 * Runs `run` with each operand (`operands`) that names a stack of `--backend` replaced by its stack
 * file (`writes`: the command may change it). Without `--backend`, `run(args)` as it is.
 */
export async function runOnBackendStacks(args: string[], io: CliIO, writes: boolean, run: (args: string[], io: CliIO) => number | Promise<number>, operands: StackOperands): Promise<number> {
  const flag = takeBackendFlag(args);
  if (!flag) return run(args, io);
  const opened = await openBackend(flag.url, io);
  if (typeof opened === 'number') return opened;
  const { args: rest, at } = operands(flag.rest);
  const stackOf = (arg: string, index: number) => (!at.has(index) || arg.startsWith('-') || arg.startsWith('urn:') ? undefined : findStack(opened.backend, arg, opened.project));
  if (opened.root) {
    // A folder: the stack file itself, with every file lock and Pulumi's, as a path names it; never
    // through a symbolic link (its lock would be another file's, or none, and it may lead outside).
    const replaced = rest.map((arg, index) => {
      const stack = stackOf(arg, index);
      return stack?.file ? stackFilePath(opened, stack.file.name, writes) : arg;
    });
    return run(replaced, io);
  }
  return runInBucket(opened, rest, io, writes, stackOf, run);
}

/**
 * The path of a stack file of a folder backend, for a command that opens it as a file: refused
 * (exit 2, naming it) when a folder on its way is a symbolic link, or the file is one and the command
 * may write it, or it links outside the backend.
 */
export function stackFilePath(opened: Opened, name: string, writes: boolean): string {
  try {
    return objectPath(opened.root!, opened.backend.url, name, writes ? 'edit' : 'read');
  } catch (error) {
    if (error instanceof StoreError) throw new InputError(error.message);
    throw error;
  }
}

async function runInBucket(
  opened: Opened,
  args: string[],
  io: CliIO,
  writes: boolean,
  stackOf: (arg: string, index: number) => BackendStack | undefined,
  run: (args: string[], io: CliIO) => number | Promise<number>,
): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-bucket-'));
  try {
    const fetched: Fetched[] = [];
    const replaced = await Promise.all(
      args.map(async (arg, index) => {
        const stack = stackOf(arg, index);
        if (!stack) return arg;
        if (!stack.file) throw new InputError(`the stack "${stack.ref}" in ${opened.backend.url} has no stack file`);
        const stored = await readIfPresent(opened.store, stack.file.name);
        if (!stored) throw new InputError(`${stack.file.name} was removed meanwhile`);
        const { bytes, version } = stored;
        mkdirSync(join(scratch, String(index)));
        const path = join(scratch, String(index), stack.file.name.slice(stack.file.name.lastIndexOf('/') + 1));
        writeFileSync(path, bytes);
        fetched.push({ stack, path, display: objectUrl(opened.backend.url, stack.file.name), bytes, version });
        return path;
      }),
    );
    // Messages name the object, not the private copy.
    const named = (text: string) => fetched.reduce((out, f) => out.split(f.path).join(f.display), text);
    const mapped: CliIO = { ...io, stdout: (text) => io.stdout(named(text)), stderr: (text) => io.stderr(named(text)) };
    if (!writes || fetched.length === 0) return await run(replaced, mapped);
    const breakLock = args.includes('--break-lock');
    const lockOptions = {
      breakLock,
      hint: 'If no Pulumi process is running, `pulumi cancel` or --break-lock removes the lock.',
      staleness: cliStaleness(staleAfterFlag(flagValue(args, '--stale-after'))),
      warn: (m: string) => io.stderr(`warning: ${m}`),
    };
    try {
      const names = fetched.map((file) => file.stack.file!.name);
      const outcome = await withStackWrites(opened.store, names, { ...lockOptions, identity: cliLockIdentity() }, async (current) => {
        // The command runs on the copies of the versions fetched: an object changed since is refused.
        for (const [index, file] of fetched.entries()) {
          if (current[index]?.version !== file.version) throw new StoreConflict(`${names[index]} changed since it was read (another writer); nothing was written`);
        }
        const code = await run(replaced, mapped);
        const bytes = fetched.map((file) => {
          const after = readFileSync(file.path);
          return Buffer.compare(after, Buffer.from(file.bytes)) !== 0 ? after : undefined;
        });
        return { bytes, value: code };
      });
      return outcome.value;
    } catch (error) {
      if (error instanceof StackLockedError || error instanceof StoreConflict) {
        io.stderr(`quota-state: ${error.message}${error instanceof StoreConflict ? '' : '\nnothing was written'}`);
        return 1;
      }
      if (error instanceof StoreError) throw new InputError(error.message);
      throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
