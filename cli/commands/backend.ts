/**
 * `quota-state backend ls` and `quota-state history STACK`: a DIY backend read whole (its stacks,
 * their last update, locks and files) and one stack's history, newest first, through the backend
 * service's model over a `file://` folder or a bucket (opened by ../backendAccess.ts, which picks the
 * backend in Pulumi's order with shared/backend/url.ts).
 * Exit codes: 0 listed; 1 the backend or the stack does not exist; 2 usage error or unreadable input.
 */
import { createStateService } from '../../shared/state';
import {
  createBackendService,
  describeEntry,
  describeLock,
  judgeLock,
  lastUpdateText,
  listAll,
  readBytes,
  sizeText,
  type Backend,
  type BackendProblem,
  type BackendStack,
  type HistoryEntry,
} from '../../shared/backend';
import { decodeFile, InflateBudgetError } from '../../shared/text/inflate';
import { UsageError } from '../args';
import { openBackend, openStack, scopeOf, type Opened } from '../backendAccess';
import { commandArguments, formatFlag, type CliIO } from '../io';
import { cliStaleness, staleAfterFlag } from '../lockFlags';
import { PRUNE_USAGE, runPrune, runUpgrade, UPGRADE_USAGE } from './backendMaintenance';
import { listDeletedCommand } from './backendDeleted';
import { COPY_USAGE, runCopy } from './backendCopy';

const state = createStateService();
const backends = createBackendService();

export const BACKEND_USAGE = `Usage:
  quota-state backend ls [URL] [--backend URL] [--counts] [--deleted] [--stale-after DURATION] [--format text|json]

Lists a Pulumi DIY backend's stacks: each stack's last update (kind, result, time), its lock holders,
its file's size and compression, and how many history entries, checkpoints and backups it keeps.
The backend is, in Pulumi's order: URL or --backend, PULUMI_BACKEND_URL, the project's Pulumi.yaml
backend.url, the current backend of ~/.pulumi/credentials.json; else the nearest folder above the
working directory that holds .pulumi/. file:// folders and s3:// buckets are read (Pulumi's URLs:
s3://BUCKET[/PREFIX]?region=…&endpoint=…&use_path_style=true…; credentials from the AWS SDK's chain:
AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE or profile=, ~/.aws; a request waits at most
QUOTA_STATE_S3_TIMEOUT_SECONDS, default 30). A lock is marked stale when it was left on this
machine by a process that is no longer running, or when it is older than --stale-after (the
editor's quotaState.backends.staleLockAge, the same rule); any other lock may have a live holder.
Compressed files inflate to at most QUOTA_STATE_MAX_INFLATED_MIB MiB (default 256).

  --counts                 count each stack's resources and pending operations (reads every stack file)
  --deleted                list what \`quota-state stack restore-deleted\` can bring back: the entries of
                           .pulumi/deleted/ (stack rm, backend copy --move/--overwrite) and the stacks
                           Pulumi's own \`stack rm\` left a .bak or backups of
  --stale-after DURATION   a lock this old is stale whoever holds it: Go's units (90m, 1h30m) or days (2d); default 1h
  --format text|json       the listing's format (default text)

Exit codes: 0 listed, 1 no such backend, 2 usage error or unreadable input.`;

export const HISTORY_USAGE = `Usage:
  quota-state history STACK [--backend URL] [--limit N] [--format text|json]

Lists a stack's updates, newest first, as \`pulumi stack history --json --page-size 0\` does, with two
fields of ours: \`id\` (the entry's <UnixNano>, stable) and \`version\` (1 for the oldest entry present).
STACK is organization/<project>/<stack>, <project>/<stack>, or a bare name whose project is the
nearest Pulumi.yaml's (a legacy backend: bare names only). Only .history.json files are read.

  --backend URL       the backend (default: as \`quota-state backend ls\` finds it)
  --limit N           the newest N entries only
  --format text|json  the listing's format (default text)

Exit codes: 0 listed, 1 no such backend or stack, 2 usage error or unreadable input.`;

const FLAGS = { backend: 'value', counts: 'boolean', deleted: 'boolean', format: 'value', limit: 'value', 'stale-after': 'value' } as const;

function warn(io: CliIO, problems: BackendProblem[]): void {
  for (const problem of problems) io.stderr(`warning: ${problem.file}: ${problem.message}`);
}

/** Runs a subcommand whose usage errors print its own usage, not `backend ls`'s. */
async function withUsage(usage: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError && error.usage === undefined) throw new UsageError(error.message, usage);
    throw error;
  }
}

export async function runBackendCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('backend needs a command: ls, prune, upgrade or copy');
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(`${BACKEND_USAGE}\n\n${PRUNE_USAGE}\n\n${UPGRADE_USAGE}\n\n${COPY_USAGE}`);
    return 0;
  }
  if (sub === 'prune') return withUsage(PRUNE_USAGE, () => runPrune(rest, io));
  if (sub === 'upgrade') return withUsage(UPGRADE_USAGE, () => runUpgrade(rest, io));
  if (sub === 'copy') return withUsage(COPY_USAGE, () => runCopy(rest, io));
  if (sub !== 'ls') throw new UsageError(`unknown backend command "${sub}" (ls, prune, upgrade or copy)`);
  const parsed = commandArguments(BACKEND_USAGE, rest, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.flags.limit !== undefined) throw new UsageError('backend ls takes no --limit');
  if (parsed.positional.length > 1) throw new UsageError('backend ls takes at most one URL');
  if (parsed.positional.length === 1 && parsed.flags.backend !== undefined) throw new UsageError('give the backend as URL or as --backend, not both');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const staleAfterMs = staleAfterFlag(parsed.flags['stale-after']);
  const opened = await openBackend(parsed.positional[0] ?? parsed.flags.backend, io);
  if (typeof opened === 'number') return opened;
  if (parsed.booleans.has('deleted')) return listDeletedCommand(opened, format, io);
  // A few stacks at a time: a bucket of a thousand stacks is read with bounded requests and memory.
  const rows = await backends.eachStack(opened.backend.stacks, (stack) => stackRow(opened, stack, parsed.booleans.has('counts'), staleAfterMs));
  const problems = [...opened.backend.problems, ...rows.flatMap((row) => row.problems)];
  // An upgrade a crash stopped left its journal: say so, and what finishes it.
  const journal = backends.upgradeJournal;
  if ((await listAll(opened.store, journal)).some((object) => object.name === journal)) {
    problems.push({ file: journal, message: `an upgrade of this backend was interrupted; \`quota-state backend upgrade --backend ${opened.backend.url}\` finishes it` });
  } else if (opened.backend.layout === 'project') {
    const beside = (await listAll(opened.store, '.pulumi/stacks/')).filter((o) => /^\.pulumi\/stacks\/[^/]+\.(json|yaml)(\.gz|\.zst)?$/.test(o.name));
    for (const object of beside) {
      problems.push({
        file: object.name,
        message: `a legacy stack file beside meta.yaml version 1 (an upgrade stopped halfway), which Pulumi no longer reads; \`quota-state backend upgrade --backend ${opened.backend.url}\` moves it`,
      });
    }
  }
  if (format === 'json') {
    io.stdout(JSON.stringify({ backend: opened.backend.url, layout: opened.backend.layout, stacks: rows.map((row) => row.json), problems }, null, 2));
  } else {
    io.stdout(backendTable(opened.backend, rows));
    warn(io, problems);
  }
  return 0;
}

interface StackRow {
  name: string;
  project: string | null;
  stack: string;
  lastUpdate: Pick<HistoryEntry, 'kind' | 'result' | 'startTime' | 'endTime'> | null;
  locks: Array<BackendStack['locks'][number] & { stale?: true }>;
  file: { name: string; size: number; compression: string | null } | null;
  history: number;
  orphanCheckpoints: string[];
  backups: number;
  resources?: number;
  pendingOperations?: number;
}

/** A stack's row: its JSON, its locks in words (`user@host (pid N, stale)`), and what could not be read. */
interface Row {
  json: StackRow;
  locks: string;
  problems: BackendProblem[];
}

async function stackRow({ store, maxInflatedBytes, budget }: Opened, stack: BackendStack, counts: boolean, staleAfterMs: number): Promise<Row> {
  const { entries, problems } = await backends.history(store, stack, { limit: 1, maxInflatedBytes, budget, fromListing: true });
  const last = entries[0];
  // The one stale-lock rule (shared/backend/staleLock.ts): its process here is gone, or it is older than the limit.
  const staleness = cliStaleness(staleAfterMs);
  const judged = stack.locks.map((lock) => ({ lock, verdict: judgeLock(lock, staleness) }));
  const json: StackRow = {
    name: stack.ref,
    project: stack.project ?? null,
    stack: stack.name,
    lastUpdate: last ? { kind: last.kind, result: last.result, startTime: last.startTime, ...(last.endTime ? { endTime: last.endTime } : {}) } : null,
    locks: judged.map(({ lock, verdict }) => (verdict.stale ? { ...lock, stale: true as const } : lock)),
    file: stack.file ? { name: stack.file.name, size: stack.file.size, compression: stack.file.compression ?? null } : null,
    history: stack.historyIds.length,
    orphanCheckpoints: stack.orphanCheckpoints,
    backups: stack.backups.length,
  };
  if (counts && stack.file) {
    try {
      const { text } = decodeFile(await readBytes(store, stack.file.name), { name: stack.file.name, maxBytes: maxInflatedBytes, budget });
      const snapshot = state.parse(text);
      json.resources = snapshot.structure.resources.length;
      json.pendingOperations = state.surgery.pendingOperations({ snapshot }).length;
    } catch (error) {
      if (error instanceof InflateBudgetError) throw error;
      problems.push({ file: stack.file.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { json, locks: judged.map(({ lock, verdict }) => describeLock(lock, verdict, staleAfterMs).marked).join(', '), problems };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function backendTable(backend: Backend, listed: Row[]): string {
  const rows = listed.map((row) => row.json);
  const counts = rows.some((row) => row.resources !== undefined);
  const header = ['STACK', 'LAST UPDATE', 'LOCKS', 'FILE', 'HISTORY', ...(counts ? ['RESOURCES', 'PENDING'] : [])];
  const cells = rows.map((row, index) => [
    row.name,
    lastUpdateText(row.lastUpdate),
    listed[index].locks || '-',
    row.file ? `${sizeText(row.file.size)}${row.file.compression ? ` ${row.file.compression}` : ''}` : 'missing',
    `${row.history}${row.orphanCheckpoints.length ? ` (+${row.orphanCheckpoints.length} checkpoints without an entry)` : ''}`,
    ...(counts ? [row.resources === undefined ? '-' : String(row.resources), row.pendingOperations === undefined ? '-' : String(row.pendingOperations)] : []),
  ]);
  const title = `${backend.url} (${backend.layout} layout, ${rows.length} ${rows.length === 1 ? 'stack' : 'stacks'})`;
  return rows.length ? `${title}\n\n${table(header, cells)}` : `${title}\n\nno stacks`;
}

export async function runHistoryCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(HISTORY_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.booleans.has('counts')) throw new UsageError('history takes no --counts');
  if (parsed.flags['stale-after'] !== undefined) throw new UsageError('history takes no --stale-after');
  if (parsed.positional.length !== 1) throw new UsageError('history takes one STACK');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const limit = parsed.flags.limit === undefined ? undefined : Number(parsed.flags.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a whole number of at least 1, not "${parsed.flags.limit}"`);
  const reference = parsed.positional[0];
  const opened = await openBackend(parsed.flags.backend, io, scopeOf(reference));
  if (typeof opened === 'number') return opened;
  const stack = openStack(opened, reference, io);
  if (stack === 1) return 1;
  const { entries, problems } = await backends.history(opened.store, stack, { limit, maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget });
  const allProblems = [...opened.backend.problems, ...problems];
  if (format === 'json') {
    io.stdout(JSON.stringify({ stack: stack.ref, entries, orphanCheckpoints: stack.orphanCheckpoints, problems: allProblems }, null, 2));
    return 0;
  }
  io.stdout(historyTable(stack, entries));
  warn(io, allProblems);
  return 0;
}

function historyTable(stack: BackendStack, entries: HistoryEntry[]): string {
  const cells = entries.map((entry) => {
    const described = describeEntry(entry);
    return [String(entry.version), entry.kind, entry.result ?? '', entry.startTime, described.changes || '-', described.checkpoint, described.message];
  });
  const lines = [`${stack.ref}: ${entries.length} ${entries.length === 1 ? 'update' : 'updates'} listed, newest first`, ''];
  lines.push(entries.length ? table(['VERSION', 'KIND', 'RESULT', 'START', 'CHANGES', 'CHECKPOINT', 'MESSAGE'], cells) : 'no updates');
  for (const id of stack.orphanCheckpoints) lines.push(`checkpoint without its entry: ${id}`);
  return lines.join('\n');
}
