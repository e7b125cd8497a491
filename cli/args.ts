/** Minimal, strict argument parsing for the CLIs: unknown flags are usage errors, not ignored. */

/**
 * A mistake in how the command was called: the message is followed by the usage text, `usage` when
 * given (a subcommand's, as `backend prune`'s), else the command's.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** The command was fine but its input was not (missing, unreadable, wrong kind): message only. */
export class InputError extends Error {}

/** `value` once, `values` repeatable, `boolean` a switch. */
export type FlagSpec = Record<string, 'value' | 'values' | 'boolean'>;

export interface ParsedArguments {
  positional: string[];
  flags: Record<string, string | undefined>;
  lists: Record<string, string[]>;
  booleans: Set<string>;
}

export function parseArguments(args: string[], spec: FlagSpec): ParsedArguments {
  const positional: string[] = [];
  const flags: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  const booleans = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      booleans.add('help');
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = name === 'help' ? 'boolean' : spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      booleans.add(name);
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === 'values') {
      (lists[name] ??= []).push(value);
      continue;
    }
    if (flags[name] !== undefined) throw new UsageError(`--${name} is given twice`);
    flags[name] = value;
  }
  return { positional, flags, lists, booleans };
}

/** Where the operands are among a command's arguments (as parseArguments reads them), by index. */
interface ArgumentPositions {
  /** The arguments, each `--name=value` of a value flag split into `--name` and `value`. */
  args: string[];
  /** Indexes in `args` of the positional arguments, in order. */
  positional: number[];
  /** Indexes in `args` of each value flag's values. */
  values: Record<string, number[]>;
}

/** Reads `args` as parseArguments does, without its checks (an unknown flag is taken for a switch), for the positions alone. */
export function argumentPositions(args: string[], spec: FlagSpec): ArgumentPositions {
  const end = args.indexOf('--');
  const split = args.flatMap((arg, index) => {
    const eq = arg.indexOf('=');
    const kind = arg.startsWith('--') && eq !== -1 && (end === -1 || index < end) ? spec[arg.slice(2, eq)] : undefined;
    return kind === 'value' || kind === 'values' ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg];
  });
  const positional: number[] = [];
  const values: Record<string, number[]> = {};
  for (let i = 0; i < split.length; i++) {
    const arg = split[i];
    if (arg === '--') {
      for (let j = i + 1; j < split.length; j++) positional.push(j);
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg !== '-h') positional.push(i);
      continue;
    }
    const kind = spec[arg.slice(2)];
    if ((kind === 'value' || kind === 'values') && i + 1 < split.length) (values[arg.slice(2)] ??= []).push(++i);
  }
  return { args: split, positional, values };
}
