/**
 * What `backend prune` removes from one stack: history entries by count or age, each history file
 * with its checkpoint (the history file first, so no entry is ever left without its checkpoint),
 * and by the same rule the backups and the retained checkpoints (`<stack file>.<UnixNano>`), each
 * with gocloud's `.attrs` sidecar. Never the stack file, its `.bak`, or a lock; never the newest
 * entry, whose config Pulumi reads (`GetLatestConfiguration`).
 */
import * as l10n from '@vscode/l10n';
import type { BackendStack } from './backend';
import { withStackLock, type LockIdentity, type StackLockOptions } from './stackLock';
import { listAll, type BackendStore, type StoreObject, type WritableBackendStore } from './store';

export interface PruneRule {
  /** Keep the newest N (at least 1). */
  keep?: number;
  /** Remove what is older than this moment (ms since the epoch). */
  olderThanMs?: number;
}

export interface PrunePlan {
  stack: string;
  /** Files to remove, in the order to remove them. */
  remove: StoreObject[];
  entries: { before: number; after: number };
  backups: { before: number; after: number };
  retained: { before: number; after: number };
  freedBytes: number;
}

/** The rule would remove every history entry: refused, since Pulumi reads the newest one's config. */
export class PruneRefusal extends Error {}

const HISTORY_FILE = /^(.+)-(\d+)\.(history|checkpoint)\.json(\.gz|\.zst)?$/;
const BACKUP_FILE = /^(.+)\.(\d+)\.json(\.gz|\.zst)?$/;

/** The `<UnixNano>` ids a rule keeps: the newest `keep`, or those at or after the cutoff. */
function kept(ids: string[], rule: PruneRule): Set<string> {
  const newestFirst = [...ids].sort((a, b) => b.length - a.length || (a < b ? 1 : a > b ? -1 : 0));
  if (rule.keep !== undefined) return new Set(newestFirst.slice(0, rule.keep));
  const cutoff = BigInt(Math.floor(rule.olderThanMs ?? 0)) * 1_000_000n;
  return new Set(newestFirst.filter((id) => BigInt(id) >= cutoff));
}

function withSidecars(objects: StoreObject[], all: Map<string, StoreObject>): StoreObject[] {
  return objects.flatMap((object) => [object, ...(all.has(`${object.name}.attrs`) ? [all.get(`${object.name}.attrs`)!] : [])]);
}

export async function planPrune(store: BackendStore, stack: BackendStack, rule: PruneRule): Promise<PrunePlan> {
  const area = (name: string) => (stack.project ? `.pulumi/${name}/${stack.project}/${stack.name}/` : `.pulumi/${name}/${stack.name}/`);
  const stacksFolder = stack.project ? `.pulumi/stacks/${stack.project}/` : '.pulumi/stacks/';
  const [history, backups, stacks] = await Promise.all([listAll(store, area('history')), listAll(store, area('backups')), listAll(store, stacksFolder)]);
  const all = new Map([...history, ...backups, ...stacks].map((o) => [o.name, o]));

  // History: entries by id, each with its checkpoint; an orphan checkpoint goes by its own id.
  const byId = new Map<string, { history?: StoreObject; checkpoint?: StoreObject }>();
  for (const object of history) {
    const match = HISTORY_FILE.exec(object.name.slice(area('history').length));
    if (!match || match[1] !== stack.name) continue;
    const slot = byId.get(match[2]) ?? {};
    slot[match[3] as 'history' | 'checkpoint'] = object;
    byId.set(match[2], slot);
  }
  const entryIds = [...byId].filter(([, slot]) => slot.history).map(([id]) => id);
  const keepEntries = kept(entryIds, rule);
  if (entryIds.length > 0 && keepEntries.size === 0) {
    throw new PruneRefusal(l10n.t('{0}: this would remove all {1} history entries; the newest must stay, since Pulumi reads its config (use --keep 1)', stack.ref, entryIds.length));
  }
  const oldestKept = [...keepEntries].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  const removeHistory = [...byId]
    .filter(([id, slot]) => (slot.history ? !keepEntries.has(id) : oldestKept !== undefined && (id.length < oldestKept.length || (id.length === oldestKept.length && id < oldestKept))))
    .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1))
    .flatMap(([, slot]) => [slot.history, slot.checkpoint].filter((o): o is StoreObject => o !== undefined));

  const idsOf = (objects: StoreObject[], pattern: RegExp, folder: string) =>
    new Map(
      objects.flatMap((o) => {
        const match = pattern.exec(o.name.slice(folder.length));
        return match ? [[o, match] as const] : [];
      }),
    );
  const backupIds = idsOf(backups, BACKUP_FILE, area('backups'));
  const stackBackups = [...backupIds].filter(([, match]) => match[1] === stack.name);
  const keepBackups = kept(
    stackBackups.map(([, match]) => match[2]),
    rule,
  );
  const removeBackups = stackBackups.filter(([, match]) => !keepBackups.has(match[2])).map(([object]) => object);

  const retainedPattern = new RegExp(`^${stack.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.json(?:\\.gz|\\.zst)?\\.(\\d+)$`);
  const retained = [...idsOf(stacks, retainedPattern, stacksFolder)];
  const keepRetained = kept(
    retained.map(([, match]) => match[1]),
    rule,
  );
  const removeRetained = retained.filter(([, match]) => !keepRetained.has(match[1])).map(([object]) => object);

  const remove = withSidecars([...removeHistory, ...removeBackups, ...removeRetained], all);
  return {
    stack: stack.ref,
    remove,
    entries: { before: entryIds.length, after: keepEntries.size },
    backups: { before: stackBackups.length, after: stackBackups.length - removeBackups.length },
    retained: { before: retained.length, after: retained.length - removeRetained.length },
    freedBytes: remove.reduce((sum, o) => sum + o.size, 0),
  };
}

/** How a long change reports and stops: `cancelled` is asked between files, `progress` told after each. */
export interface MaintenanceControl {
  cancelled?(): boolean;
  progress?(done: number, total: number, name: string): void;
}

/**
 * Removes a plan's files holding the stack's Pulumi lock, in the plan's order. A cancel stops
 * between entries, never between a history file and its checkpoint, so no entry is left without
 * its checkpoint. Answers how many files were removed and whether it was cancelled.
 */
export async function applyPrune(
  store: WritableBackendStore,
  stack: BackendStack,
  plan: PrunePlan,
  options: StackLockOptions & MaintenanceControl & { identity: LockIdentity },
): Promise<{ removed: number; cancelled: boolean }> {
  return withStackLock(store, stack, options.identity, options, async () => {
    let removed = 0;
    let entryUnderWay: string | undefined;
    for (const object of plan.remove) {
      const history = HISTORY_FILE.exec(object.name.slice(object.name.lastIndexOf('/') + 1));
      const finishesEntry = object.name.endsWith('.attrs') || (history?.[3] === 'checkpoint' && history[2] === entryUnderWay);
      if (!finishesEntry && options.cancelled?.()) return { removed, cancelled: true };
      entryUnderWay = history?.[3] === 'history' ? history[2] : finishesEntry ? entryUnderWay : undefined;
      await store.delete(object.name);
      removed++;
      options.progress?.(removed, plan.remove.length, object.name);
    }
    return { removed, cancelled: false };
  });
}
