/**
 * What every `quota-state` command shares: its I/O (`CliIO`, real in realIo.ts), reading a file
 * or a command line with the CLI's errors, and each folder's project configuration.
 */
import { dirname, isAbsolute, relative } from 'node:path';
import { DEFAULT_FILE_PATTERNS, kindFromContent, type DocumentKind } from '../../shared/documentKind';
import { findProjectConfig, kindFromConfiguredName, ProjectConfigError, type ProjectConfig, type ReadIfExists } from '../../shared/projectConfig';
import { InputError, parseArguments, UsageError, type FlagSpec, type ParsedArguments } from './args';
import { expandFileArguments, FileRefusedError } from './files';
import type { OutputFormat } from './formats';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  /** The text of a file, or undefined when it does not exist (the project configuration lookup). */
  readIfExists: ReadIfExists;
  /** Replaces a file's content so that a reader sees either the old or the new content. */
  writeFileAtomic: (path: string, text: string) => void;
  cwd: string;
}

/** Parses a command's arguments; `--help` prints the command's `usage` and gives undefined: the command ends with 0. */
export function commandArguments(usage: string, args: string[], spec: FlagSpec, io: CliIO): ParsedArguments | undefined {
  const parsed = parseArguments(args, spec);
  if (parsed.booleans.has('help')) {
    io.stdout(usage);
    return undefined;
  }
  return parsed;
}

export function formatFlag(value: string | undefined, allowed: readonly OutputFormat[]): OutputFormat {
  if (value === undefined) return 'text';
  if ((allowed as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--format must be ${allowed.join(', ').replace(/, ([^,]*)$/, ' or $1')}, not "${value}"`);
}

export function readOrFail(path: string, io: CliIO, display: string): string {
  try {
    return io.readFile(path);
  } catch (error) {
    if (error instanceof FileRefusedError) throw new InputError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : code === 'EISDIR' ? `${display} is a folder, not a file` : `cannot read ${display}: ${code ?? String(error)}`);
  }
}

/** Paths under the working folder print relative (as compilers do); others print as given. */
export function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

export function expandOrFail(patterns: string[], cwd: string): string[] {
  try {
    return expandFileArguments(patterns, cwd);
  } catch (error) {
    // A glob that matches nothing is a fact about the input, not a mistake in the command line.
    if (error instanceof UsageError) throw new InputError(error.message);
    throw error;
  }
}

/** Runs `each` on every file; a file that cannot be read is reported and the others still run. */
export function forEachFile<T>(files: string[], io: CliIO, each: (file: string, display: string) => T): { results: T[]; failed: boolean } {
  const results: T[] = [];
  let failed = false;
  for (const file of files) {
    try {
      results.push(each(file, displayPath(io.cwd, file)));
    } catch (error) {
      if (!(error instanceof InputError || error instanceof ProjectConfigError)) throw error;
      io.stderr(`quota-state: ${error.message}`);
      failed = true;
    }
  }
  return { results, failed };
}

/** The project configuration of each folder, read once per run. */
export class ProjectConfigs {
  private readonly byFolder = new Map<string, ProjectConfig | undefined>();
  constructor(private readonly io: CliIO) {}
  for(file: string): ProjectConfig | undefined {
    const folder = dirname(file);
    if (!this.byFolder.has(folder)) this.byFolder.set(folder, findProjectConfig(folder, this.io.readIfExists));
    return this.byFolder.get(folder);
  }
}

/** A file's kind: by its configured or default name, else by its content. */
export function kindOf(file: string, text: string, config: ProjectConfig | undefined): DocumentKind | undefined {
  return kindFromConfiguredName(file, config, DEFAULT_FILE_PATTERNS) ?? kindFromContent(text);
}
