/**
 * What every `quota-state` command shares: its I/O (`CliIO`, real in realIo.ts), reading a file
 * or a command line with the CLI's errors, and each folder's project configuration.
 */
import { dirname, isAbsolute, relative } from 'node:path';
import { DEFAULT_FILE_PATTERNS, kindFromContent, type DocumentKind } from '../shared/documentKind';
import { findProjectConfig, kindFromConfiguredName, type ProjectConfig, type ReadIfExists } from '../shared/projectConfig';
import { decodeFile, InflateBudget, InflateError, type DecodedFile } from '../shared/text/inflate';
import { InputError, parseArguments, UsageError, type FlagSpec, type ParsedArguments } from './args';
import { expandFileArguments, FileRefusedError, MAX_FILE_BYTES } from './files';
import type { OutputFormat } from './formats';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  /** The bytes of a file, refused as `readFile` refuses (`check` and `fix` decompress them: readDocumentOrFail). */
  readBytes: (path: string) => Uint8Array;
  /** The text of a file, or undefined when it does not exist (the project configuration lookup). */
  readIfExists: ReadIfExists;
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

export function formatFlag<Format extends string = OutputFormat>(value: string | undefined, allowed: readonly Format[]): Format {
  if (value === undefined) return 'text' as Format;
  if ((allowed as readonly string[]).includes(value)) return value as Format;
  throw new UsageError(`--format must be ${allowed.join(', ').replace(/, ([^,]*)$/, ' or $1')}, not "${value}"`);
}

export function readOrFail(path: string, io: CliIO, display: string): string {
  return orInputError(() => io.readFile(path), display);
}

/** A file as `check` and `fix` read it: gzip or zstd (known by its magic bytes) decompressed within `maxInflatedBytes`. */
export function readDocumentOrFail(path: string, io: CliIO, display: string): DecodedFile {
  return decodeOrFail(
    orInputError(() => io.readBytes(path), display),
    display,
  );
}

/** A file's bytes as text, decompressed within `maxInflatedBytes` when compressed; what does not decompress is unreadable input. */
export function decodeOrFail(bytes: Uint8Array, display: string): DecodedFile {
  try {
    return decodeFile(bytes, { name: display, maxBytes: maxInflatedBytes() });
  } catch (error) {
    if (error instanceof InflateError) throw new InputError(error.message);
    throw error;
  }
}

const MIB = 1024 * 1024;
const MAX_INFLATED_VARIABLE = 'QUOTA_STATE_MAX_INFLATED_MIB';

/** How large a compressed file may decompress: 256 MiB (a plain file's limit), or fewer MiB by `QUOTA_STATE_MAX_INFLATED_MIB`. */
export function maxInflatedBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[MAX_INFLATED_VARIABLE]?.trim();
  if (!value) return MAX_FILE_BYTES;
  if (!/^[1-9][0-9]{0,2}$/.test(value) || Number(value) * MIB > MAX_FILE_BYTES) {
    throw new InputError(`${MAX_INFLATED_VARIABLE} must be a whole number of MiB from 1 to ${MAX_FILE_BYTES / MIB}, not "${env[MAX_INFLATED_VARIABLE]}"`);
  }
  return Number(value) * MIB;
}

const MAX_INFLATED_TOTAL_VARIABLE = 'QUOTA_STATE_MAX_INFLATED_TOTAL_MIB';
/** A command's default budget: 4 GiB, sixteen files at the limit (seconds of work, not minutes). */
const DEFAULT_INFLATED_TOTAL_MIB = 4096;
const budgets = new WeakMap<CliIO, InflateBudget>();

/**
 * The decompression budget of the command `io` runs, made on first use: all the files it reads
 * inflate to at most 4 GiB together (zstd windows counted), or `QUOTA_STATE_MAX_INFLATED_TOTAL_MIB`.
 */
export function inflateBudget(io: CliIO, env: NodeJS.ProcessEnv = process.env): InflateBudget {
  let budget = budgets.get(io);
  if (budget) return budget;
  const value = env[MAX_INFLATED_TOTAL_VARIABLE]?.trim();
  if (value && !/^[1-9][0-9]{0,6}$/.test(value)) throw new InputError(`${MAX_INFLATED_TOTAL_VARIABLE} must be a whole number of MiB of at least 1, not "${env[MAX_INFLATED_TOTAL_VARIABLE]}"`);
  budget = new InflateBudget(Number(value || DEFAULT_INFLATED_TOTAL_MIB) * MIB);
  budgets.set(io, budget);
  return budget;
}

function orInputError<T>(read: () => T, display: string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof FileRefusedError) throw new InputError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : code === 'EISDIR' ? `${display} is a folder, not a file` : `cannot read ${display}: ${code ?? String(error)}`);
  }
}

/** An object of a bucket, as a command names it (`s3://bucket/.pulumi/stacks/…`): a URL, not a path. */
const isObjectUrl = (file: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(file);

/** Paths under the working folder print relative (as compilers do); others, and an object's URL, print as given. */
export function displayPath(cwd: string, file: string): string {
  if (isObjectUrl(file)) return file;
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

/** The project configuration of each folder, read once per run. */
export class ProjectConfigs {
  private readonly byFolder = new Map<string, ProjectConfig | undefined>();
  constructor(private readonly io: CliIO) {}
  for(file: string): ProjectConfig | undefined {
    // An object of a bucket has no folder on this machine, and no .quota-state.json.
    if (isObjectUrl(file)) return undefined;
    const folder = dirname(file);
    if (!this.byFolder.has(folder)) this.byFolder.set(folder, findProjectConfig(folder, this.io.readIfExists));
    return this.byFolder.get(folder);
  }
}

/** A file's kind: by its configured or default name, else by its content. */
export function kindOf(file: string, text: string, config: ProjectConfig | undefined): DocumentKind | undefined {
  return kindFromConfiguredName(file, config, DEFAULT_FILE_PATTERNS) ?? kindFromContent(text);
}

/**
 * The kind of a file as readDocumentOrFail read it. A compressed file is a DIY stack or nothing: `state`
 * by its name without `.gz`/`.zst` or by its content, else none (skipped).
 */
export function kindOfDocument(file: string, { text, compression }: DecodedFile, config: ProjectConfig | undefined): DocumentKind | undefined {
  if (!compression) return kindOf(file, text, config);
  return kindOf(file.replace(/\.(gz|zst)$/i, ''), text, config) === 'state' ? 'state' : undefined;
}
