/**
 * `backend upgrade`: a legacy DIY backend (bare stack names) moved to the project layout, to the
 * files `pulumi state upgrade` leaves (pkg/backend/diy/backend.go's Upgrade): each stack file in
 * `.pulumi/stacks/<project>/` (the old file kept as its `.bak`), its history in
 * `.pulumi/history/<project>/<stack>/`, `meta.yaml` version 1; unlike Pulumi, the backups move too.
 * Unlike Pulumi too, in an order that survives a crash at any instant (`applyUpgrade`), with a
 * journal a rerun finishes from. A stack's project is its first resource's urn's, or given. Nothing
 * is written until every stack can be placed and none is locked: once meta.yaml says "project
 * layout", a legacy stack left behind is one Pulumi no longer sees.
 */
import * as l10n from '@vscode/l10n';
import { decodeFile } from '../text/inflate';
import { structureOf as buildStateStructure } from '../state/vocabulary';
import type { Backend, BackendStack } from './backend';
import type { MaintenanceControl } from './prune';
import { refuseIfStackLocked, withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { listAll, moveObject, objectExists, readBytes, readIfPresent, writeUnlessSame, type WritableBackendStore } from './store';

export interface StackUpgrade {
  stack: string;
  project?: string;
  /** `keep`: the new object is there already and is the one to keep (a stack file a halfway upgrade left valid, which Pulumi may have updated since). */
  moves: Array<{ from: string; to: string; keep?: true }>;
  /** Why this stack cannot be moved; any such refuses the whole upgrade. */
  skipped?: string;
}

/** The project of a legacy stack: its first resource's urn (Pulumi's guessProject), else the one given. */
async function projectOf(store: WritableBackendStore, stack: BackendStack, given: ReadonlyMap<string, string>, maxInflatedBytes?: number): Promise<string | undefined> {
  if (given.has(stack.name)) return given.get(stack.name);
  if (!stack.file) return undefined;
  const { text } = decodeFile(await readBytes(store, stack.file.name), { name: stack.file.name, maxBytes: maxInflatedBytes });
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new Error(l10n.t('{0} is not valid JSON ({1})', stack.file.name, error instanceof Error ? error.message : String(error)));
  }
  const urn = buildStateStructure(root).resources.find((r) => r.urn)?.urn;
  return urn ? /^urn:pulumi:[^:]*::([^:]+)::/.exec(urn)?.[1] : undefined;
}

/** What moves where for one stack (names relative to the backend's root). */
async function movesOf(store: WritableBackendStore, stack: BackendStack, project: string): Promise<StackUpgrade['moves']> {
  const moves: StackUpgrade['moves'] = [];
  const under = async (folder: string) => {
    const prefix = `.pulumi/${folder}/${stack.name}/`;
    return (await listAll(store, prefix))
      .map((o) => o.name.slice(prefix.length))
      .filter((name) => !name.includes('/'))
      .map((name) => ({ from: `${prefix}${name}`, to: `.pulumi/${folder}/${project}/${stack.name}/${name}` }));
  };
  if (stack.file) {
    const name = stack.file.name.slice('.pulumi/stacks/'.length);
    moves.push({ from: stack.file.name, to: `.pulumi/stacks/${project}/${name}` });
    if (await objectExists(store, `${stack.file.name}.attrs`)) moves.push({ from: `${stack.file.name}.attrs`, to: `.pulumi/stacks/${project}/${name}.attrs` });
  }
  // renameHistory: only `<stack>-<…>` files move; others stay where they are.
  moves.push(...(await under('history')).filter((m) => m.from.slice(m.from.lastIndexOf('/') + 1).startsWith(`${stack.name}-`)));
  moves.push(...(await under('backups')));
  return moves;
}

/**
 * Each stack's moves, or why it cannot be placed; reads each stack file's first urn. `resumed`: the
 * projects an interrupted upgrade's journal chose, by stack; such a stack's new file is that run's
 * copy, not another stack's.
 */
export async function planUpgrade(
  store: WritableBackendStore,
  backend: Backend,
  given: ReadonlyMap<string, string>,
  maxInflatedBytes?: number,
  resumed: ReadonlyMap<string, string> = new Map(),
  /** The backend's meta.yaml says version 1 already (an older upgrade stopped halfway): a valid new stack file is kept, not replaced. */
  besideVersion1 = false,
): Promise<StackUpgrade[]> {
  const stacks = [...backend.stacks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plans: StackUpgrade[] = [];
  for (const stack of stacks) {
    const project = given.get(stack.name) ?? resumed.get(stack.name) ?? (await projectOf(store, stack, given, maxInflatedBytes));
    if (!project) {
      plans.push({ stack: stack.ref, moves: [], skipped: l10n.t('no project name found (it holds no resources); give --project-for {0}=PROJECT', stack.name) });
      continue;
    }
    const existing = (await listAll(store, `.pulumi/stacks/${project}/${stack.name}.json`)).some((o) => /\.json(\.gz|\.zst)?$/.test(o.name));
    if (existing && besideVersion1) {
      const moves = await movesOf(store, stack, project);
      if (moves[0] && (await isValidJson(store, moves[0].to))) moves[0] = { ...moves[0], keep: true };
      plans.push({ stack: stack.ref, project, moves });
    } else if (existing && resumed.get(stack.name) !== project)
      plans.push({ stack: stack.ref, project, moves: [], skipped: l10n.t('a stack named organization/{0}/{1} already exists', project, stack.name) });
    else plans.push({ stack: stack.ref, project, moves: await movesOf(store, stack, project) });
  }
  return plans;
}

/** Refuses (StackLockedError) when any stack to move is locked; takes no lock. */
export async function refuseIfAnyStackLocked(store: WritableBackendStore, backend: Backend, plans: StackUpgrade[], options: StackLockOptions = {}): Promise<void> {
  for (const plan of plans) {
    const stack = backend.stacks.find((s) => s.ref === plan.stack);
    if (stack && !plan.skipped) await refuseIfStackLocked(store, stack, options);
  }
}

/**
 * The upgrade's journal: its plan, written before anything else and removed last, so a rerun after a
 * crash (or `backend ls`) knows an upgrade was interrupted and can finish it. Pulumi ignores a file
 * right under `.pulumi/` that it does not know (it reads `meta.yaml` and the folders only).
 */
export const UPGRADE_JOURNAL = '.pulumi/quota-state-upgrade.json';

export interface UpgradeJournal {
  /** The journal's own format. */
  journal: 1;
  started: string;
  /** Who ran it: its locks, left behind by a crash, are known by this. */
  holder: { pid: number; hostname: string };
  stacks: Array<{ stack: string; project: string; moves: StackUpgrade['moves'] }>;
}

/** The journal of an interrupted upgrade, undefined when there is none; one that cannot be read is named. */
export async function readUpgradeJournal(store: WritableBackendStore): Promise<UpgradeJournal | undefined> {
  const stored = await readIfPresent(store, UPGRADE_JOURNAL);
  if (!stored) return undefined;
  const text = new TextDecoder().decode(stored.bytes);
  try {
    const journal = JSON.parse(text) as UpgradeJournal;
    if (journal.journal !== 1 || !Array.isArray(journal.stacks)) throw new Error(l10n.t('not a journal this version writes'));
    return journal;
  } catch (error) {
    throw new Error(l10n.t('{0} cannot be read ({1}); remove it only if no upgrade ran here', UPGRADE_JOURNAL, error instanceof Error ? error.message : String(error)));
  }
}

async function isValidJson(store: WritableBackendStore, name: string): Promise<boolean> {
  try {
    JSON.parse(decodeFile(await readBytes(store, name), { name }).text);
    return true;
  } catch {
    return false;
  }
}

/** Copies one object unless the destination already holds the same bytes (a rerun's copies cost only reads). */
async function copyOnce(store: WritableBackendStore, from: string, to: string): Promise<void> {
  await writeUnlessSame(store, to, await readBytes(store, from));
}

/**
 * Moves every placed stack to the project layout, safe at every instant:
 *
 * 1. the journal (the plan) is written first;
 * 2. under every stack's Pulumi lock, each object is copied to its new name (stack files atomically,
 *    as every store write is), nothing removed: until step 3 the backend is the legacy one, whole;
 * 3. `meta.yaml` (version 1) is written last of the new objects: from here Pulumi reads the new layout, whole;
 * 4. the old objects go (a stack file becomes its `.bak`), then the journal.
 *
 * A crash anywhere leaves either the old layout whole (a rerun copies again, skipping what is
 * there) or the new one whole with leftovers (a rerun removes them, `finishUpgrade`). A cancel stops
 * before `meta.yaml`; the copies made stay for the rerun. Answers how many stacks moved.
 */
export async function applyUpgrade(
  store: WritableBackendStore,
  backend: Backend,
  plans: StackUpgrade[],
  options: StackLockOptions & MaintenanceControl & { identity: LockIdentity; say?(message: string): void },
): Promise<{ upgraded: number; cancelled: boolean }> {
  const placed = plans.filter((plan) => !plan.skipped && plan.project);
  const journal: UpgradeJournal = {
    journal: 1,
    started: new Date().toISOString(),
    holder: { pid: options.identity.pid, hostname: options.identity.hostname },
    stacks: placed.map((plan) => ({ stack: plan.stack, project: plan.project!, moves: plan.moves })),
  };
  await store.write(UPGRADE_JOURNAL, new TextEncoder().encode(`${JSON.stringify(journal, null, 2)}\n`));
  const stacks = placed.map((plan) => backend.stacks.find((s) => s.ref === plan.stack)).filter((stack): stack is BackendStack => stack !== undefined);
  const total = placed.reduce((sum, plan) => sum + plan.moves.length, 0);
  // Every stack's lock, nested: no update may land on a stack between its copy and `meta.yaml`.
  const cancelled = await withStackLocks(store, stacks, options.identity, options, async () => {
    let done = 0;
    for (const plan of placed) {
      if (options.cancelled?.()) return true;
      options.say?.(l10n.t('upgrading {0} → organization/{1}/{0}: {2} files', plan.stack, plan.project!, plan.moves.length));
      for (const move of plan.moves) {
        if (!move.keep && (await objectExists(store, move.from))) await copyOnce(store, move.from, move.to);
        options.progress?.(++done, total, move.to);
      }
    }
    // As Pulumi reads it from here on: every new object is in place.
    await store.write('.pulumi/meta.yaml', new TextEncoder().encode('version: 1\n'));
    return false;
  });
  if (cancelled) return { upgraded: 0, cancelled: true };
  await removeMoved(store, journal);
  return { upgraded: placed.length, cancelled: false };
}

/** Step 4: each moved object's old copy goes once its new one is there (the stack file becomes its `.bak`); then the journal. */
async function removeMoved(store: WritableBackendStore, journal: UpgradeJournal): Promise<void> {
  for (const { moves } of journal.stacks) {
    const [stackFile, ...rest] = moves;
    if (stackFile && /^\.pulumi\/stacks\/[^/]+$/.test(stackFile.from) && (await objectExists(store, stackFile.from)) && (await objectExists(store, stackFile.to))) {
      await moveObject(store, stackFile.from, `${stackFile.from}.bak`);
    }
    for (const move of stackFile && /^\.pulumi\/stacks\/[^/]+$/.test(stackFile.from) ? rest : moves) {
      if (await objectExists(store, move.to)) await store.delete(move.from);
    }
  }
  await store.delete(UPGRADE_JOURNAL);
}

/**
 * Finishes an upgrade a crash left after `meta.yaml` was written: the new layout is whole, and the
 * old objects and the journal are left over. (One interrupted before `meta.yaml` is still the legacy
 * layout, whole: a rerun plans and applies it again.) Answers the stacks it finished.
 */
export async function finishUpgrade(store: WritableBackendStore): Promise<string[]> {
  const journal = await readUpgradeJournal(store);
  if (!journal) return [];
  await removeMoved(store, journal);
  return journal.stacks.map((each) => `organization/${each.project}/${each.stack}`);
}

/**
 * Removes the locks an interrupted upgrade left: those whose holder is the journal's (same host and
 * pid) and whose process is gone (`running` answers for this host). Answers the files removed.
 */
export async function clearInterruptedUpgradeLocks(store: WritableBackendStore, backend: Backend, journal: UpgradeJournal, hostname: string, running: (pid: number) => boolean): Promise<string[]> {
  if (journal.holder?.hostname !== hostname || running(journal.holder.pid)) return [];
  const removed: string[] = [];
  for (const stack of backend.stacks) {
    for (const lock of stack.locks) {
      if (lock.pid !== journal.holder.pid || lock.hostname !== journal.holder.hostname) continue;
      await store.delete(lock.file);
      await store.delete(`${lock.file}.attrs`);
      removed.push(lock.file);
    }
  }
  return removed;
}

/** The projects an interrupted upgrade's journal chose, by stack: a rerun places each stack where the first run did. */
export function journalProjects(journal: UpgradeJournal | undefined): Map<string, string> {
  return new Map((journal?.stacks ?? []).map((each) => [each.stack, each.project]));
}
