/**
 * `check`, `fix` and `state …` naming a STACK with `--backend URL` instead of a file
 * (`quota-state state remove --backend s3://… organization/app/dev URN`). A command that writes gets
 * each STACK as a target (stackTargets.ts: the backend's store and the stack file's object, written
 * through the one stack writer), under the operand it then sees: the stack file's path in a folder,
 * the object's URL in a bucket. `check` reads a folder's stack file as any file, and a bucket's
 * object as the command's input under its URL. Nothing is copied to a temporary file.
 */
import { findStack, type BackendStack } from '../shared/backend';
import { argumentPositions, InputError, type FlagSpec } from './args';
import { openBackend } from './backendAccess';
import type { CliIO } from './io';
import { backendTarget, readTargets, stackFilePath, type NamedStacks, type StackTarget } from './stackTargets';

/** `--backend URL` (or `--backend=URL`) taken out of `args`; undefined when absent. */
function takeBackendFlag(args: string[]): { url: string; rest: string[] } | undefined {
  const at = args.findIndex((arg) => arg === '--backend' || arg.startsWith('--backend='));
  if (at === -1) return undefined;
  const url = args[at].startsWith('--backend=') ? args[at].slice('--backend='.length) : args[at + 1];
  if (url === undefined) throw new InputError('--backend needs a URL (file://FOLDER or s3://BUCKET?…)');
  return { url, rest: [...args.slice(0, at), ...args.slice(at + (args[at].startsWith('--backend=') ? 1 : 2))] };
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

/** A command that may be given stacks: `stacks` maps each operand that names one to its target. */
export type StackCommand = (args: string[], io: CliIO, stacks: NamedStacks) => number | Promise<number>;

/**
 * Runs `run` with each operand (`operands`) that names a stack of `--backend` resolved: for a command
 * that `writes`, to its target, given in `stacks` under the operand the command sees. Without
 * `--backend`, `run(args)` as it is, with no stacks.
 */
export async function runOnBackendStacks(args: string[], io: CliIO, writes: boolean, run: StackCommand, operands: StackOperands): Promise<number> {
  const flag = takeBackendFlag(args);
  if (!flag) return run(args, io, new Map());
  const opened = await openBackend(flag.url, io);
  if (typeof opened === 'number') return opened;
  const { args: rest, at } = operands(flag.rest);
  const stackOf = (arg: string, index: number): BackendStack | undefined =>
    !at.has(index) || arg.startsWith('-') || arg.startsWith('urn:') ? undefined : findStack(opened.backend, arg, opened.project);
  const stacks = new Map<string, StackTarget>();
  const replaced = rest.map((arg, index) => {
    const stack = stackOf(arg, index);
    if (!stack) return arg;
    // A folder's stack file read as a path names it (never through a symbolic link that leads outside).
    if (!writes && opened.root) return stack.file ? stackFilePath(opened, stack.file.name, false) : arg;
    const target = backendTarget(opened, stack, io.cwd);
    stacks.set(target.display, target);
    return target.display;
  });
  if (writes || stacks.size === 0) return run(replaced, io, stacks);
  // `check` of a bucket's stack: each object read once, and given to the command as the file its URL names.
  const objects = [...stacks.values()];
  const read = await readTargets(objects);
  const documents = new Map(objects.map((target, index) => [target.display, read[index].bytes]));
  return run(replaced, { ...io, readBytes: (path) => documents.get(path) ?? io.readBytes(path) }, stacks);
}
