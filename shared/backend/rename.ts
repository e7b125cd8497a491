/**
 * `stack rename` as Pulumi's DIY backend renames (pkg/backend/diy/backend.go renameStack, v3.274.1):
 * refused when the new stack exists; the current state's urns get the new stack (and project) name
 * as resource/edit's RenameStack rewrites them (urns, parents, dependencies, property dependencies,
 * deletedWith, replaceWith, aliases, viewOf, provider references, resource references in inputs and
 * outputs, plaintext secrets; resources and pending operations), the new stack file is written, the
 * old one becomes its `.bak`, and each history file `<old>-<rest>` is copied to `<new>-<rest>` and
 * removed, its bytes untouched. Unlike Pulumi: `checkpoint.stack` is set to the new name, the tags
 * file and the backups move too (renamed `<new>.<UnixNano>.json`), and both names are locked.
 */
import * as l10n from '@vscode/l10n';
import { gzipSync } from 'fflate';
import { compressionOf, decodeFile } from '../text/inflate';
import { withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { HISTORY_FILE_NAME, stackFileIn, stackObjects, stacksFolderOf, type StackName, type StackObject } from './stackObjects';
import { StoreConflict, type WritableBackendStore } from './store';

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
}

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

/** Renames a stack holding both names' Pulumi locks. */
export async function renameStack(store: WritableBackendStore, from: StackName, to: StackName, options: RenameOptions): Promise<RenameReport> {
  return withStackLocks(store, [from, to], options.identity, options, async () => {
    const target = await stackObjects(store, to);
    if (stackFileIn(target)) throw new StoreConflict(l10n.t('a stack named {0} already exists', refOf(to)));
    const objects = await stackObjects(store, from);
    const file = stackFileIn(objects);
    if (!file) throw new StoreConflict(l10n.t('{0} has no stack file; nothing was renamed', refOf(from)));
    const stored = await store.read(file.name);
    const compression = compressionOf(stored.bytes.subarray(0, 4));
    const text = renameStackText(decodeFile(stored.bytes, { name: file.name }).text, { oldName: from.name, oldProject: from.project, newName: to.name, newProject: to.project }, refOf(to));
    const plain = new TextEncoder().encode(text);
    const [bytes, suffix] = compression === 'gzip' ? [gzipSync(plain), '.json.gz'] : [plain, '.json'];
    const stackFile = `${stacksFolderOf(to)}${to.name}${suffix}`;
    // History, backups and tags copied first, the new stack file last; the old objects go after it.
    const moves = objects
      .filter((o) => o.kind !== 'stack' && o.kind !== 'bak' && o.kind !== 'retained' && !(o.kind === 'attrs' && o.name.startsWith(stacksFolderOf(from))))
      .map((o) => ({ object: o, to: renamedObject(o, from, to) }))
      .filter((m): m is { object: StackObject; to: string } => m.to !== undefined);
    for (const move of moves) await store.write(move.to, (await store.read(move.object.name)).bytes);
    await store.write(stackFile, bytes, { ifVersion: null });
    // As Pulumi's backupTarget: the old stack file becomes its `.bak`.
    const bak = `${file.name}.bak`;
    await store.write(bak, stored.bytes);
    await store.delete(file.name);
    for (const move of moves) await store.delete(move.object.name);
    // gocloud's sidecars of the old stack folder's objects that are gone (the `.bak`'s stays with it).
    for (const object of objects) if (object.kind === 'attrs' && object.name.startsWith(stacksFolderOf(from)) && !object.name.endsWith('.bak.attrs')) await store.delete(object.name);
    return {
      from: refOf(from),
      to: refOf(to),
      stackFile,
      bak,
      historyFiles: moves.filter((m) => m.object.kind === 'history' && HISTORY_FILE_NAME.test(m.object.name.slice(m.object.name.lastIndexOf('/') + 1))).length,
      backups: moves.filter((m) => m.object.kind === 'backup').length,
      tags: moves.some((m) => m.object.kind === 'tags'),
      ...(compression === 'zstd' ? { recompressed: l10n.t('{0} was zstd-compressed; {1} is written as plain JSON', file.name, stackFile) } : {}),
    };
  });
}
