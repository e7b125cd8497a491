/**
 * `stack rm` and `stack restore-deleted`: a removed stack is kept, not deleted. `removeStack` refuses
 * as pulumi's RemoveStack does (pkg/backend/diy/backend.go, v3.274.1: a stack holding resources other
 * than its root `pulumi:pulumi:Stack`, unless forced), then under the stack's Pulumi lock copies every
 * object of the stack (stackObjects.ts) into the deleted area and removes the originals:
 *
 *     .pulumi/deleted/<project>/<stack>/<UnixNano>/manifest.json
 *     .pulumi/deleted/<project>/<stack>/<UnixNano>/stacks/<project>/<stack>.json …
 *     .pulumi/deleted/<project>/<stack>/<UnixNano>/history/<project>/<stack>/…
 *     .pulumi/deleted/<project>/<stack>/<UnixNano>/backups/<project>/<stack>/…
 *
 * (a legacy stack: `.pulumi/deleted/.legacy/<stack>/<UnixNano>/stacks/<stack>.json` …). Each object
 * keeps its name below `.pulumi/`. A removal is crash-safe: `manifest.json` is written first, marked
 * `removing` (the intent, naming every object), then each object is copied (the stack file last in),
 * then the originals go (the stack file first out: from then on Pulumi no longer sees the stack, and
 * the entry holds all of it), and the manifest is written again without the mark. At every point the
 * stack is whole where it was, or gone from Pulumi's view and whole in the entry. A rerun of the
 * removal (`stack rm`, or `backend copy --move`/`--overwrite` on that stack) finds the marked entry and
 * finishes it; until then it is listed as interrupted, never pruned nor restored. An entry without a
 * manifest is an interrupted restore or older removal (listed as such, and pruned). `restoreDeleted` writes them
 * back, history first and the stack file last, refused when the stack exists again; it also recovers
 * what Pulumi's own `stack rm` leaves (the stack file's `.bak` and `backups/`), saying what it could not.
 */
import * as l10n from '@vscode/l10n';
import { decodeFile } from '../text/inflate';
import { withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { areaFolderOf, inWriteOrder, stackFileIn, stackFolderKind, stackObjects, stacksFolderOf, type StackName, type StackObject, type StackObjectKind } from './stackObjects';
import { listAll, readIfPresent, StoreConflict, writeUnlessSame, type BackendStore, type WritableBackendStore } from './store';

const DELETED_AREA = '.pulumi/deleted/';
const LEGACY_PROJECT = '.legacy';

/** `.pulumi/deleted/<project>/<stack>/` */
function deletedFolderOf(stack: StackName): string {
  return `${DELETED_AREA}${stack.project ?? LEGACY_PROJECT}/${stack.name}/`;
}

interface Manifest {
  deleted: 1;
  stack: string;
  project?: string;
  name: string;
  /** When it was removed, RFC 3339. */
  time: string;
  by: { username: string; hostname: string; pid: number };
  /** Why: `stack rm`, `backend copy --move`, `backend copy --overwrite`. */
  reason: string;
  objects: Array<{ name: string; kind: StackObjectKind; size: number }>;
  /** Written first, before any object is copied: the removal is under way (or was interrupted) until the manifest is written again without it. */
  removing?: true;
}

/** One entry of the deleted area. */
export interface DeletedEntry {
  stack: string;
  project?: string;
  name: string;
  /** The entry's `<UnixNano>`. */
  id: string;
  folder: string;
  /** False: an interrupted removal or restore left it without its manifest, or its manifest says `removing`. */
  complete: boolean;
  /** An interrupted removal: its manifest says `removing`; rerunning the removal finishes it (never pruned, never restored). */
  removing?: true;
  time?: string;
  reason?: string;
  objects: number;
  bytes: number;
  historyEntries: number;
}

/** A stack Pulumi's own `stack rm` removed: its `.bak` and backups are left. */
export interface PulumiLeftover {
  stack: string;
  project?: string;
  name: string;
  bak?: string;
  backups: number;
}

const refOf = (stack: StackName) => (stack.project ? `organization/${stack.project}/${stack.name}` : stack.name);

/** The nanoseconds since the epoch as Pulumi writes them in file names. */
function unixNano(nowMs: number): string {
  return (BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(Math.floor((nowMs % 1) * 1_000_000))).toString();
}

/** The resources of a checkpoint's bytes (a stack file, compressed or not): undefined when it holds no deployment. */
export function checkpointResources(bytes: Uint8Array, name: string): Array<{ urn?: string; type?: string }> | undefined {
  const { text } = decodeFile(bytes, { name });
  const root = JSON.parse(text) as { checkpoint?: { latest?: { resources?: unknown } } };
  const resources = root?.checkpoint?.latest?.resources;
  return Array.isArray(resources) ? (resources as Array<{ urn?: string; type?: string }>) : undefined;
}

/** A removal or restore refused before anything was written: nothing to remove or restore, no such entry. */
export class DeletedRefusal extends Error {}

/** A stack that still holds resources: Pulumi's refusal, with its possible actions. */
export class StackHasResources extends DeletedRefusal {}

/** Pulumi's RemoveStack check: anything but a lone root stack resource refuses. */
function holdsResources(resources: Array<{ type?: string }> | undefined): boolean {
  if (!resources || resources.length === 0) return false;
  return resources.length > 1 || resources[0].type !== 'pulumi:pulumi:Stack';
}

export interface RemoveOptions extends StackLockOptions {
  identity: LockIdentity;
  force?: boolean;
  nowMs: number;
  reason?: string;
  /** Told after each object moved. */
  progress?(done: number, total: number, name: string): void;
}

/**
 * Moves every object of the stack into a new entry of the deleted area, holding its Pulumi lock.
 * Answers the entry's folder and the objects moved. `underLock`: the caller's own work before (a
 * copy's verification), run once the lock is held.
 */
export async function removeStack(store: WritableBackendStore, stack: StackName, options: RemoveOptions): Promise<RemoveOutcome> {
  return withStackLocks(store, [stack], options.identity, options, () => removeStackLocked(store, stack, options));
}

/** What a removal answers: the entry, the objects it holds, and whether it finished an interrupted removal. */
export interface RemoveOutcome {
  folder: string;
  moved: StackObject[];
  /** An interrupted removal of this stack was found (its entry's manifest says `removing`) and finished into its entry. */
  resumed?: true;
}

/** The newest entry of the stack whose manifest says `removing`: an interrupted removal. */
async function interruptedRemoval(store: BackendStore, stack: StackName): Promise<{ folder: string; manifest: Manifest } | undefined> {
  const entry = (await listDeleted(store, stack)).filter((e) => e.removing && e.project === stack.project && e.name === stack.name).pop();
  const manifest = entry && (await readManifest(store, entry.folder));
  return entry && manifest ? { folder: entry.folder, manifest } : undefined;
}

const writeManifest = (store: WritableBackendStore, folder: string, manifest: Manifest) => store.write(`${folder}manifest.json`, new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`));

/** `removeStack` for a caller that holds the stack's lock already; finishes an interrupted removal of the stack first-hand. */
export async function removeStackLocked(store: WritableBackendStore, stack: StackName, options: RemoveOptions): Promise<RemoveOutcome> {
  const pending = await interruptedRemoval(store, stack);
  const objects = await stackObjects(store, stack);
  const file = stackFileIn(objects);
  if (!options.force && file) {
    const stored = await readIfPresent(store, file.name);
    if (stored && holdsResources(checkpointResources(stored.bytes, file.name))) {
      throw new StackHasResources(
        l10n.t(
          "'{0}' still has resources; removal rejected. Possible actions:\n- Make sure that '{0}' is the stack that you want to destroy\n- Run `pulumi destroy` to delete the resources, then run `quota-state stack rm`\n- Run `quota-state stack rm --force` to override this error",
          refOf(stack),
        ),
      );
    }
  }
  if (objects.length === 0 && !pending) throw new DeletedRefusal(l10n.t('{0} has no files in {1}: nothing to remove', refOf(stack), store.url));
  const folder = pending?.folder ?? `${deletedFolderOf(stack)}${unixNano(options.nowMs)}/`;
  // Interrupted once its stack file was gone: the entry holds all of it, and what is left here only goes.
  const deleting = pending !== undefined && !file;
  const manifest: Manifest = {
    deleted: 1,
    stack: refOf(stack),
    ...(stack.project ? { project: stack.project } : {}),
    name: stack.name,
    time: pending?.manifest.time ?? new Date(options.nowMs).toISOString(),
    by: { username: options.identity.username, hostname: options.identity.hostname, pid: options.identity.pid },
    reason: pending?.manifest.reason ?? options.reason ?? 'stack rm',
    objects: deleting ? pending.manifest.objects : objects.map((o) => ({ name: o.name, kind: o.kind, size: o.size })),
    removing: true,
  };
  // The intent first: a crash from here on leaves an entry a rerun finishes.
  if (!deleting) await writeManifest(store, folder, manifest);
  let done = 0;
  for (const object of objects) {
    await writeUnlessSame(store, `${folder}${object.name.slice('.pulumi/'.length)}`, (await store.read(object.name)).bytes);
    options.progress?.(++done, objects.length * 2, object.name);
  }
  // The stack file first: from here Pulumi no longer sees the stack; then the rest, the history last.
  for (const object of [...objects].reverse()) {
    await store.delete(object.name);
    options.progress?.(++done, objects.length * 2, object.name);
  }
  delete manifest.removing;
  await writeManifest(store, folder, manifest);
  const moved = deleting ? manifest.objects.map((o) => ({ ...o, modifiedMs: 0 })) : objects;
  return { folder, moved, ...(pending ? { resumed: true as const } : {}) };
}

async function readManifest(store: BackendStore, folder: string): Promise<Manifest | undefined> {
  const stored = await readIfPresent(store, `${folder}manifest.json`);
  if (!stored) return undefined;
  try {
    const manifest = JSON.parse(new TextDecoder().decode(stored.bytes)) as Manifest;
    return manifest.deleted === 1 && Array.isArray(manifest.objects) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Every entry of the deleted area (of one stack, when given), oldest first. */
export async function listDeleted(store: BackendStore, stack?: StackName): Promise<DeletedEntry[]> {
  const prefix = stack ? deletedFolderOf(stack) : DELETED_AREA;
  const objects = await listAll(store, prefix);
  const byFolder = new Map<string, { project?: string; name: string; id: string; objects: typeof objects }>();
  for (const object of objects) {
    const parts = object.name.slice(DELETED_AREA.length).split('/');
    if (parts.length < 4 || !/^\d+$/.test(parts[2])) continue;
    const folder = `${DELETED_AREA}${parts[0]}/${parts[1]}/${parts[2]}/`;
    const slot = byFolder.get(folder) ?? { project: parts[0] === LEGACY_PROJECT ? undefined : parts[0], name: parts[1], id: parts[2], objects: [] };
    slot.objects.push(object);
    byFolder.set(folder, slot);
  }
  const entries: DeletedEntry[] = [];
  for (const [folder, slot] of byFolder) {
    const manifest = slot.objects.some((o) => o.name === `${folder}manifest.json`) ? await readManifest(store, folder) : undefined;
    const held = slot.objects.filter((o) => o.name !== `${folder}manifest.json`);
    entries.push({
      stack: refOf(slot),
      ...(slot.project ? { project: slot.project } : {}),
      name: slot.name,
      id: slot.id,
      folder,
      complete: manifest !== undefined && !manifest.removing,
      ...(manifest?.removing ? { removing: true as const } : {}),
      ...(manifest ? { time: manifest.time, reason: manifest.reason } : {}),
      objects: held.length,
      bytes: held.reduce((sum, o) => sum + o.size, 0),
      historyEntries: held.filter((o) => /\.history\.json(\.gz|\.zst)?$/.test(o.name)).length,
    });
  }
  return entries.sort((a, b) => a.stack.localeCompare(b.stack) || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Stacks Pulumi's own `stack rm` removed (no stack file; a `.bak` or backups left), which `restoreDeleted` can bring back in part. */
export async function listPulumiLeftovers(store: BackendStore, layout: 'project' | 'legacy'): Promise<PulumiLeftover[]> {
  const [stacks, backups] = await Promise.all([listAll(store, '.pulumi/stacks/'), listAll(store, '.pulumi/backups/')]);
  const depth = layout === 'project' ? 4 : 3;
  const live = new Set<string>();
  const found = new Map<string, PulumiLeftover>();
  const slot = (project: string | undefined, name: string) => {
    const key = `${project ?? ''}/${name}`;
    if (!found.has(key)) found.set(key, { stack: refOf({ project, name }), ...(project ? { project } : {}), name, backups: 0 });
    return found.get(key)!;
  };
  for (const object of stacks) {
    const parts = object.name.split('/');
    if (parts.length !== depth) continue;
    const project = layout === 'project' ? parts[2] : undefined;
    const match = /^(.+)\.json(\.gz|\.zst)?(\.bak)?$/.exec(parts[parts.length - 1]);
    if (!match) continue;
    if (match[3]) slot(project, match[1]).bak = object.name;
    else live.add(`${project ?? ''}/${match[1]}`);
  }
  for (const object of backups) {
    const parts = object.name.split('/');
    if (parts.length !== depth + 1 || object.name.endsWith('.attrs')) continue;
    slot(layout === 'project' ? parts[2] : undefined, parts[parts.length - 2]).backups++;
  }
  return [...found].filter(([key]) => !live.has(key)).map(([, leftover]) => leftover);
}

/** What a restore brought back, and what it could not. */
export interface RestoreDeletedReport {
  stack: string;
  /** `deleted-area`: an entry of ours; `pulumi-leftovers`: what Pulumi's `stack rm` left. */
  from: 'deleted-area' | 'pulumi-leftovers';
  entry?: string;
  /** A legacy stack restored into the project layout the backend has now, under this project. */
  placedInProject?: string;
  stackFile: string;
  /** The object the stack file was made from. */
  stackFileFrom: string;
  recovered: { historyEntries: number; backups: number; tags: boolean; objects: number };
  /** What could not be recovered, in words. */
  lost: string[];
}

/** The stack exists (a stack file is there): a restore would replace it. */
export class StackExists extends StoreConflict {}

export interface RestoreDeletedOptions extends StackLockOptions {
  identity: LockIdentity;
  /** The entry's `<UnixNano>`; the newest complete one by default. */
  id?: string;
  /** The backend has the project layout (meta.yaml version 1): a legacy stack is restored into its project. */
  projectLayout?: boolean;
  progress?(done: number, total: number, name: string): void;
}

async function refuseIfStackExists(store: WritableBackendStore, stack: StackName): Promise<void> {
  const folder = stacksFolderOf(stack);
  const there = (await listAll(store, `${folder}${stack.name}.`)).find((o) => stackFolderKind(stack.name, o.name.slice(folder.length)) === 'stack');
  if (there) throw new StackExists(l10n.t('{0} exists ({1}); remove or rename it first, nothing was restored', refOf(stack), there.name));
}

/** Brings a removed stack back, from the deleted area or else from Pulumi's leftovers, holding its Pulumi lock. */
export async function restoreDeleted(store: WritableBackendStore, stack: StackName, options: RestoreDeletedOptions): Promise<RestoreDeletedReport> {
  const all = (await listDeleted(store, stack)).filter((e) => e.project === stack.project && e.name === stack.name);
  // Its leftovers (a `.bak`, backups) are not the stack: the interrupted removal holds it, and only finishing it is safe.
  if (all.some((e) => e.removing)) throw new DeletedRefusal(l10n.t('the removal of {0} was interrupted: `quota-state stack rm {0}` finishes it, then restore it', refOf(stack)));
  const entries = all.filter((e) => e.complete);
  const entry = options.id ? entries.find((e) => e.id === options.id) : entries[entries.length - 1];
  if (options.id && !entry) throw new DeletedRefusal(l10n.t('{0} has no deleted entry {1}; `quota-state backend ls --deleted` lists them', refOf(stack), options.id));
  // A legacy stack whose backend has the project layout now (Pulumi writes meta.yaml version 1 into a backend left without legacy stacks) goes to its project.
  const project = entry && !stack.project && options.projectLayout ? await entryProject(store, entry) : undefined;
  const target = project ? { project, name: stack.name } : stack;
  return withStackLocks(store, [target], options.identity, options, async () => {
    await refuseIfStackExists(store, target);
    if (entry) return restoreEntry(store, target, entry, options, project);
    return restoreLeftovers(store, stack);
  });
}

/** The project of a legacy entry's stack: its first resource's urn (as `backend upgrade` places a stack). */
async function entryProject(store: BackendStore, entry: DeletedEntry): Promise<string> {
  const manifest = (await readManifest(store, entry.folder))!;
  const file = manifest.objects.find((o) => o.kind === 'stack');
  const stored = file ? await readIfPresent(store, `${entry.folder}${file.name.slice('.pulumi/'.length)}`) : undefined;
  const urn = stored ? checkpointResources(stored.bytes, file!.name)?.find((r) => r.urn)?.urn : undefined;
  const project = urn ? /^urn:pulumi:[^:]*::([^:]+)::/.exec(urn)?.[1] : undefined;
  if (!project) throw new DeletedRefusal(l10n.t('{0} was a legacy stack and this backend has the project layout now; its project cannot be read from its state', entry.stack));
  return project;
}

async function restoreEntry(store: WritableBackendStore, stack: StackName, entry: DeletedEntry, options: RestoreDeletedOptions, project?: string): Promise<RestoreDeletedReport> {
  const manifest = (await readManifest(store, entry.folder))!;
  const objects = inWriteOrder(manifest.objects);
  const placed = (name: string) => (project ? name.replace(/^\.pulumi\/(stacks|history|backups)\//, `.pulumi/$1/${project}/`) : name);
  const lost: string[] = [];
  let done = 0;
  let stackFile: string | undefined;
  for (const object of objects) {
    const from = `${entry.folder}${object.name.slice('.pulumi/'.length)}`;
    const stored = await readIfPresent(store, from);
    if (!stored) {
      lost.push(l10n.t('{0}: missing from the deleted entry', object.name));
      continue;
    }
    // The stack file only if it is still absent: another writer may have made the stack meanwhile.
    await store.write(placed(object.name), stored.bytes, object.kind === 'stack' ? { ifVersion: null } : undefined);
    if (object.kind === 'stack') stackFile = placed(object.name);
    done++;
    options.progress?.(done, objects.length, object.name);
  }
  if (!stackFile) lost.push(l10n.t('the stack file: the entry holds none'));
  // The manifest first: an entry interrupted while it goes is listed as incomplete, never restored twice.
  await store.delete(`${entry.folder}manifest.json`);
  for (const object of await listAll(store, entry.folder)) await store.delete(object.name);
  return {
    stack: refOf(stack),
    from: 'deleted-area',
    entry: entry.id,
    ...(project ? { placedInProject: project } : {}),
    stackFile: stackFile ?? '',
    stackFileFrom: stackFile ? `${entry.folder}${objects.find((o) => o.kind === 'stack')!.name.slice('.pulumi/'.length)}` : '',
    recovered: {
      historyEntries: objects.filter((o) => o.kind === 'history' && /\.history\.json/.test(o.name)).length,
      backups: objects.filter((o) => o.kind === 'backup').length,
      tags: objects.some((o) => o.kind === 'tags'),
      objects: done,
    },
    lost,
  };
}

/** Pulumi's `stack rm` keeps the stack file as its `.bak` and leaves the backups: the newest of those becomes the stack file. */
async function restoreLeftovers(store: WritableBackendStore, stack: StackName): Promise<RestoreDeletedReport> {
  const folder = stacksFolderOf(stack);
  const bak = (await listAll(store, `${folder}${stack.name}.`)).find((o) => stackFolderKind(stack.name, o.name.slice(folder.length)) === 'bak');
  const backups = (await listAll(store, areaFolderOf('backups', stack)))
    .filter((o) => !o.name.endsWith('.attrs') && /\.(\d+)\.json(\.gz|\.zst)?$/.test(o.name))
    .sort((a, b) => {
      const id = (name: string) => /\.(\d+)\.json/.exec(name)![1];
      return id(a.name).length - id(b.name).length || (id(a.name) < id(b.name) ? -1 : 1);
    });
  const source = bak?.name ?? backups[backups.length - 1]?.name;
  if (!source) throw new DeletedRefusal(l10n.t('{0}: nothing to restore: no deleted entry, no .bak and no backups', refOf(stack)));
  const compression = /\.json(\.gz|\.zst)?(\.bak|$)/.exec(source.slice(source.lastIndexOf('/')))?.[1] ?? /\.json(\.gz|\.zst)?$/.exec(source)?.[1] ?? '';
  const target = `${folder}${stack.name}.json${compression}`;
  const stored = await store.read(source);
  checkpointResources(stored.bytes, source); // a `.bak` that is no checkpoint is refused before anything is written
  await store.write(target, stored.bytes, { ifVersion: null });
  const lost = [l10n.t("the history: Pulumi's `stack rm` deletes it"), l10n.t("the tags: Pulumi's `stack rm` deletes them")];
  if (!bak) lost.push(l10n.t("the last state: no .bak was left (Pulumi's `stack rm --remove-backups`?); the newest backup was restored"));
  return {
    stack: refOf(stack),
    from: 'pulumi-leftovers',
    stackFile: target,
    stackFileFrom: source,
    recovered: { historyEntries: 0, backups: backups.length, tags: false, objects: 1 },
    lost,
  };
}

/** Entries of the deleted area a rule removes: older than the cutoff, or all but the newest `keep` of each stack; incomplete ones always. */
export function planPruneDeleted(entries: readonly DeletedEntry[], rule: { keep?: number; olderThanMs?: number }): DeletedEntry[] {
  const remove: DeletedEntry[] = [];
  const byStack = new Map<string, DeletedEntry[]>();
  for (const entry of entries) byStack.set(entry.stack, [...(byStack.get(entry.stack) ?? []), entry]);
  const cutoff = rule.olderThanMs === undefined ? undefined : BigInt(Math.floor(rule.olderThanMs)) * 1_000_000n;
  for (const list of byStack.values()) {
    const newestFirst = [...list].reverse();
    newestFirst.forEach((entry, index) => {
      // An interrupted removal may hold the only copy of its stack: `stack rm` finishes it, prune never takes it.
      if (entry.removing) return;
      if (!entry.complete || (rule.keep !== undefined && index >= rule.keep) || (cutoff !== undefined && BigInt(entry.id) < cutoff)) remove.push(entry);
    });
  }
  return remove;
}

/** Removes an entry of the deleted area: the manifest first, then its objects. */
export async function removeDeletedEntry(store: WritableBackendStore, entry: DeletedEntry): Promise<number> {
  await store.delete(`${entry.folder}manifest.json`);
  const objects = await listAll(store, entry.folder);
  for (const object of objects) await store.delete(object.name);
  return objects.length;
}
