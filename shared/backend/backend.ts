/**
 * A Pulumi DIY backend read whole, through a store (store.ts): its layout (`meta.yaml`), its
 * projects and stacks with their files, history entries and checkpoints, backups and locks. Paths
 * and shapes are pkg/backend/diy's (store.go, state.go, meta.go, lock.go) at v3.274.1; history
 * entries are listed as `getHistory` lists them: by file name, newest first, only `.history.json`
 * files read. Every file type may be gzip or zstd, recognised by its magic bytes and inflated under
 * the shared limit. A file that cannot be read is a problem naming it; the listing goes on. Not
 * `meta.yaml` (meta.ts): one Pulumi refuses is a BackendError naming it, as Pulumi stops there too.
 */
import * as l10n from '@vscode/l10n';
import { compressionOf, decodeFile, InflateBudgetError, InflateLimitError, type Compression, type InflateBudget } from '../text/inflate';
import { readMetaYaml } from './meta';
import { isObject } from '../state/vocabulary';
import { listAll, objectUrl, readBytes, StoreError, StoreMissing, type BackendStore, type StoreObject } from './store';

type BackendLayout = 'project' | 'legacy';

/** Something of the backend that could not be read, and why; the rest is listed. */
export interface BackendProblem {
  file: string;
  message: string;
}

interface LockHolder {
  file: string;
  pid?: number;
  username?: string;
  hostname?: string;
  timestamp?: string;
}

interface BackendStackFile extends StoreObject {
  /** By the file's magic bytes; undefined when plain (or unreadable). */
  compression?: Compression;
}

export interface BackendStack {
  /** As Pulumi names it: `organization/<project>/<stack>`, or the bare name in a legacy layout. */
  ref: string;
  project?: string;
  name: string;
  /** The stack file Pulumi reads: of several (`.json`, `.json.gz`, `.json.zst`), the most recently modified. */
  file?: BackendStackFile;
  /** History entries (`.history.json`) by their `<UnixNano>`, oldest first. */
  historyIds: string[];
  /** Checkpoints whose history entry is missing. */
  orphanCheckpoints: string[];
  /** Backup files (`.pulumi/backups/…`), oldest first. */
  backups: string[];
  /** The `.bak` beside the stack file, when there is one. */
  bak?: string;
  /** Lock files in the stack's lock folder: while one is there, Pulumi refuses to update the stack. */
  locks: LockHolder[];
  /** The history folder's objects as the backend's listing found them (readHistory's `fromListing`). */
  historyObjects?: StoreObject[];
}

export interface Backend {
  url: string;
  layout: BackendLayout;
  /** `meta.yaml`'s version (0 when absent). */
  metaVersion: number;
  stacks: BackendStack[];
  problems: BackendProblem[];
}

const STACK_FILE = /^(.+)\.json(\.gz|\.zst)?$/;
/** What legacyReferenceStore.ListReferences counts as a stack: a file right in `.pulumi/stacks/`, `.json` or `.yaml`, maybe compressed, with a stack's name. */
const LEGACY_STACK_FILE = /^\.pulumi\/stacks\/[A-Za-z0-9_.-]+\.(json|yaml)(\.gz|\.zst)?$/;
const HISTORY_FILE = /^(.+)-(\d+)\.(history|checkpoint)\.json(\.gz|\.zst)?$/;

/** Not state: gocloud's sidecar attributes and its temporaries (`<file>.<hex>.tmp`). */
const isStoreArtifact = (name: string) => name.endsWith('.attrs') || /\.[0-9a-f]+\.tmp$/.test(name);

/** The backend is not one (`missing`: no `.pulumi/` at all), or its layout is one this version of Pulumi refuses. */
export class BackendError extends Error {
  constructor(
    message: string,
    readonly missing = false,
  ) {
    super(message);
  }
}

const META = '.pulumi/meta.yaml';

/**
 * `meta.yaml`'s version (meta.go's readPulumiMeta), undefined when there is none. A file that is
 * there but cannot be read (a folder, a FIFO, unreadable), is corrupt, or has a version Pulumi
 * refuses, is a BackendError naming it: Pulumi stops there too, and guessing the layout would show
 * no stacks, or let an upgrade write over it.
 */
async function readMeta(store: BackendStore, objects: StoreObject[]): Promise<number | undefined> {
  const where = objectUrl(store.url, META);
  if (!objects.some((o) => o.name === META)) {
    // Not listed: absent, or something that is no file (a folder, a FIFO), which a store that can say so names.
    const present = await store.read(META, { length: 1 }).then(
      () => true,
      (error: unknown) => (error instanceof StoreMissing ? false : error instanceof StoreError ? true : Promise.reject(error)),
    );
    if (!present) return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = (await store.read(META)).bytes;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    throw new BackendError(l10n.t('{0} cannot be read ({1}); Pulumi cannot open this backend either', where, error.message));
  }
  const reading = readMetaYaml(bytes);
  if ('corrupt' in reading) throw new BackendError(l10n.t('{0} is corrupt: {1}; Pulumi refuses this backend too ("corrupt store")', where, reading.corrupt));
  if (reading.version < 0 || reading.version > 1)
    throw new BackendError(l10n.t('{0}: .pulumi/meta.yaml has version {1}; Pulumi v3.274.1 (and quota-state) read versions 0 and 1', store.url, reading.version));
  return reading.version;
}

/** How a backend's compressed files are inflated: at most this many bytes each (default `MAX_FILE_BYTES`), and all of them within the command's budget. */
export interface BackendReadOptions {
  maxInflatedBytes?: number;
  budget?: InflateBudget;
}

/**
 * The most a history entry or lock file may hold, compressed or not. Pulumi's are small metadata
 * (a history entry is about a kilobyte: the update's kind, times, message, environment and config),
 * so a larger one is refused before it costs what a stack file may.
 */
const MAX_METADATA_BYTES = 16 * 1024 * 1024;

/** A history entry's or lock file's text, within `MAX_METADATA_BYTES` (or the caller's lower limit) and the command's budget. */
function decodeMetadata(bytes: Uint8Array, file: string, options: BackendReadOptions): string {
  const maxBytes = Math.min(options.maxInflatedBytes ?? MAX_METADATA_BYTES, MAX_METADATA_BYTES);
  if (bytes.length > maxBytes) throw new InflateLimitError(file, maxBytes, l10n.t('{0} is larger than {1}, the limit for a history entry or lock file', file, `${maxBytes / 1024 / 1024} MiB`));
  return decodeFile(bytes, { name: file, maxBytes, budget: options.budget }).text;
}

/**
 * The listing of the backend's objects: all of `.pulumi/`, or with `only` (a stack named by its
 * project and name) just that stack's files in the project layout, which a bucket of a thousand
 * stacks answers in a few requests instead of dozens of pages; undefined when `only` finds nothing.
 */
async function listObjects(store: BackendStore, only: { project: string; name: string } | undefined): Promise<StoreObject[] | undefined> {
  if (!only) return (await listAll(store, '.pulumi/')).filter((o) => !isStoreArtifact(o.name));
  const folder = `${only.project}/${only.name}`;
  const prefixes = ['.pulumi/meta.yaml', `.pulumi/stacks/${only.project}/${only.name}.json`, `.pulumi/history/${folder}/`, `.pulumi/backups/${folder}/`, `.pulumi/locks/organization/${folder}/`];
  const objects = (await Promise.all(prefixes.map((prefix) => listAll(store, prefix)))).flat().filter((o) => !isStoreArtifact(o.name));
  return objects.some((o) => o.name.startsWith('.pulumi/stacks/')) && objects.some((o) => o.name === '.pulumi/meta.yaml') ? objects : undefined;
}

/**
 * Reads the backend's layout and every stack's files (listing only: no stack file is read). With
 * `only`, reads just that stack when the backend has it in the project layout (its `stacks` then
 * hold that one); otherwise the whole backend.
 */
export async function readBackend(
  store: BackendStore,
  /** `asLegacy`: read the legacy stacks whatever meta.yaml says (an upgrade that stopped halfway left them beside version 1). */
  options: BackendReadOptions & { only?: { project: string; name: string }; asLegacy?: boolean } = {},
): Promise<Backend> {
  const problems: BackendProblem[] = [];
  const objects = (await listObjects(store, options.only)) ?? (await listObjects(store, undefined))!;
  if (objects.length === 0) throw new BackendError(l10n.t('{0} is not a Pulumi DIY backend: it has no .pulumi folder', store.url), true);
  const meta = await readMeta(store, objects);
  // meta.go: without meta.yaml, a bucket holding a legacy stack file (`.pulumi/stacks/<name>.json`) is the legacy layout, any other the project layout.
  const effective: BackendLayout = !options.asLegacy && (meta === 1 || (meta === undefined && !objects.some((o) => LEGACY_STACK_FILE.test(o.name)))) ? 'project' : 'legacy';
  const metaVersion = meta ?? 0;
  const stacks = collectStacks(objects, effective);
  // The locks are in the listing already; each stack then costs one small read (its magic bytes), a few at a time.
  await mapBounded(stacks, READ_CONCURRENCY, (stack) => readLocksAndCompression(store, stack, objects, problems, options));
  return { url: store.url, layout: effective, metaVersion, stacks: stacks.sort((a, b) => a.ref.localeCompare(b.ref)), problems };
}

/** Where a stack's files live, relative to `.pulumi/<area>/`: `<project>/<stack>` or `<stack>`. */
function stackFolder(stack: Pick<BackendStack, 'project' | 'name'>): string {
  return stack.project ? `${stack.project}/${stack.name}` : stack.name;
}

function collectStacks(objects: StoreObject[], layout: BackendLayout): BackendStack[] {
  const byRef = new Map<string, BackendStack>();
  const stackOf = (project: string | undefined, name: string): BackendStack => {
    const ref = project ? `organization/${project}/${name}` : name;
    let stack = byRef.get(ref);
    if (!stack) byRef.set(ref, (stack = { ref, project, name, historyIds: [], orphanCheckpoints: [], backups: [], locks: [] }));
    return stack;
  };
  const depth = layout === 'project' ? 5 : 4; // .pulumi/<area>/[<project>/]<stack>/<file>
  const checkpoints = new Map<BackendStack, Set<string>>();
  for (const object of objects) {
    const parts = object.name.split('/');
    const [, area] = parts;
    if (area === 'stacks' && parts.length === depth - 1) {
      const match = STACK_FILE.exec(parts[parts.length - 1]);
      if (!match) continue; // `.bak`, retained `<file>.<UnixNano>` checkpoints
      const stack = stackOf(layout === 'project' ? parts[2] : undefined, match[1]);
      if (!stack.file || object.modifiedMs > stack.file.modifiedMs) stack.file = { ...object };
    } else if (area === 'history' && parts.length === depth) {
      const match = HISTORY_FILE.exec(parts[parts.length - 1]);
      if (!match) continue;
      const stack = stackOf(layout === 'project' ? parts[2] : undefined, parts[parts.length - 2]);
      (stack.historyObjects ??= []).push(object);
      if (match[3] === 'history') stack.historyIds.push(match[2]);
      else checkpoints.set(stack, (checkpoints.get(stack) ?? new Set()).add(match[2]));
    } else if (area === 'backups' && parts.length === depth) {
      stackOf(layout === 'project' ? parts[2] : undefined, parts[parts.length - 2]).backups.push(object.name);
    }
  }
  for (const stack of byRef.values()) {
    stack.historyIds.sort(compareIds);
    stack.backups.sort();
    const entries = new Set(stack.historyIds);
    stack.orphanCheckpoints = [...(checkpoints.get(stack) ?? [])].filter((id) => !entries.has(id)).sort(compareIds);
    const bak = stack.file && `${stack.file.name}.bak`;
    if (bak && objects.some((o) => o.name === bak)) stack.bak = bak;
  }
  // Stacks with only history or backups are listed too: their stack file is gone.
  return [...byRef.values()];
}

/** The folder of a stack's Pulumi locks, `/`-terminated (lock.go's lockDir). */
export function stackLockFolder(stack: Pick<BackendStack, 'project' | 'name'>): string {
  return stack.project ? `.pulumi/locks/organization/${stack.project}/${stack.name}/` : `.pulumi/locks/${stack.name}/`;
}

/** `<UnixNano>` ids in time order (as numbers: a shorter id is older). */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** How many reads a listing has in flight at once: enough to hide a bucket's latency, few enough to keep memory flat. */
export const READ_CONCURRENCY = 16;

/** `task` of every item, in the items' order, with at most `limit` running at once. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await task(items[index]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function readLocksAndCompression(store: BackendStore, stack: BackendStack, objects: StoreObject[], problems: BackendProblem[], options: BackendReadOptions): Promise<void> {
  const folder = stackLockFolder(stack);
  for (const lock of objects.filter((o) => o.name.startsWith(folder) && o.name.endsWith('.json') && !o.name.slice(folder.length).includes('/'))) {
    stack.locks.push(await readLock(store, lock.name, problems, options));
  }
  if (stack.file) {
    try {
      const head = await readBytes(store, stack.file.name, { length: 4 });
      stack.file.compression = compressionOf(head);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      problems.push({ file: stack.file.name, message: error.message });
    }
  }
}

/** A lock file: `{"pid","username","hostname","timestamp"}` (lock.go's lockContent). */
async function readLock(store: BackendStore, name: string, problems: BackendProblem[], options: BackendReadOptions): Promise<LockHolder> {
  try {
    const value = JSON.parse(decodeMetadata(await readBytes(store, name), name, options)) as Record<string, unknown>;
    return {
      file: name,
      ...(typeof value.pid === 'number' ? { pid: value.pid } : {}),
      ...(typeof value.username === 'string' ? { username: value.username } : {}),
      ...(typeof value.hostname === 'string' ? { hostname: value.hostname } : {}),
      ...(typeof value.timestamp === 'string' ? { timestamp: value.timestamp } : {}),
    };
  } catch (error) {
    if (error instanceof InflateBudgetError) throw error;
    problems.push({ file: name, message: l10n.t('an unreadable lock file: {0}', error instanceof Error ? error.message : String(error)) });
    return { file: name };
  }
}

/** The history folder of a stack, relative to the backend root. */
function historyFolder(stack: Pick<BackendStack, 'project' | 'name'>): string {
  return `.pulumi/history/${stackFolder(stack)}/`;
}

/** `organization/<project>/<stack>`, `<project>/<stack>` or a bare `<stack>` (its project from `Pulumi.yaml`), as the DIY backend parses it. */
export function findStack(backend: Backend, reference: string, projectOfCwd: string | undefined): BackendStack | undefined {
  const parts = reference.split('/');
  if (backend.layout === 'legacy') return parts.length === 1 ? backend.stacks.find((s) => s.name === reference) : undefined;
  const [project, name] =
    parts.length === 3 && parts[0] === 'organization' ? [parts[1], parts[2]] : parts.length === 2 ? [parts[0], parts[1]] : parts.length === 1 ? [projectOfCwd, parts[0]] : [undefined, undefined];
  return backend.stacks.find((s) => s.project === project && s.name === name);
}

/** One update of a stack: Pulumi's `pulumi stack history --json` fields, plus our stable `id` and `version`. */
export interface HistoryEntry {
  /** The entry's `<UnixNano>`, from its file name: stable across prunes. */
  id: string;
  /** 1 for the oldest entry present, counting up (DIY stores 0 for every entry). */
  version: number;
  kind: string;
  /** RFC 3339, as `pulumi stack history --json` prints it (`2026-11-28T05:38:13.000Z`). */
  startTime: string;
  endTime?: string;
  message: string;
  environment: Record<string, string>;
  config: Record<string, unknown>;
  result?: string;
  resourceChanges?: Record<string, number>;
  /** The entry's file, and its checkpoint's (absent: the checkpoint is missing). */
  file: string;
  checkpoint?: string;
}

/** Pulumi's `cmd.FormatTime`: `2006-01-02T15:04:05.000Z07:00` of a Unix time in seconds, in UTC. */
function formatHistoryTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/**
 * The stack's history, newest first (at most `limit` entries): each `.history.json` read, never its
 * checkpoint. An entry that cannot be read is a problem naming its file, and the others are listed.
 */
export async function readHistory(
  store: BackendStore,
  stack: BackendStack,
  options: BackendReadOptions & { limit?: number; fromListing?: boolean } = {},
): Promise<{ entries: HistoryEntry[]; problems: BackendProblem[] }> {
  const folder = historyFolder(stack);
  // With `fromListing`, the backend's own listing (just read) stands for the folder's: no second listing per stack.
  const listed = options.fromListing && stack.historyObjects ? stack.historyObjects : await listAll(store, folder);
  const objects = listed.filter((o) => !isStoreArtifact(o.name) && !o.name.slice(folder.length).includes('/'));
  const files = new Map<string, { history?: string; checkpoint?: string }>();
  for (const object of objects) {
    const match = HISTORY_FILE.exec(object.name.slice(folder.length));
    if (!match || match[1] !== stack.name) continue;
    const slot = files.get(match[2]) ?? {};
    slot[match[3] as 'history' | 'checkpoint'] = object.name;
    files.set(match[2], slot);
  }
  const ids = [...files.keys()].filter((id) => files.get(id)!.history).sort(compareIds);
  const versions = new Map(ids.map((id, index) => [id, index + 1]));
  const newestFirst = ids.reverse().slice(0, options.limit && options.limit > 0 ? options.limit : undefined);
  const problems: BackendProblem[] = [];
  const read = await mapBounded(newestFirst, READ_CONCURRENCY, (id) => readEntry(store, id, versions.get(id)!, files.get(id)!, problems, options));
  return { entries: read.filter((entry): entry is HistoryEntry => entry !== undefined), problems };
}

async function readEntry(
  store: BackendStore,
  id: string,
  version: number,
  slot: { history?: string; checkpoint?: string },
  problems: BackendProblem[],
  options: BackendReadOptions,
): Promise<HistoryEntry | undefined> {
  const file = slot.history!;
  let value: unknown;
  try {
    const text = decodeMetadata(await readBytes(store, file), file, options);
    if (text.trim() === '') throw new Error(l10n.t('the file is empty'));
    value = JSON.parse(text);
  } catch (error) {
    // The command's budget is spent: the command stops, not just this entry.
    if (error instanceof InflateBudgetError) throw error;
    problems.push({ file, message: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ file, message: l10n.t('is not a history entry (a JSON object)') });
    return undefined;
  }
  const info = value as Record<string, unknown>;
  const text = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : '');
  const seconds = (key: string) => (typeof info[key] === 'number' ? (info[key] as number) : 0);
  const result = text('result');
  const entry: HistoryEntry = {
    id,
    version,
    kind: text('kind'),
    startTime: formatHistoryTime(seconds('startTime')),
    message: text('message'),
    environment: isObject(info.environment) ? (info.environment as Record<string, string>) : {},
    config: isObject(info.config) ? configAsPulumiPrintsIt(info.config) : {},
    file,
    ...(slot.checkpoint ? { checkpoint: slot.checkpoint } : {}),
  };
  if (result) entry.result = result;
  // As buildUpdatesJSON: an update still in progress has no end and no changes yet.
  if (result !== 'in-progress') {
    entry.endTime = formatHistoryTime(seconds('endTime'));
    entry.resourceChanges = isObject(info.resourceChanges) ? (info.resourceChanges as Record<string, number>) : {};
  }
  return entry;
}

/** The JSON `pulumi stack history --json` prints for each config value (configValueJSON), without `--show-secrets`. */
function configAsPulumiPrintsIt(config: Record<string, unknown>): Record<string, { value?: string; objectValue?: unknown; secret: boolean }> {
  const printed: Record<string, { value?: string; objectValue?: unknown; secret: boolean }> = {};
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string') printed[key] = { value, secret: false };
    else if (holdsSecret(value)) printed[key] = { secret: true };
    else printed[key] = { value: goJson(value), objectValue: value, secret: false };
  }
  return printed;
}

const holdsSecret = (value: unknown): boolean =>
  isObject(value) ? (Object.keys(value).length === 1 && typeof value.secure === 'string' ? true : Object.values(value).some(holdsSecret)) : Array.isArray(value) && value.some(holdsSecret);

/** JSON as Go's encoding/json writes a decoded value: compact, object keys sorted. */
function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${goJson(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
