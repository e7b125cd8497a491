/**
 * `quota-state state …`: the `pulumi state` edits, offline, on a state file. The operations are
 * shared/state/surgery's; this module reads (gzip-compressed DIY stack files too), refuses a
 * locked DIY stack or a read-only file, keeps FILE.bak, writes atomically, and prints the report.
 * Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.
 */
import { createTwoFilesPatch } from 'diff';
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as zlib from 'node:zlib';
import { gunzipSync, gzipSync } from 'node:zlib';
import { clearPending, moveResources, openState, removeResources, renameResource, repairState, setFlag, SurgeryError, type SurgeryOutcome } from '../../shared/state/surgery';
import { InputError, parseArguments, UsageError } from './args';
import { MAX_FILE_BYTES } from './files';

export const STATE_USAGE = `Usage:
  quota-state state remove|rm|delete FILE (URN…|--all) [--target-dependents] [--force]
  quota-state state protect|unprotect FILE (URN…|--all)
  quota-state state taint FILE URN…
  quota-state state untaint FILE (URN…|--all)
  quota-state state rename FILE URN NEW-NAME
  quota-state state repair FILE
  quota-state state clear-pending FILE [URN…]
  quota-state state move FILE URN… --dest FILE [--include-parents]

The edits of \`pulumi state\`, offline, on an export, a DIY checkpoint, a bare deployment or a
compressed DIY stack file (.json.gz). FILE is edited in place, atomically; the old content is kept
as FILE.bak (a second edit replaces it). URN#N names the N-th record with that URN, in file order.

  --dry-run            print a unified diff (of the files pretty-printed) and write nothing
  --format text|json   the report's format (default text)
  --force              remove: protected resources too; every command: edit a locked DIY stack
  --target-dependents  remove: remove whatever depends on the targets too
  --all                remove, protect, unprotect, untaint: every resource
  --dest FILE          move: the state file the resources go to
  --include-parents    move: the resources' parents go too

Exit codes: 0 applied or nothing to do, 1 refused (nothing written), 2 usage error or unreadable file.`;

const COMMANDS = ['remove', 'rm', 'delete', 'protect', 'unprotect', 'taint', 'untaint', 'rename', 'repair', 'clear-pending', 'move', 'mv'];

export interface StateIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

type Compression = 'none' | 'gzip' | 'zstd';

/** node:zlib's zstd (Node ≥ 22.15), when this Node has it. */
const zstd = zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer; zstdDecompressSync?: (b: Buffer) => Buffer };

interface LoadedFile {
  path: string;
  display: string;
  text: string;
  compression: Compression;
  bytes: Buffer;
}

class Refusal extends Error {}

function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function load(path: string, display: string): LoadedFile {
  let bytes: Buffer;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new InputError(`${display} is not a regular file`);
    if (stats.size > MAX_FILE_BYTES) throw new InputError(`${display} is over the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit`);
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : `cannot read ${display}: ${code ?? String(error)}`);
  }
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

function refuseIfLocked(file: LoadedFile, force: boolean): string | undefined {
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

function refuseIfReadOnly(file: LoadedFile): void {
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

/** FILE.bak gets the old bytes, then the new content replaces FILE by rename (atomic within a folder). */
function write(file: LoadedFile, text: string): string {
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

function diffOf(file: LoadedFile, before: string, after: string): string {
  return createTwoFilesPatch(`a/${file.display.replace(/^\/+/, '')}`, `b/${file.display.replace(/^\/+/, '')}`, pretty(before), pretty(after), '', '', { context: 3 }).replace(/^=+\n/, '');
}

interface FileResult {
  file: string;
  outcome: SurgeryOutcome;
  written: boolean;
  backup?: string;
  diff?: string;
}

function report(results: FileResult[], format: string, warnings: string[], io: StateIO): void {
  if (format === 'json') {
    const files = results.map(({ file, outcome, written, backup }) => {
      const { text, edits, ...rest } = outcome;
      void text;
      return { file, ...rest, edits: edits.length, written, ...(backup ? { backup } : {}) };
    });
    io.stdout(JSON.stringify(files.length === 1 ? { ...files[0], warnings } : { files, warnings }, null, 2));
    return;
  }
  const lines: string[] = [...warnings];
  for (const { file, outcome, written, backup, diff } of results) {
    if (diff) lines.push(diff.trimEnd());
    const verb = outcome.status === 'refused' ? 'refused' : outcome.status === 'unchanged' ? 'nothing to do' : written ? 'written' : 'not written (--dry-run)';
    lines.push(`${file}: ${outcome.message} (${verb})`);
    if (outcome.status === 'refused') for (const error of outcome.errors) lines.push(indent(error));
    for (const change of outcome.changes) {
      lines.push(`  ${change.action} ${change.urn}${change.newUrn && change.newUrn !== change.urn ? ` → ${change.newUrn}` : ''}${change.detail ? ` (${change.detail})` : ''}`);
    }
    if (outcome.dependentsRemoved.length) lines.push(`  ${outcome.dependentsRemoved.length} dependent ${outcome.dependentsRemoved.length === 1 ? 'resource' : 'resources'} removed with the targets`);
    for (const cut of outcome.referencesCut) lines.push(`  cut ${cut.kind}${cut.key ? ` (${cut.key})` : ''} of ${cut.from} → ${cut.target}`);
    for (const pending of outcome.pendingCleared) lines.push(`  cleared pending operation '${pending.type}' on '${pending.urn}'`);
    if (outcome.version.before !== outcome.version.after && outcome.version.after !== undefined && outcome.status !== 'refused') {
      lines.push(`  version ${String(outcome.version.before)} → ${outcome.version.after}${outcome.version.featuresAfter ? ` (features: ${outcome.version.featuresAfter.join(', ')})` : ''}`);
    }
    for (const note of outcome.notes) lines.push(`  note: ${note}`);
    if (outcome.remainingErrors.length && outcome.status !== 'refused') {
      lines.push(`  ${outcome.remainingErrors.length} ${outcome.remainingErrors.length === 1 ? 'error remains' : 'errors remain'} (all already in the input):`);
      for (const error of outcome.remainingErrors.slice(0, 20)) lines.push(`    ${error}`);
      if (outcome.remainingErrors.length > 20) lines.push(`    … and ${outcome.remainingErrors.length - 20} more (quota-state check lists them all)`);
    }
    if (backup) lines.push(`  the old content is kept in ${backup}`);
  }
  io.stdout(lines.join('\n'));
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
}

export function runStateCommand(args: string[], io: StateIO): number {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    if (command === undefined) throw new UsageError('state needs a command');
    io.stdout(STATE_USAGE);
    return 0;
  }
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown state command "${command}"`);
  const parsed = parseArguments(rest, {
    'dry-run': 'boolean',
    format: 'value',
    force: 'boolean',
    'target-dependents': 'boolean',
    all: 'boolean',
    dest: 'value',
    'include-parents': 'boolean',
    yes: 'boolean',
  });
  if (parsed.booleans.has('help')) {
    io.stdout(STATE_USAGE);
    return 0;
  }
  const format = parsed.flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const dryRun = parsed.booleans.has('dry-run');
  const force = parsed.booleans.has('force');
  const all = parsed.booleans.has('all');
  const op = command === 'rm' || command === 'delete' ? 'remove' : command === 'mv' ? 'move' : command;
  const allowed: Record<string, string[]> = {
    remove: ['all', 'target-dependents', 'force'],
    protect: ['all', 'force'],
    unprotect: ['all', 'force'],
    taint: ['force'],
    untaint: ['all', 'force'],
    rename: ['force'],
    repair: ['force'],
    'clear-pending': ['force'],
    move: ['force', 'include-parents'],
  };
  for (const flag of ['all', 'target-dependents', 'include-parents']) {
    if (parsed.booleans.has(flag) && !allowed[op].includes(flag)) throw new UsageError(`${command} takes no --${flag}`);
  }
  if (parsed.flags.dest !== undefined && op !== 'move') throw new UsageError(`${command} takes no --dest`);
  const [fileArg, ...targets] = parsed.positional;
  if (fileArg === undefined) throw new UsageError(`${command} needs a state FILE`);
  if (all && targets.length) throw new UsageError('cannot specify a resource URN together with --all');
  const needsTargets = ['remove', 'protect', 'unprotect', 'untaint'].includes(op) ? !all : op === 'taint' || op === 'move';
  if (needsTargets && targets.length === 0) throw new UsageError(`${command} needs at least one URN${op === 'taint' || op === 'move' ? '' : ' (or --all)'}`);
  if (op === 'rename' && targets.length !== 2) throw new UsageError('rename takes FILE URN NEW-NAME (NEW-NAME is a name, not a URN)');
  if (op === 'repair' && targets.length) throw new UsageError('repair takes only FILE');
  if (op === 'move' && parsed.flags.dest === undefined) throw new UsageError('move needs --dest FILE');

  const path = resolve(io.cwd, fileArg);
  const file = load(path, displayPath(io.cwd, path));
  const warnings: string[] = [];
  const emit = (results: FileResult[], code: number) => {
    report(results, format, warnings, io);
    return code;
  };
  try {
    const warning = refuseIfLocked(file, force);
    if (warning) warnings.push(warning);
    let doc;
    try {
      doc = openState(file.text, file.display);
    } catch (error) {
      if (error instanceof SurgeryError) throw new Refusal(error.message);
      throw error;
    }
    if (op === 'move') {
      const destPath = resolve(io.cwd, parsed.flags.dest!);
      if (destPath === path) throw new UsageError('--dest must be another file');
      const dest = load(destPath, displayPath(io.cwd, destPath));
      const destWarning = refuseIfLocked(dest, force);
      if (destWarning) warnings.push(destWarning);
      let destDoc;
      try {
        destDoc = openState(dest.text, dest.display);
      } catch (error) {
        if (error instanceof SurgeryError) throw new Refusal(error.message);
        throw error;
      }
      const moved = moveResources(doc, destDoc, targets, { includeParents: parsed.booleans.has('include-parents') });
      const results: FileResult[] = [
        { file: file.display, outcome: moved.source, written: false },
        { file: dest.display, outcome: moved.dest, written: false },
      ];
      if (moved.source.status === 'refused' || moved.dest.status === 'refused') return emit(results, 1);
      if (dryRun) {
        results[0].diff = diffOf(file, file.text, moved.source.text);
        results[1].diff = diffOf(dest, dest.text, moved.dest.text);
        return emit(results, 0);
      }
      refuseIfReadOnly(file);
      refuseIfReadOnly(dest);
      // Destination first, as Pulumi does; if the source cannot be written, the destination is restored.
      results[1].backup = displayPath(io.cwd, write(dest, moved.dest.text));
      results[1].written = true;
      try {
        results[0].backup = displayPath(io.cwd, write(file, moved.source.text));
        results[0].written = true;
      } catch (error) {
        write({ ...dest, compression: dest.compression }, dest.text);
        throw new InputError(`cannot write ${file.display} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${dest.display} was restored`);
      }
      return emit(results, 0);
    }
    const outcome = runOperation(op, doc, targets, { all, force, targetDependents: parsed.booleans.has('target-dependents') });
    const result: FileResult = { file: file.display, outcome, written: false };
    if (outcome.status === 'refused') return emit([result], 1);
    if (outcome.status === 'unchanged') return emit([result], 0);
    if (dryRun) {
      result.diff = diffOf(file, file.text, outcome.text);
      return emit([result], 0);
    }
    refuseIfReadOnly(file);
    try {
      result.backup = displayPath(io.cwd, write(file, outcome.text));
    } catch (error) {
      throw new InputError(`cannot write ${file.display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
    }
    result.written = true;
    return emit([result], 0);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const outcome: SurgeryOutcome = {
      operation: op,
      status: 'refused',
      message: error.message.split('\n')[0],
      edits: [],
      text: file.text,
      changes: [],
      dependentsRemoved: [],
      referencesCut: [],
      pendingCleared: [],
      notes: [],
      errors: [error.message],
      remainingErrors: [],
      version: {},
    };
    return emit([{ file: file.display, outcome, written: false }], 1);
  }
}

function runOperation(op: string, doc: ReturnType<typeof openState>, targets: string[], flags: { all: boolean; force: boolean; targetDependents: boolean }): SurgeryOutcome {
  switch (op) {
    case 'remove':
      return removeResources(doc, targets, { all: flags.all, force: flags.force, targetDependents: flags.targetDependents });
    case 'protect':
    case 'unprotect':
    case 'taint':
    case 'untaint':
      return setFlag(doc, op, targets, { all: flags.all });
    case 'rename':
      return renameResource(doc, targets[0], targets[1]);
    case 'repair':
      return repairState(doc);
    case 'clear-pending':
      return clearPending(doc, targets);
    default:
      throw new UsageError(`unknown state command "${op}"`);
  }
}
