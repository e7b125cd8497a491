/**
 * `backend copy SRC DST`: stacks with their whole history copied between any two backends, through
 * the one store interface (a folder, a bucket, any store another backend kind brings). Per stack,
 * holding Pulumi's lock of the stack in SRC and in DST:
 *
 * 1. DST's stack is judged: absent, the same stack file (a rerun), or another state: refused unless
 *    `overwrite`, which moves DST's old stack into DST's deleted area (deleted.ts) first;
 * 2. every object (stackObjects.ts, without gocloud's `.attrs` sidecars) is written in order, history
 *    (each checkpoint before its entry) and backups first, the stack file last: an interrupted copy
 *    never leaves DST a stack file whose history is missing; an object DST already holds with the same
 *    bytes is skipped, so a rerun resumes;
 * 3. DST is read back and compared: every object the same bytes, the stack file a checkpoint with the
 *    same records, the same history entries; any difference is reported;
 * 4. with `move`, and only once verified, SRC's stack goes into SRC's deleted area.
 *
 * A legacy SRC into a project-layout DST is placed as `backend upgrade` places it (upgrade.ts's
 * planUpgrade: the first urn's project, or `--project-for`). A DST with no `.pulumi/` gets the project
 * layout (meta.yaml version 1). The secrets provider's state travels in the state, unchanged.
 */
import * as l10n from '@vscode/l10n';
import { decodeFile } from '../text/inflate';
import type { Backend, BackendStack } from './backend';
import { checkpointResources, removeStackLocked } from './deleted';
import { withStackLocks, type LockIdentity, type StackLockOptions } from './stackLock';
import { stackFileIn, stackObjects, type StackName, type StackObject, type StackObjectKind } from './stackObjects';
import { readIfPresent, sameBytes, StoreConflict, type WritableBackendStore } from './store';
import { planUpgrade } from './upgrade';

interface CopyObject {
  from: string;
  to: string;
  kind: StackObjectKind;
  size: number;
}

export interface StackCopyPlan {
  /** As SRC names it. */
  stack: string;
  from: StackName;
  /** As DST will name it. */
  target: string;
  to: StackName;
  objects: CopyObject[];
  bytes: number;
  /** DST's stack: none, the same stack file already (a rerun), or another state. */
  destination: 'absent' | 'same' | 'different';
  /** Why this stack is not copied. */
  refused?: string;
  /** The secrets provider in the state (`secrets_providers`), and a passphrase provider's salt state. */
  secrets?: { type: string; salt?: string };
}

export interface CopyPlan {
  /** DST has no `.pulumi/`: meta.yaml (version 1) is written first. */
  newDestination: boolean;
  layout: 'project' | 'legacy';
  stacks: StackCopyPlan[];
}

const refOf = (stack: StackName) => (stack.project ? `organization/${stack.project}/${stack.name}` : stack.name);

/** An object's name in DST: the same, or with the project inserted (a legacy stack placed in the project layout). */
function placed(name: string, project: string | undefined): string {
  return project ? name.replace(/^\.pulumi\/(stacks|history|backups)\//, `.pulumi/$1/${project}/`) : name;
}

function secretsOf(bytes: Uint8Array, name: string): StackCopyPlan['secrets'] {
  try {
    const root = JSON.parse(decodeFile(bytes, { name }).text) as { checkpoint?: { latest?: { secrets_providers?: { type?: unknown; state?: { salt?: unknown } } } } };
    const provider = root.checkpoint?.latest?.secrets_providers;
    if (!provider || typeof provider.type !== 'string' || provider.type === '') return undefined;
    return { type: provider.type, ...(provider.type === 'passphrase' && typeof provider.state?.salt === 'string' ? { salt: provider.state.salt } : {}) };
  } catch {
    return undefined;
  }
}

/** The stack's objects in write order (gocloud's `.attrs` sidecars aside), each with its name in DST. */
async function objectsToCopy(src: WritableBackendStore, from: StackName, to: StackName): Promise<CopyObject[]> {
  const project = !from.project && to.project ? to.project : undefined;
  return (await stackObjects(src, from)).filter((o) => o.kind !== 'attrs').map((o) => ({ from: o.name, to: placed(o.name, project), kind: o.kind, size: o.size }));
}

/** Where each SRC stack goes in DST: its own name, or placed in a project (legacy → project layout). */
async function targets(src: WritableBackendStore, srcBackend: Backend, stacks: BackendStack[], dstLayout: 'project' | 'legacy', projectFor: ReadonlyMap<string, string>) {
  if (srcBackend.layout === dstLayout) return stacks.map((stack) => ({ stack, to: { project: stack.project, name: stack.name } as StackName, refused: undefined as string | undefined }));
  if (dstLayout === 'legacy') return stacks.map((stack) => ({ stack, to: { name: stack.name } as StackName, refused: l10n.t('DST has the legacy layout: `quota-state backend upgrade` it first') }));
  const plans = await planUpgrade(src, { ...srcBackend, stacks }, projectFor);
  return stacks.map((stack) => {
    const plan = plans.find((p) => p.stack === stack.ref);
    return { stack, to: { project: plan?.project, name: stack.name } as StackName, refused: plan?.project ? undefined : (plan?.skipped ?? l10n.t('no project found')) };
  });
}

/** The plan: per stack, the objects in write order and DST's stack as it is. Reads, writes nothing. */
export async function planCopy(
  src: WritableBackendStore,
  srcBackend: Backend,
  dst: WritableBackendStore,
  dstBackend: Backend | undefined,
  options: { stacks?: readonly BackendStack[]; projectFor?: ReadonlyMap<string, string>; overwrite?: boolean },
): Promise<CopyPlan> {
  const layout = dstBackend?.layout ?? 'project';
  const chosen = options.stacks ?? srcBackend.stacks;
  const placedStacks = await targets(src, srcBackend, [...chosen], layout, options.projectFor ?? new Map());
  const stacks: StackCopyPlan[] = [];
  for (const { stack, to, refused } of placedStacks) {
    const from = { project: stack.project, name: stack.name };
    const project = !stack.project && to.project ? to.project : undefined;
    const objects = await objectsToCopy(src, from, to);
    const file = stackFileIn((await stackObjects(src, from)).filter((o) => o.kind === 'stack'));
    const plan: StackCopyPlan = { stack: stack.ref, from, target: refOf(to), to, objects, bytes: objects.reduce((sum, o) => sum + o.size, 0), destination: 'absent' };
    if (file) plan.secrets = secretsOf((await src.read(file.name)).bytes, file.name);
    if (!file) plan.refused = l10n.t('{0} has no stack file', stack.ref);
    else if (refused) plan.refused = refused;
    else if (dstBackend) plan.destination = await destinationState(src, dst, file, to, project);
    if (!plan.refused && plan.destination === 'different' && !options.overwrite)
      plan.refused = l10n.t('{0} exists in DST with a different state: --overwrite moves it into DST’s deleted area first', plan.target);
    stacks.push(plan);
  }
  return { newDestination: dstBackend === undefined, layout, stacks };
}

async function destinationState(src: WritableBackendStore, dst: WritableBackendStore, file: StackObject, to: StackName, project: string | undefined): Promise<StackCopyPlan['destination']> {
  const there = stackFileIn(await stackObjects(dst, to));
  if (!there) return 'absent';
  if (there.name !== placed(file.name, project)) return 'different';
  const [mine, theirs] = await Promise.all([src.read(file.name), dst.read(there.name)]);
  return sameBytes(mine.bytes, theirs.bytes) ? 'same' : 'different';
}

export interface CopyOptions extends StackLockOptions {
  identity: LockIdentity;
  move?: boolean;
  overwrite?: boolean;
  nowMs: number;
  /** Told after each object: written or skipped (DST held the same bytes). */
  progress?(stack: string, object: CopyObject, outcome: 'written' | 'skipped'): void;
}

export interface StackCopyOutcome {
  stack: string;
  target: string;
  written: number;
  skipped: number;
  bytesWritten: number;
  /** DST's old stack, moved into DST's deleted area (`overwrite`). */
  replaced?: string;
  /** SRC's stack, moved into SRC's deleted area (`move`). */
  moved?: string;
  /** What the read-back found different; empty: verified. */
  differences: string[];
}

/** Copies one planned stack holding its lock in SRC and in DST; verifies; with `move`, then moves SRC's stack into SRC's deleted area. */
export async function copyStack(src: WritableBackendStore, dst: WritableBackendStore, plan: StackCopyPlan, options: CopyOptions): Promise<StackCopyOutcome> {
  if (plan.refused) throw new StoreConflict(plan.refused);
  return withStackLocks(src, [plan.from], options.identity, options, () =>
    withStackLocks(dst, [plan.to], options.identity, options, async () => {
      const outcome: StackCopyOutcome = { stack: plan.stack, target: plan.target, written: 0, skipped: 0, bytesWritten: 0, differences: [] };
      // Judged again under the locks: the plan was read without them.
      const file = plan.objects.find((o) => o.kind === 'stack')!;
      const there = stackFileIn(await stackObjects(dst, plan.to));
      if (there) {
        const same = there.name === file.to && sameBytes((await src.read(file.from)).bytes, (await dst.read(there.name)).bytes);
        if (!same && !options.overwrite) throw new StoreConflict(l10n.t('{0} exists in DST with a different state: --overwrite moves it into DST’s deleted area first', plan.target));
        if (!same) outcome.replaced = (await removeStackLocked(dst, plan.to, { ...options, progress: undefined, force: true, reason: 'backend copy --overwrite' })).folder;
      }
      // Listed again under SRC's lock: an update that landed since the plan is copied whole, its history with it.
      const objects = await objectsToCopy(src, plan.from, plan.to);
      for (const object of objects) await copyObject(src, dst, object, outcome, options, plan.stack);
      outcome.differences = await verifyStack(src, dst, { ...plan, objects });
      if (options.move && outcome.differences.length === 0)
        outcome.moved = (await removeStackLocked(src, plan.from, { ...options, progress: undefined, force: true, reason: 'backend copy --move' })).folder;
      return outcome;
    }),
  );
}

async function copyObject(src: WritableBackendStore, dst: WritableBackendStore, object: CopyObject, outcome: StackCopyOutcome, options: CopyOptions, stack: string): Promise<void> {
  const { bytes } = await src.read(object.from);
  const there = await readIfPresent(dst, object.to);
  if (there && sameBytes(there.bytes, bytes)) {
    outcome.skipped++;
    options.progress?.(stack, object, 'skipped');
    return;
  }
  // The stack file only if DST's is still the one judged (none, or the one just moved away).
  await dst.write(object.to, bytes, object.kind === 'stack' ? { ifVersion: there ? there.version : null } : undefined);
  outcome.written++;
  outcome.bytesWritten += bytes.length;
  options.progress?.(stack, object, 'written');
}

/** DST read back against SRC: every object the same bytes; the stack file a checkpoint with the same records; the same history entries. */
async function verifyStack(src: WritableBackendStore, dst: WritableBackendStore, plan: StackCopyPlan): Promise<string[]> {
  const differences: string[] = [];
  for (const object of plan.objects) {
    const [mine, theirs] = await Promise.all([readIfPresent(src, object.from), readIfPresent(dst, object.to)]);
    if (!theirs) differences.push(l10n.t('{0}: missing in DST', object.to));
    else if (mine && !sameBytes(mine.bytes, theirs.bytes)) differences.push(l10n.t('{0}: differs from {1} in SRC', object.to, object.from));
  }
  const file = plan.objects.find((o) => o.kind === 'stack');
  if (file) {
    try {
      const [mine, theirs] = await Promise.all([src.read(file.from), dst.read(file.to)]);
      const records = (bytes: Uint8Array, name: string) => JSON.stringify(checkpointResources(bytes, name) ?? []);
      if (records(mine.bytes, file.from) !== records(theirs.bytes, file.to)) differences.push(l10n.t('{0}: its records differ from SRC’s', file.to));
    } catch (error) {
      differences.push(l10n.t('{0}: not a readable checkpoint ({1})', file.to, error instanceof Error ? error.message : String(error)));
    }
  }
  const entries = (objects: Array<{ name: string }>) =>
    objects
      .map((o) => /-(\d+)\.history\.json(\.gz|\.zst)?$/.exec(o.name)?.[1])
      .filter((id) => id !== undefined)
      .sort();
  const dstEntries = entries(await stackObjects(dst, plan.to));
  const srcEntries = entries(plan.objects.map((o) => ({ name: o.from })));
  if (srcEntries.some((id) => !dstEntries.includes(id)))
    differences.push(l10n.t('{0}: DST lists {1} history entries of SRC’s {2}', plan.target, srcEntries.filter((id) => dstEntries.includes(id)).length, srcEntries.length));
  return differences;
}

/** DST's meta.yaml when DST is new: the project layout. */
export async function writeNewDestinationMeta(dst: WritableBackendStore): Promise<void> {
  await dst.write('.pulumi/meta.yaml', new TextEncoder().encode('version: 1\n'), { ifVersion: null });
}
