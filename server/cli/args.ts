/** Minimal, strict argument parsing for the CLIs: unknown flags are usage errors, not ignored. */

export class UsageError extends Error {}

export type FlagSpec = Record<string, 'value' | 'boolean'>;

export interface ParsedArguments {
  positional: string[];
  flags: Record<string, string | undefined>;
  booleans: Set<string>;
}

export function parseArguments(args: string[], spec: FlagSpec): ParsedArguments {
  const positional: string[] = [];
  const flags: Record<string, string | undefined> = {};
  const booleans = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      booleans.add(name);
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (flags[name] !== undefined) throw new UsageError(`--${name} is given twice`);
    flags[name] = value;
  }
  return { positional, flags, booleans };
}
