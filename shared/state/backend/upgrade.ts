/**
 * `backend upgrade`: a legacy DIY backend (bare stack names) moved to the project layout, as
 * `pulumi state upgrade` does it (pkg/backend/diy/backend.go's Upgrade): `meta.yaml` version 1
 * first, then each stack file to `.pulumi/stacks/<project>/` (the old file kept as its `.bak`) and
 * its history to `.pulumi/history/<project>/<stack>/`; unlike Pulumi, the backups move too. A
 * stack's project is its first resource's urn's, or given. Nothing is written until every stack
 * can be placed and none is locked: once meta.yaml says "project layout", a legacy stack left
 * behind is one Pulumi no longer sees.
 */
import * as l10n from '@vscode/l10n';
import { decodeFile } from '../../text/inflate';
import { buildStateStructure } from '../model/structure';
import type { Backend, BackendStack } from './backend';
import type { MaintenanceControl } from './prune';
import { clearOrRefuseStackLocks, withStackLock, type LockIdentity, type StackLockOptions } from './stackLock';
import type { WritableBackendStore } from './store';

export interface StackUpgrade {
  stack: string;
  project?: string;
  moves: Array<{ from: string; to: string }>;
  /** Why this stack cannot be moved; any such refuses the whole upgrade. */
  skipped?: string;
}

/** The project of a legacy stack: its first resource's urn (Pulumi's guessProject), else the one given. */
async function projectOf(store: WritableBackendStore, stack: BackendStack, given: ReadonlyMap<string, string>, maxInflatedBytes?: number): Promise<string | undefined> {
  if (given.has(stack.name)) return given.get(stack.name);
  if (!stack.file) return undefined;
  const { text } = decodeFile(await store.read(stack.file.name), { name: stack.file.name, maxBytes: maxInflatedBytes });
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
async function movesOf(store: WritableBackendStore, stack: BackendStack, project: string): Promise<Array<{ from: string; to: string }>> {
  const moves: Array<{ from: string; to: string }> = [];
  const under = async (folder: string) => {
    const prefix = `.pulumi/${folder}/${stack.name}/`;
    return (await store.list(prefix))
      .map((o) => o.name.slice(prefix.length))
      .filter((name) => !name.includes('/'))
      .map((name) => ({ from: `${prefix}${name}`, to: `.pulumi/${folder}/${project}/${stack.name}/${name}` }));
  };
  if (stack.file) {
    const name = stack.file.name.slice('.pulumi/stacks/'.length);
    moves.push({ from: stack.file.name, to: `.pulumi/stacks/${project}/${name}` });
    if ((await store.version(`${stack.file.name}.attrs`)) !== undefined) moves.push({ from: `${stack.file.name}.attrs`, to: `.pulumi/stacks/${project}/${name}.attrs` });
  }
  // renameHistory: only `<stack>-<…>` files move; others stay where they are.
  moves.push(...(await under('history')).filter((m) => m.from.slice(m.from.lastIndexOf('/') + 1).startsWith(`${stack.name}-`)));
  moves.push(...(await under('backups')));
  return moves;
}

/** Each stack's moves, or why it cannot be placed; reads each stack file's first urn. */
export async function planUpgrade(store: WritableBackendStore, backend: Backend, given: ReadonlyMap<string, string>, maxInflatedBytes?: number): Promise<StackUpgrade[]> {
  const stacks = [...backend.stacks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plans: StackUpgrade[] = [];
  for (const stack of stacks) {
    const project = await projectOf(store, stack, given, maxInflatedBytes);
    if (!project) {
      plans.push({ stack: stack.ref, moves: [], skipped: l10n.t('no project name found (it holds no resources); give --project-for {0}=PROJECT', stack.name) });
      continue;
    }
    const existing = (await store.list(`.pulumi/stacks/${project}/${stack.name}.json`)).some((o) => /\.json(\.gz|\.zst)?$/.test(o.name));
    if (existing) plans.push({ stack: stack.ref, project, moves: [], skipped: l10n.t('a stack named organization/{0}/{1} already exists', project, stack.name) });
    else plans.push({ stack: stack.ref, project, moves: await movesOf(store, stack, project) });
  }
  return plans;
}

/** Refuses (StackLockedError) when any stack to move is locked; takes no lock. */
export async function refuseIfAnyStackLocked(store: WritableBackendStore, backend: Backend, plans: StackUpgrade[], options: StackLockOptions = {}): Promise<void> {
  for (const plan of plans) {
    const stack = backend.stacks.find((s) => s.ref === plan.stack);
    if (stack && !plan.skipped) await clearOrRefuseStackLocks(store, stack, { ...options, breakLock: false });
  }
}

/**
 * Moves every placed stack, each under its Pulumi lock, after writing `meta.yaml`. A cancel stops
 * between stacks (a stack half moved would have its history in two places); answers how many moved.
 */
export async function applyUpgrade(
  store: WritableBackendStore,
  backend: Backend,
  plans: StackUpgrade[],
  options: StackLockOptions & MaintenanceControl & { identity: LockIdentity; say?(message: string): void },
): Promise<{ upgraded: number; cancelled: boolean }> {
  // As Pulumi: the metadata first, so a backend whose files cannot be written is never half moved.
  await store.write('.pulumi/meta.yaml', new TextEncoder().encode('version: 1\n'));
  const total = plans.reduce((sum, plan) => sum + plan.moves.length, 0);
  let done = 0;
  let upgraded = 0;
  for (const plan of plans) {
    const stack = backend.stacks.find((s) => s.ref === plan.stack);
    if (!stack || plan.skipped) continue;
    if (options.cancelled?.()) return { upgraded, cancelled: true };
    await withStackLock(store, stack, options.identity, options, async () => {
      options.say?.(l10n.t('upgrading {0} → organization/{1}/{0}: {2} files', stack.name, plan.project!, plan.moves.length));
      const [stackFile, ...rest] = plan.moves;
      if (stack.file && stackFile) {
        // A copy first, then the old file becomes the .bak: the stack is never without a file.
        await store.write(stackFile.to, await store.read(stackFile.from), { ifMatch: null });
        await store.move(stackFile.from, `${stackFile.from}.bak`);
        done++;
        options.progress?.(done, total, stackFile.to);
      }
      for (const move of rest) {
        if ((await store.version(move.from)) !== undefined) await store.move(move.from, move.to);
        done++;
        options.progress?.(done, total, move.to);
      }
    });
    upgraded++;
  }
  return { upgraded, cancelled: false };
}
