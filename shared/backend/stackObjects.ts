/**
 * Every object that belongs to one stack of a DIY backend, through the store interface alone: the
 * stack file (`.json`, `.json.gz`, `.json.zst`), its `.bak`, its retained checkpoints
 * (`<file>.<UnixNano>`), its tags (`<stack>.pulumi-tags`, stack_tags.go), its history folder and
 * its backups folder, each with gocloud's `.attrs` sidecars. `stack rm`, `stack rename` and
 * `backend copy` move exactly this set; never the stack's locks.
 */
import { listAll, type BackendStore, type StoreObject } from './store';

/** A stack by its project (absent in the legacy layout) and name. */
export interface StackName {
  project?: string;
  name: string;
}

/** What each object of a stack is. */
export type StackObjectKind = 'stack' | 'bak' | 'retained' | 'tags' | 'history' | 'backup' | 'attrs';

export interface StackObject extends StoreObject {
  kind: StackObjectKind;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `.pulumi/stacks/[<project>/]` */
export function stacksFolderOf(stack: StackName): string {
  return stack.project ? `.pulumi/stacks/${stack.project}/` : '.pulumi/stacks/';
}

/** `.pulumi/<area>/[<project>/]<stack>/` */
export function areaFolderOf(area: 'history' | 'backups', stack: StackName): string {
  return stack.project ? `.pulumi/${area}/${stack.project}/${stack.name}/` : `.pulumi/${area}/${stack.name}/`;
}

/** The kind of a file right in the stacks folder, by its name there; undefined when it is another stack's. */
export function stackFolderKind(stackName: string, fileName: string): StackObjectKind | undefined {
  const match = new RegExp(`^${escape(stackName)}\\.(?:(json(?:\\.gz|\\.zst)?)(\\.bak|\\.\\d+)?|(pulumi-tags))(\\.attrs)?$`).exec(fileName);
  if (!match) return undefined;
  if (match[4]) return 'attrs';
  if (match[3]) return 'tags';
  return match[2] === '.bak' ? 'bak' : match[2] ? 'retained' : 'stack';
}

/** A history file's `<stack>-<UnixNano>.(history|checkpoint).json[.gz|.zst]` parts. */
export const HISTORY_FILE_NAME = /^(.+)-(\d+)\.(history|checkpoint)\.json(\.gz|\.zst)?$/;

/** The order objects are written in: history and backups first, the stack file last. */
const WRITE_ORDER: Record<StackObjectKind, number> = { history: 0, backup: 1, retained: 2, tags: 3, attrs: 4, bak: 5, stack: 6 };

export function inWriteOrder<T extends { kind: StackObjectKind; name: string }>(objects: readonly T[]): T[] {
  // A history file before its checkpoint would let a reader see an entry without its checkpoint: checkpoints first.
  const rank = (o: T) => WRITE_ORDER[o.kind] * 2 + (o.kind === 'history' && /\.history\.json/.test(o.name) ? 1 : 0);
  return [...objects].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every object of the stack, in write order (history first, the stack file last). */
export async function stackObjects(store: BackendStore, stack: StackName): Promise<StackObject[]> {
  const folder = stacksFolderOf(stack);
  const [files, history, backups] = await Promise.all([listAll(store, `${folder}${stack.name}.`), listAll(store, areaFolderOf('history', stack)), listAll(store, areaFolderOf('backups', stack))]);
  const objects: StackObject[] = [];
  for (const object of files) {
    const rest = object.name.slice(folder.length);
    const kind = rest.includes('/') ? undefined : stackFolderKind(stack.name, rest);
    if (kind) objects.push({ ...object, kind });
  }
  for (const object of history) objects.push({ ...object, kind: object.name.endsWith('.attrs') ? 'attrs' : 'history' });
  for (const object of backups) objects.push({ ...object, kind: object.name.endsWith('.attrs') ? 'attrs' : 'backup' });
  return inWriteOrder(objects);
}

/** The stack file of a set: of several compressions, the most recently modified, as Pulumi reads it. */
export function stackFileIn(objects: readonly StackObject[]): StackObject | undefined {
  return objects.filter((o) => o.kind === 'stack').sort((a, b) => b.modifiedMs - a.modifiedMs)[0];
}
