/**
 * `stack rename` as Pulumi's DIY backend renames (pkg/backend/diy/backend.go renameStack, v3.274.1):
 * refused when the new stack exists; the current state's urns get the new stack (and project) name
 * as resource/edit's RenameStack rewrites them (urns, parents, dependencies, property dependencies,
 * deletedWith, replaceWith, aliases, viewOf, provider references, resource references in inputs and
 * outputs, plaintext secrets; resources and pending operations), the new stack file is written, the
 * old one becomes its `.bak`, and each history file `<old>-<rest>` is copied to `<new>-<rest>` and
 * removed, its bytes untouched. Unlike Pulumi: `checkpoint.stack` is set to the new name, the tags
 * file and the backups move too (renamed `<new>.<UnixNano>.json`), and both names are locked.
 *
 * Unlike Pulumi too, crash-safe, with a journal (`.pulumi/quota-state-renames/<project>/<stack>.json`,
 * by the old name; Pulumi reads nothing there): the journal first, then the new history, backups and
 * tags, the new stack file last in; then the old stack file first out (kept as its `.bak`), the old
 * objects, and the journal last. Until the new stack file is in, the old stack is whole and the new
 * one not listed; once the old stack file is out, the new one is whole; in between, for an instant,
 * both are whole. A rerun of the same rename finds the journal and finishes it (says so); any other
 * rename of either stack is refused until then.
 */
import * as l10n from '@vscode/l10n';
import { gzipSync } from 'fflate';
import { compressionOf, decodeFile } from '../text/inflate';
import { withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { HISTORY_FILE_NAME, stackFileIn, stackObjects, stacksFolderOf, type StackName, type StackObject } from './stackObjects';
import { objectExists, readIfPresent, StoreConflict, writeUnlessSame, type WritableBackendStore } from './store';

const RESOURCE_REFERENCE = '5cf8f73096256a8f31e491e813e4eb8e';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const OUTPUT_VALUE = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';
const SIG = '4dabf18193072939515e22adb298388d';

interface Renamer {
  oldName: string;
  oldProject?: string;
  newName: string;
  newProject?: string;
}

/** stackRenamer.renameURN: a urn of the old stack (and project) gets the new; the root stack resource's name too. */
export function renameUrn(urn: string, r: Renamer): string {
  const match = /^urn:pulumi:([^:]*)::([^:]*)::(.*)$/s.exec(urn);
  if (!match) return urn;
  const [, stack, project, rest] = match;
  if (stack !== r.oldName || (r.oldProject && project !== r.oldProject)) return urn;
  const newProject = r.newProject || project;
  const at = rest.lastIndexOf('::');
  const type = at === -1 ? rest : rest.slice(0, at);
  const name = at === -1 ? '' : rest.slice(at + 2);
  const lastType = type.slice(type.lastIndexOf('$') + 1);
  const newName = lastType === 'pulumi:pulumi:Stack' ? `${newProject}-${r.newName}` : name;
  return `urn:pulumi:${r.newName}::${newProject}::${type}::${newName}`;
}

function renameValue(value: unknown, r: Renamer): unknown {
  if (Array.isArray(value)) return value.map((item) => renameValue(item, r));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const sig = object[SIG];
  if (sig === RESOURCE_REFERENCE) return typeof object.urn === 'string' ? { ...object, urn: renameUrn(object.urn, r) } : object;
  if (sig === SECRET) {
    const out = { ...object };
    for (const key of ['plaintext', 'ciphertext']) if (typeof out[key] === 'string') out[key] = renameSecretString(out[key], r);
    return out;
  }
  if (sig === OUTPUT_VALUE) {
    const out = { ...object };
    if ('value' in out) out.value = renameValue(out.value, r);
    if (Array.isArray(out.dependencies)) out.dependencies = out.dependencies.map((d) => (typeof d === 'string' ? renameUrn(d, r) : d));
    return out;
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, renameValue(item, r)]));
}

/** renameSerializedSecretString: a plaintext that is JSON is rewritten and marshalled again; one that is not stays. */
function renameSecretString(text: string, r: Renamer): string {
  if (text === '') return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const renamed = JSON.stringify(renameValue(parsed, r));
  return renamed === JSON.stringify(parsed) ? text : renamed;
}

function renameResource(resource: Record<string, unknown>, r: Renamer): Record<string, unknown> {
  const out = { ...resource };
  const urn = (key: string) => {
    if (typeof out[key] === 'string' && out[key] !== '') out[key] = renameUrn(out[key], r);
  };
  const urns = (key: string) => {
    if (Array.isArray(out[key])) out[key] = out[key].map((u: unknown) => (typeof u === 'string' ? renameUrn(u, r) : u));
  };
  ['urn', 'parent', 'deletedWith', 'viewOf'].forEach(urn);
  ['dependencies', 'replaceWith', 'aliases'].forEach(urns);
  if (typeof out.propertyDependencies === 'object' && out.propertyDependencies !== null) {
    out.propertyDependencies = Object.fromEntries(
      Object.entries(out.propertyDependencies as Record<string, unknown>).map(([key, deps]) => [key, Array.isArray(deps) ? deps.map((u) => (typeof u === 'string' ? renameUrn(u, r) : u)) : deps]),
    );
  }
  if (typeof out.provider === 'string' && out.provider !== '') {
    const at = out.provider.lastIndexOf('::');
    if (at !== -1) {
      const renamed = renameUrn(out.provider.slice(0, at), r);
      if (renamed !== out.provider.slice(0, at)) out.provider = `${renamed}${out.provider.slice(at)}`;
    }
  }
  for (const key of ['inputs', 'outputs']) if (typeof out[key] === 'object' && out[key] !== null) out[key] = renameValue(out[key], r);
  if ('replacementTrigger' in out) out.replacementTrigger = renameValue(out.replacementTrigger, r);
  return out;
}

/** A stack file's text with the stack renamed, as Pulumi's renameStack writes it, and `checkpoint.stack` set to `newRef`. */
export function renameStackText(text: string, r: Renamer, newRef: string): string {
  const root = JSON.parse(text) as { checkpoint?: { stack?: string; latest?: { resources?: unknown[]; pending_operations?: Array<{ resource?: unknown }> } } };
  const checkpoint = root.checkpoint;
  if (checkpoint) {
    checkpoint.stack = newRef;
    const latest = checkpoint.latest;
    if (latest && Array.isArray(latest.resources)) {
      // Legacy references carry no project; their urns do: the rewrite is scoped to the first resource's.
      const scoped = r.oldProject ? r : { ...r, oldProject: /^urn:pulumi:[^:]*::([^:]*)::/.exec(String((latest.resources[0] as { urn?: string })?.urn ?? ''))?.[1] };
      latest.resources = latest.resources.map((res) => (typeof res === 'object' && res !== null ? renameResource(res as Record<string, unknown>, scoped) : res));
      if (Array.isArray(latest.pending_operations)) {
        latest.pending_operations = latest.pending_operations.map((op) =>
          typeof op?.resource === 'object' && op.resource !== null ? { ...op, resource: renameResource(op.resource as Record<string, unknown>, scoped) } : op,
        );
      }
    }
  }
  return JSON.stringify(root);
}

export interface RenameOptions extends StackLockOptions {
  identity: LockIdentity;
}

export interface RenameReport {
  from: string;
  to: string;
  stackFile: string;
  /** The old stack file, kept as its `.bak` as Pulumi keeps it. */
  bak: string;
  historyFiles: number;
  backups: number;
  tags: boolean;
  /** A zstd stack file is written as plain JSON (there is no zstd encoder here); Pulumi reads either. */
  recompressed?: string;
  /** An interrupted rename (its journal) was found and finished. */
  resumed?: true;
}

/** Where an interrupted rename is written down, by the old stack's name. */
const RENAME_JOURNALS = '.pulumi/quota-state-renames/';

/** The rename's journal: what it writes and removes, written before anything else and removed last. */
interface RenameJournal {
  journal: 1;
  from: StackName;
  to: StackName;
  started: string;
  holder: { pid: number; hostname: string };
  /** The old stack file, and the new one it becomes. */
  oldStackFile: string;
  stackFile: string;
  /** Each history, backup and tags object copied to its new name, then removed. */
  moves: Array<{ from: string; to: string; kind: StackObject['kind'] }>;
  /** gocloud's sidecars of the old stack folder, removed at the end. */
  sidecars: string[];
  recompressed?: string;
}

const journalOf = (stack: StackName) => `${RENAME_JOURNALS}${stack.project ?? '.legacy'}/${stack.name}.json`;

async function readRenameJournal(store: WritableBackendStore, from: StackName): Promise<RenameJournal | undefined> {
  const stored = await readIfPresent(store, journalOf(from));
  if (!stored) return undefined;
  try {
    const journal = JSON.parse(new TextDecoder().decode(stored.bytes)) as RenameJournal;
    if (journal.journal !== 1 || !Array.isArray(journal.moves) || typeof journal.stackFile !== 'string') throw new Error(l10n.t('not a journal this version writes'));
    return journal;
  } catch (error) {
    throw new StoreConflict(l10n.t('{0} cannot be read ({1}); remove it only if no rename of {2} ran', journalOf(from), error instanceof Error ? error.message : String(error), refOf(from)));
  }
}

const sameStack = (a: StackName, b: StackName) => (a.project ?? '') === (b.project ?? '') && a.name === b.name;
const refOf = (stack: StackName) => (stack.project ? `organization/${stack.project}/${stack.name}` : stack.name);

/** The name an object of the old stack has under the new one. */
function renamedObject(object: StackObject, from: StackName, to: StackName): string | undefined {
  const oldFolder = stacksFolderOf(from);
  const newFolder = stacksFolderOf(to);
  const base = object.name.slice(object.name.lastIndexOf('/') + 1);
  if (object.name.startsWith(oldFolder) && !object.name.slice(oldFolder.length).includes('/')) return `${newFolder}${to.name}${base.slice(from.name.length)}`;
  const area = object.name.startsWith('.pulumi/history/') ? 'history' : 'backups';
  const folder = to.project ? `.pulumi/${area}/${to.project}/${to.name}/` : `.pulumi/${area}/${to.name}/`;
  if (area === 'history') {
    // renameHistory: only `<old>-<…>` files; others stay.
    const dash = base.lastIndexOf('-');
    return dash !== -1 && base.slice(0, dash) === from.name ? `${folder}${to.name}${base.slice(dash)}` : undefined;
  }
  return base.startsWith(`${from.name}.`) ? `${folder}${to.name}${base.slice(from.name.length)}` : `${folder}${base}`;
}

/** Renames a stack holding both names' Pulumi locks; a rename a crash interrupted (its journal) is finished first-hand. */
export async function renameStack(store: WritableBackendStore, from: StackName, to: StackName, options: RenameOptions): Promise<RenameReport> {
  return withStackLocks(store, [from, to], options.identity, options, async () => {
    const pending = await readRenameJournal(store, from);
    if (pending && !sameStack(pending.to, to))
      throw new StoreConflict(l10n.t('a rename of {0} to {1} was interrupted: `quota-state stack rename {0} {1}` finishes it first', refOf(from), refOf(pending.to)));
    const target = stackFileIn(await stackObjects(store, to));
    // The new stack file is in: only the old objects are left to go.
    if (pending && target?.name === pending.stackFile) return { ...(await finishRename(store, pending)), resumed: true };
    if (target) throw new StoreConflict(l10n.t('a stack named {0} already exists', refOf(to)));
    const journal = await planRename(store, from, to, options.identity);
    await store.write(journalOf(from), new TextEncoder().encode(`${JSON.stringify(journal, null, 2)}\n`));
    // History, backups and tags copied first (what a rerun finds there with the same bytes is kept), the new stack file last in.
    for (const move of journal.moves) await copyOnce(store, move.from, move.to);
    await store.write(journal.stackFile, renamedStackBytes(await store.read(journal.oldStackFile), journal), { ifVersion: null });
    return { ...(await finishRename(store, journal)), ...(pending ? { resumed: true as const } : {}) };
  });
}

/** What the rename writes and removes, as its journal says it. */
async function planRename(store: WritableBackendStore, from: StackName, to: StackName, identity: LockIdentity): Promise<RenameJournal> {
  const objects = await stackObjects(store, from);
  const file = stackFileIn(objects);
  if (!file) throw new StoreConflict(l10n.t('{0} has no stack file; nothing was renamed', refOf(from)));
  const compression = compressionOf((await store.read(file.name)).bytes.subarray(0, 4));
  const stackFile = `${stacksFolderOf(to)}${to.name}${compression === 'gzip' ? '.json.gz' : '.json'}`;
  const moves = objects
    .filter((o) => o.kind !== 'stack' && o.kind !== 'bak' && o.kind !== 'retained' && !(o.kind === 'attrs' && o.name.startsWith(stacksFolderOf(from))))
    .map((o) => ({ from: o.name, to: renamedObject(o, from, to), kind: o.kind }))
    .filter((m): m is { from: string; to: string; kind: StackObject['kind'] } => m.to !== undefined);
  // gocloud's sidecars of the old stack folder's objects that go (the `.bak`'s stays with it).
  const sidecars = objects.filter((o) => o.kind === 'attrs' && o.name.startsWith(stacksFolderOf(from)) && !o.name.endsWith('.bak.attrs')).map((o) => o.name);
  return {
    journal: 1,
    from,
    to,
    started: new Date().toISOString(),
    holder: { pid: identity.pid, hostname: identity.hostname },
    oldStackFile: file.name,
    stackFile,
    moves,
    sidecars,
    ...(compression === 'zstd' ? { recompressed: l10n.t('{0} was zstd-compressed; {1} is written as plain JSON', file.name, stackFile) } : {}),
  };
}

/** The new stack file's bytes: the old state renamed, gzip kept (zstd written plain). */
function renamedStackBytes(stored: { bytes: Uint8Array }, journal: RenameJournal): Uint8Array {
  const { from, to } = journal;
  const text = renameStackText(decodeFile(stored.bytes, { name: journal.oldStackFile }).text, { oldName: from.name, oldProject: from.project, newName: to.name, newProject: to.project }, refOf(to));
  const plain = new TextEncoder().encode(text);
  return journal.stackFile.endsWith('.gz') ? gzipSync(plain) : plain;
}

async function copyOnce(store: WritableBackendStore, from: string, to: string): Promise<void> {
  const source = await readIfPresent(store, from);
  // Gone: a rerun after its old copy was removed, the new one being in place.
  if (!source) return;
  await writeUnlessSame(store, to, source.bytes);
}

/** Once the new stack file is in: the old one first out (kept as its `.bak`, as Pulumi's backupTarget), then the old objects, the journal last. */
async function finishRename(store: WritableBackendStore, journal: RenameJournal): Promise<RenameReport> {
  const bak = `${journal.oldStackFile}.bak`;
  const old = await readIfPresent(store, journal.oldStackFile);
  if (old) {
    await store.write(bak, old.bytes);
    await store.delete(journal.oldStackFile);
  }
  for (const move of journal.moves) if (await objectExists(store, move.to)) await store.delete(move.from);
  for (const sidecar of journal.sidecars) await store.delete(sidecar);
  await store.delete(journalOf(journal.from));
  return {
    from: refOf(journal.from),
    to: refOf(journal.to),
    stackFile: journal.stackFile,
    bak,
    historyFiles: journal.moves.filter((m) => m.kind === 'history' && HISTORY_FILE_NAME.test(m.from.slice(m.from.lastIndexOf('/') + 1))).length,
    backups: journal.moves.filter((m) => m.kind === 'backup').length,
    tags: journal.moves.some((m) => m.kind === 'tags'),
    ...(journal.recompressed ? { recompressed: journal.recompressed } : {}),
  };
}
