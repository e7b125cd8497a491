/**
 * `quota-state restore STACK --to VERSION|ID|FILE`: a DIY stack's current state becomes an earlier
 * version (a history checkpoint), a backup or any state document, as `pulumi stack import` of that
 * document would make it (pkg/cmd/pulumi/stack/io.go's SaveSnapshot, diy's ImportDeployment):
 * refused when the document has integrity errors or resources of another stack (unless
 * --allow-errors, Pulumi's --force), its pending operations dropped and named, written as a
 * checkpoint of this stack with no history entry. Ours beside Pulumi's: the stack file keeps its
 * compression, FILE.bak keeps what was replaced, and the write (through the one stack writer, as every
 * write of a stack) holds Pulumi's lock and happens only if the stack file is still the one read.
 * Exit codes: 0 restored (or shown, with --dry-run); 1 refused, or no such stack or version; 2 usage
 * error or unreadable input.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStateService } from '../../shared/state';
import { createBackendService, RestoreError, StackLockedError, StoreConflict, type BackendStack, type RestorePlan, type StateDiff } from '../../shared/backend';
import { compressionOf } from '../../shared/text/inflate';
import { InputError, UsageError } from '../args';
import { commandArguments, displayPath, formatFlag, readDocumentOrFail, type CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { compressAs, decode, Refusal, refuseIfReadOnly, refuseIfUnwritable, type DecodedFile } from '../stateFiles';
import { openBackend, openStack, readStackState, scopeOf, type Opened } from '../backendAccess';
import { backendTarget, readTargets, refuseIfTargetsLocked, withTargetWrites, type StackTarget } from '../stackTargets';
import { openStateSecrets, requirePassphraseToShow } from '../secretsAccess';
import { rekeyRestored } from '../restoreSecrets';

const state = createStateService();
const backends = createBackendService();

export const RESTORE_USAGE = `Usage:
  quota-state restore STACK --to VERSION|ID|FILE [--backend URL] [--dry-run [--show-secrets]] [--allow-errors] [--break-lock] [--stale-after DURATION] [--format text|json]

Makes a DIY stack's current state an earlier one, as \`pulumi stack import\` of it would: VERSION and
ID name a history entry (\`quota-state history\` lists them), FILE any state document (a backup, an
export, a checkpoint; plain, gzip or zstd). As Pulumi does, it refuses a document with integrity
errors or with resources of another stack, drops pending operations (naming each), and writes no
history entry. A document sealed under another passphrase salt than the stack's has its secrets
re-encrypted to the stack's (the passphrase of PULUMI_CONFIG_PASSPHRASE or _FILE needed; without it,
refused unless --allow-errors). The stack file keeps its compression; FILE.bak keeps what it replaced; the write
holds Pulumi's lock, and happens only if the stack file did not change since it was read.

  --dry-run       show what would change (as \`quota-state diff\`), write nothing
  --show-secrets  with --dry-run: a changed secret shows its old and new values (as \`quota-state diff
                  --show-secrets\`: the passphrase of PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE)
  --allow-errors  restore a document with integrity errors or another stack's resources (Pulumi's --force)
  --break-lock    remove the stack's Pulumi lock files first, naming each
  --stale-after DURATION
                  a lock this old is stale whoever holds it (default 1h); a refusal says which locks are stale
  --format text|json

Exit codes: 0 restored or shown, 1 refused (or no such stack or version), 2 usage error or unreadable input.`;

const FLAGS = { backend: 'value', to: 'value', 'dry-run': 'boolean', 'show-secrets': 'boolean', 'allow-errors': 'boolean', 'break-lock': 'boolean', 'stale-after': 'value', format: 'value' } as const;

interface RestoreReport {
  stack: string;
  from: string;
  /** The history entry restored, when --to named one: its id, and its version when read. */
  entry?: { id: string; version: number };
  summary?: string;
  /** Why the replaced stack file could not be read (truncated, a bomb): its bytes are the `.bak` as they were. */
  damaged?: string;
  droppedPendingOperations: string[];
  /** Ciphertexts re-encrypted from the document's salt to the stack's (restoreSecrets.ts). */
  reencryptedSecrets?: number;
  written: boolean;
  backup?: string;
  refused?: string[];
}

/** A history entry `--to` named: resolved to its id before the lock, and confirmed under it (a prune renumbers versions). */
interface NamedEntry {
  id: string;
  version: number;
  /** Named by its version (a position), not by its id. */
  byVersion: boolean;
}

/** Ways in for the tests. */
export interface RestoreHooks {
  /** Called once --to is resolved and read, before any lock is taken (where a racing prune comes). */
  resolved?(): void | Promise<void>;
}

/** The document `--to` names: a file that exists, else a version or an id of the stack's history (read by its id). */
async function sourceOf(to: string, opened: Opened, stack: BackendStack, io: CliIO): Promise<{ text: string; display: string; entry?: NamedEntry } | number> {
  const file = resolve(io.cwd, to);
  if (existsSync(file)) return { text: readDocumentOrFail(file, io, displayPath(io.cwd, file)).text, display: displayPath(io.cwd, file) };
  if (!/^[0-9]+$/.test(to)) throw new UsageError(`--to "${to}" is neither a file nor a version or id (\`quota-state history ${stack.ref}\` lists them)`);
  // A <UnixNano> id has 19 digits; a version counts the entries present (readStackState's rule).
  const byVersion = to.length < 10;
  const { entries } = await backends.history(opened.store, stack, { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget });
  const entry = entries.find((e) => (byVersion ? String(e.version) === to : e.id === to));
  // No such entry: readStackState says so, as `diff` and `history` do.
  if (!entry) return readStackState(opened, stack, io, to);
  const read = await readStackState(opened, stack, io, entry.id);
  return typeof read === 'number' ? read : { ...read, entry: { id: entry.id, version: entry.version, byVersion } };
}

/** Under the stack's lock: the entry read is still there, at the version it was named by; else a refusal naming both. */
async function confirmEntry(opened: Opened, stack: BackendStack, entry: NamedEntry): Promise<void> {
  const { entries } = await backends.history(opened.store, stack, { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget });
  const now = entries.find((e) => e.id === entry.id);
  if (now && (!entry.byVersion || now.version === entry.version)) return;
  const named = entry.byVersion ? `version ${entry.version} of ${stack.ref} was entry ${entry.id} when it was read` : `entry ${entry.id} (version ${entry.version}) of ${stack.ref} was read`;
  const change = now ? `that entry is now version ${now.version} (the history changed meanwhile, as a prune renumbers it)` : 'that entry is gone (pruned meanwhile)';
  throw new Refusal(`${named}, but ${change}; nothing was written. \`quota-state history ${stack.ref}\` lists the versions now`);
}

/** How a restore names its source: the document, and the entry when --to named one. */
const sourceName = (run: { source: { display: string }; report: RestoreReport }) =>
  run.report.entry ? `${run.source.display} (version ${run.report.entry.version}, entry ${run.report.entry.id})` : run.source.display;

/** Says, once the write is done, that the replaced file was damaged and where its bytes are. */
function warnDamaged(report: RestoreReport, io: CliIO): void {
  if (report.damaged) io.stderr(`warning: ${report.damaged}: the stack file was damaged, and was replaced; its bytes are kept unchanged in ${report.backup}`);
}

export async function restore(args: string[], io: CliIO, hooks: RestoreHooks = {}): Promise<number> {
  const parsed = commandArguments(RESTORE_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length !== 1) throw new UsageError('restore takes one STACK');
  const to = parsed.flags.to;
  if (to === undefined) throw new UsageError('restore needs --to VERSION, ID or FILE');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  staleAfterFlag(parsed.flags['stale-after']); // a bad duration is a usage error before anything is read
  if (parsed.booleans.has('show-secrets')) {
    if (!parsed.booleans.has('dry-run')) throw new UsageError('--show-secrets goes with --dry-run: a restore shows no changes');
    requirePassphraseToShow(io);
  }
  const opened = await openBackend(parsed.flags.backend, io, scopeOf(parsed.positional[0]));
  if (typeof opened === 'number') return opened;
  const stack = openStack(opened, parsed.positional[0], io);
  if (stack === 1) return 1;
  if (!stack.file) {
    io.stderr(`quota-state: the stack "${stack.ref}" in ${opened.backend.url} has no stack file to restore into`);
    return 1;
  }
  const source = await sourceOf(to, opened, stack, io);
  if (typeof source === 'number') return source;
  await hooks.resolved?.();
  const snapshot = state.parse(source.text);
  if (snapshot.parsedWith !== 'json') throw new InputError(`${source.display} is not valid JSON; \`quota-state check\` shows where`);
  let plan: RestorePlan;
  try {
    plan = backends.planRestore(snapshot, stack, source.display);
  } catch (error) {
    if (error instanceof RestoreError) throw new InputError(error.message);
    throw error;
  }
  const entry = source.entry && { id: source.entry.id, version: source.entry.version };
  const report: RestoreReport = { stack: stack.ref, from: source.display, entry, droppedPendingOperations: plan.droppedPendingOperations, written: false };
  const say = (message?: string, toStderr = false) => {
    if (format === 'json') io.stdout(JSON.stringify(report, null, 2));
    else if (message) (toStderr ? io.stderr : io.stdout)(message);
    return report.refused ? 1 : 0;
  };
  const { checkpoint, problems } = plan;
  if (problems.length && !parsed.booleans.has('allow-errors')) {
    report.refused = problems;
    const listed = problems.map((p) => `  ${p}`).join('\n');
    return say(
      `quota-state: ${source.display} cannot be restored into ${stack.ref}; nothing was written:\n${listed}\nrestoring it could be dangerous; rerun with --allow-errors to restore it anyway (pulumi stack import --force)`,
      true,
    );
  }
  for (const problem of problems) io.stderr(`warning: ${problem} (--allow-errors)`);
  if (format === 'text') for (const dropped of report.droppedPendingOperations) io.stderr(`warning: ${dropped}`);
  const confirm = source.entry
    ? (
        (named: NamedEntry) => () =>
          confirmEntry(opened, stack, named)
      )(source.entry)
    : undefined;
  const target = backendTarget(opened, stack, io.cwd);
  return restoreInto(target, { checkpoint, plan, report, source, stack, parsed, io, say, confirm });
}

/** What the writer is given: the checkpoint, the report to fill, how to say it. */
interface RestoreRun {
  checkpoint: object;
  plan: RestorePlan;
  /** Under the lock, before anything is read or written: refuses when the history entry restored changed. */
  confirm?: () => Promise<void>;
  report: RestoreReport;
  source: { display: string };
  stack: BackendStack;
  parsed: { booleans: Set<string>; flags: Record<string, string | undefined> };
  io: CliIO;
  say: (message?: string, toStderr?: boolean) => number;
}

/** What restoring `checkpoint` changes in a current state's text; undefined (and `report.damaged` set) when that text is no JSON. */
function changesTo(checkpoint: object, report: RestoreReport, name: string): (current: string) => ReturnType<typeof backends.diff.states> | undefined {
  const restoredStructure = state.structureOf(checkpoint);
  return (current) => {
    try {
      return backends.diff.states(state.structureOf(JSON.parse(current)), restoredStructure);
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof RangeError)) throw error;
      report.damaged = `${name} is not a readable state (${error.message})`;
      return undefined;
    }
  };
}

/**
 * `--dry-run --show-secrets`: the changes with each side's ciphertexts opened by its own salt's key;
 * undefined when the current text is no JSON (summarize says so), a number the exit code (said on stderr).
 */
async function revealedChanges(current: string, run: RestoreRun, display: string): Promise<StateDiff | number | undefined> {
  let root: unknown;
  try {
    root = JSON.parse(current);
  } catch {
    return undefined;
  }
  const before = state.structureOf(root);
  const after = state.structureOf(structuredClone(run.checkpoint));
  for (const [structure, name] of [
    [before, display],
    [after, run.source.display],
  ] as const) {
    const code = await openStateSecrets(structure, name, run.io);
    if (code !== undefined) return code;
  }
  return backends.diff.states(before, after, { showSecrets: true });
}

const UNREADABLE = 'the state it replaces could not be read';

/**
 * The stack file's current text, decoded as `state` decodes it; one that cannot be decompressed
 * (truncated, a bomb) is no refusal: `report.damaged` says why, and its bytes become the `.bak` as they are.
 */
function currentOf(bytes: Uint8Array, run: RestoreRun, display: string): DecodedFile | undefined {
  try {
    return decode(bytes, display);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    run.report.damaged = error.message;
    return undefined;
  }
}

/**
 * Writes the checkpoint over the stack file through the one stack writer (Pulumi's lock, the `.bak`,
 * the write only if unchanged since the read), as Pulumi's ImportDeployment writes it: compressed as
 * the stack file was. With --dry-run, shows the changes instead (a locked stack is refused, and no
 * lock is taken or removed).
 */
async function restoreInto(target: StackTarget, run: RestoreRun): Promise<number> {
  const { report, io, say } = run;
  const rekeyed = async (file: DecodedFile | undefined) => {
    const context = { display: run.source.display, stack: run.stack.ref, allowErrors: run.parsed.booleans.has('allow-errors'), io };
    const result = await rekeyRestored(run.plan.text ?? JSON.stringify(run.checkpoint), file?.text, context);
    if (result.rekeyed) report.reencryptedSecrets = result.rekeyed;
    return new TextEncoder().encode(result.text);
  };
  const changes = changesTo(run.checkpoint, report, target.display);
  const options = cliLockOptions(run.parsed.booleans.has('break-lock'), staleAfterFlag(run.parsed.flags['stale-after']), io.stderr);
  const summarize = (file: DecodedFile | undefined) => {
    const diff = file && changes(file.text);
    report.summary = diff ? backends.diff.summary(diff) : UNREADABLE;
    return diff;
  };
  try {
    if (run.parsed.booleans.has('dry-run')) {
      await refuseIfTargetsLocked([target], options);
      const file = currentOf((await readTargets([target]))[0].bytes, run, target.display);
      await rekeyed(file);
      const revealed = run.parsed.booleans.has('show-secrets') && file ? await revealedChanges(file.text, run, target.display) : undefined;
      if (typeof revealed === 'number') return revealed;
      if (revealed) report.summary = backends.diff.summary(revealed);
      const diff = revealed ?? summarize(file);
      const shown = diff ? backends.diff.text(diff) : `${report.damaged}; it would be replaced, its bytes kept in ${target.displayOf(`${target.name}.bak`)}`;
      const note = report.reencryptedSecrets ? `\n(${report.reencryptedSecrets} secrets would be re-encrypted with the stack's salt)` : '';
      return say(`would restore ${run.stack.ref} from ${sourceName(run)} (nothing written):\n${shown}${note}`);
    }
    const { backups } = await withTargetWrites([target], options, async ([current]) => {
      await run.confirm?.();
      const file = currentOf(current.bytes, run, target.display);
      const compression = file?.compression ?? compressionOf(current.bytes) ?? 'none';
      if (target.path) refuseIfReadOnly(target.path, target.display);
      refuseIfUnwritable({ display: target.display, text: '', compression });
      const restored = await rekeyed(file);
      summarize(file);
      return { bytes: [compressAs(restored, compression)], value: undefined };
    });
    report.backup = backups[0];
    report.written = true;
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof StackLockedError || error instanceof StoreConflict)) throw error;
    report.refused = [error.message];
    return say(`quota-state: ${error.message}`, true);
  }
  if (formatOf(run) === 'text') warnDamaged(report, io);
  const rekeyedNote = report.reencryptedSecrets ? `; ${report.reencryptedSecrets} secrets re-encrypted with the stack's salt` : '';
  return say(`restored ${run.stack.ref} from ${sourceName(run)}: ${report.summary}${rekeyedNote}; the state it replaced is in ${report.backup}`);
}

const formatOf = (run: RestoreRun) => (run.parsed.flags.format === 'json' ? 'json' : 'text');
