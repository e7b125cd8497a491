/**
 * `pulumi state move` (pkg/cmd/pulumi/state/state_move.go): resources, their descendants and
 * (with includeParents) their ancestors go from one state file to another. Providers they use are
 * copied (or reused when the destination has the same provider with the same id or inputs); the
 * destination's root stack is created when missing; dependencies between what moves and what stays
 * are cut and listed; urns get the destination's stack and project and a type chain rebuilt from
 * the new parent. Both files lose their pending operations, as Pulumi's `SaveSnapshot` clears them.
 *
 * Offline, ciphertext cannot be re-encrypted: a move whose values hold ciphertext is refused unless
 * both files have the same secrets provider configuration.
 *
 * Deviation: Pulumi's `rewriteURNs` appends the rewritten replaceWith urns onto the list
 * `breakDependencies` left (so the source-stack urns stay and the move fails its own integrity
 * check); we rewrite the list in place.
 */
import * as l10n from '@vscode/l10n';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import { allDependencies, openState, str, SurgeryError, type EditableState, type SurgeryInput } from './document';
import { finish, refused, type CutReference, type SurgeryChange, type SurgeryOutcome } from './outcome';
import { newUrn, urnParts } from './rename';
import type { PlannedRecord } from './render';
import { listHint } from './targets';
import { detectStyle } from './text';

export interface MoveOutcome {
  source: SurgeryOutcome;
  dest: SurgeryOutcome;
}

const SECRET_SIG = '1b47061264138c4ac30d75fd1eb44270';
const SIG_KEY = '4dabf18193072939515e22adb298388d';

function hasCiphertext(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (Array.isArray(value)) return value.some((v) => hasCiphertext(v, depth + 1));
  if (!isObject(value)) return false;
  if (value[SIG_KEY] === SECRET_SIG && typeof value.ciphertext === 'string') return true;
  return Object.values(value).some((v) => hasCiphertext(v, depth + 1));
}

/** The stack and project a file belongs to: its checkpoint's `organization/<project>/<stack>`, else its root stack resource. */
function stackOf(doc: EditableState): { stack: string; project: string } | undefined {
  const checkpointStack = doc.snapshot.structure.checkpointStack;
  if (checkpointStack) {
    const parts = checkpointStack.split('/');
    if (parts.length === 3) return { project: parts[1], stack: parts[2] };
  }
  const root = doc.records.find((r) => isRootStack(r));
  if (root) {
    const parts = urnParts(root.urn as string);
    return { stack: parts.stack, project: parts.project };
  }
  const first = doc.records[0];
  if (first) {
    const parts = urnParts(first.urn as string);
    if (checkpointStack) return { stack: checkpointStack.split('/').pop()!, project: parts.project };
    return { stack: parts.stack, project: parts.project };
  }
  return undefined;
}

function fail(source: EditableState | undefined, dest: EditableState | undefined, errors: string[]): MoveOutcome {
  return { source: refused(source, 'move', errors), dest: refused(dest, 'move', errors) };
}

/** Why a step stops the move: both files are then refused with it. */
interface Refusal {
  refusal: string;
}

/** The two files, opened. */
interface MoveFiles {
  source: EditableState;
  dest: EditableState;
  /** The destination's original text, when it had no deployment and one was created for the move. */
  destReplaced?: string;
}

/** The stack and project the moved urns get. */
interface StackName {
  stack: string;
  project: string;
}

/** What moves, out of the source's records. */
interface MoveSelection {
  byUrn: Map<string, JsonObject>;
  /** The targets, their descendants and (with includeParents) their ancestors; never a provider or the root stack. */
  moving: Set<string>;
  /** The indices of the moving records in the source, in file order. */
  movedIndices: number[];
  /** The providers the moving records use that do not move themselves: they are copied. */
  providerIndices: number[];
  /** One per target not found. */
  warnings: string[];
}

/** One file's new records and the dependencies cut in it. */
interface FilePlan {
  records: PlannedRecord[];
  cuts: CutReference[];
}

interface DestinationPlan extends FilePlan {
  changes: SurgeryChange[];
  notes: string[];
}

interface MovePlan {
  selection: MoveSelection;
  source: FilePlan;
  dest: DestinationPlan;
}

export function moveResources(sourceInput: SurgeryInput, destInput: string | EditableState, targets: readonly string[], options: { includeParents?: boolean; verify?: boolean } = {}): MoveOutcome {
  const files = openFiles(sourceInput, destInput);
  if ('refusal' in files) return fail(undefined, undefined, [files.refusal]);
  const plan = planMove(files, targets, options.includeParents);
  if ('refusal' in plan) return fail(files.source, files.dest, [plan.refusal]);
  return finishMove(files, plan, options.verify);
}

function openFiles(sourceInput: SurgeryInput, destInput: string | EditableState): MoveFiles | Refusal {
  try {
    const source = typeof sourceInput !== 'string' && 'style' in sourceInput ? sourceInput : openState(sourceInput, l10n.t('the source'));
    return { source, ...openDestination(destInput) };
  } catch (error) {
    if (error instanceof SurgeryError) return { refusal: error.message };
    throw error;
  }
}

/** A destination stack with no deployment yet (a checkpoint whose `latest` is empty) gets one. */
function openDestination(destInput: string | EditableState): { dest: EditableState; destReplaced?: string } {
  try {
    return { dest: typeof destInput === 'string' ? openState(destInput, l10n.t('the destination')) : destInput };
  } catch (error) {
    const empty = typeof destInput === 'string' && error instanceof SurgeryError ? withEmptyDeployment(destInput) : undefined;
    if (!empty) throw error;
    return { dest: openState(empty, l10n.t('the destination')), destReplaced: destInput as string };
  }
}

/** Checks the request and plans both files' records; a refusal at any step leaves both files alone. */
function planMove(files: MoveFiles, targets: readonly string[], includeParents: boolean | undefined): MovePlan | Refusal {
  const records = files.source.records;
  if (records.length === 0) return { refusal: l10n.t('source stack has no resources') };
  const destStack = stackOf(files.dest);
  if (!destStack) return { refusal: l10n.t("cannot tell the destination's stack and project: it is neither a DIY checkpoint nor has it resources to read them from") };
  const selection = selectResources(records, targets, includeParents);
  if ('refusal' in selection) return selection;
  const secrets = secretsRefusal(files, selection);
  if (secrets !== undefined) return { refusal: secrets };
  const source = planSource(records, selection.moving);
  const dest = planDestination(records, files.dest.records, destStack, selection);
  if ('refusal' in dest) return dest;
  return { selection, source, dest };
}

function isRootStack(record: JsonObject): boolean {
  return record.type === 'pulumi:pulumi:Stack' && !str(record, 'parent');
}

/** The targets, their ancestors (with includeParents) and their descendants, minus the root stack; extension blobs cannot move offline. */
function selectResources(records: readonly JsonObject[], targets: readonly string[], includeParents: boolean | undefined): MoveSelection | Refusal {
  const matched = matchTargets(records, targets);
  if ('refusal' in matched) return matched;
  const { moving, warnings } = matched;
  const byUrn = new Map<string, JsonObject>();
  for (const record of records) byUrn.set(record.urn as string, record);
  if (includeParents) addAncestors(byUrn, moving);
  addDescendants(records, byUrn, moving);
  moving.delete(matched.rootStackUrn);
  if (moving.size === 0) return { refusal: l10n.t('no resources found to move (the root stack has no children to move)') };

  const movedIndices = records.map((r, i) => (moving.has(r.urn as string) ? i : -1)).filter((i) => i !== -1);
  const providersToCopy = new Set(movedIndices.map((i) => str(records[i], 'provider')).filter(Boolean));
  for (const i of movedIndices) {
    if (str(records[i], 'extensionRef')) return { refusal: l10n.t('{0} has an {1}: moving extension blobs is not supported offline', String(records[i].urn), 'extensionRef') };
  }
  const providerIndices = records.map((r, i) => (!moving.has(r.urn as string) && providersToCopy.has(`${String(r.urn)}::${str(r, 'id')}`) ? i : -1)).filter((i) => i !== -1);
  return { byUrn, moving, movedIndices, providerIndices, warnings };
}

/** Matching is exact urn equality; providers cannot be moved. */
function matchTargets(records: readonly JsonObject[], targets: readonly string[]): { moving: Set<string>; rootStackUrn: string; warnings: string[] } | Refusal {
  const moving = new Set<string>();
  const unmatched = new Set(targets);
  let rootStackUrn = '';
  for (const record of records) {
    const urn = record.urn as string;
    if (!targets.includes(urn)) continue;
    if (str(record, 'type').startsWith('pulumi:providers:')) return { refusal: l10n.t('cannot move providers. Only resources can be moved, and providers will be included automatically') };
    if (isRootStack(record)) rootStackUrn = urn;
    moving.add(urn);
    unmatched.delete(urn);
  }
  const warnings = [...unmatched].map((arg) => l10n.t('Resource {0} not found in source stack', arg));
  if (moving.size === 0) return { refusal: [l10n.t('no resources found to move'), ...warnings, listHint()].join('\n') };
  return { moving, rootStackUrn, warnings };
}

/** Pulumi's `ParentsOf`: every ancestor of what moves joins it, except the root stack and providers. */
function addAncestors(byUrn: ReadonlyMap<string, JsonObject>, moving: Set<string>): void {
  for (const urn of [...moving]) {
    let parent = str(byUrn.get(urn)!, 'parent');
    const guard = new Set<string>();
    while (parent && byUrn.has(parent) && !guard.has(parent)) {
      guard.add(parent);
      const record = byUrn.get(parent)!;
      if (!(isRootStack(record) || str(record, 'type').startsWith('pulumi:providers:'))) moving.add(parent);
      parent = str(record, 'parent');
    }
  }
}

/** Pulumi's `ChildrenOf`: every transitive child of what moves joins it, providers excluded. */
function addDescendants(records: readonly JsonObject[], byUrn: ReadonlyMap<string, JsonObject>, moving: Set<string>): void {
  const childrenOf = new Map<string, string[]>();
  for (const record of records) {
    const parent = str(record, 'parent');
    if (parent) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), record.urn as string]);
  }
  const queue = [...moving];
  for (let q = 0; q < queue.length; q++) {
    for (const child of childrenOf.get(queue[q]) ?? []) {
      if (str(byUrn.get(child)!, 'type').startsWith('pulumi:providers:') || moving.has(child)) continue;
      moving.add(child);
      queue.push(child);
    }
  }
}

function deploymentOf(doc: EditableState): JsonObject {
  return valueAt(doc.snapshot.structure.root, doc.snapshot.structure.deploymentPath!) as JsonObject;
}

/** Ciphertext moves only between files with the same secrets provider configuration, as it cannot be re-encrypted offline. */
function secretsRefusal(files: MoveFiles, selection: MoveSelection): string | undefined {
  const sourceDeployment = deploymentOf(files.source);
  const destDeployment = deploymentOf(files.dest);
  const records = files.source.records;
  const carriesCiphertext = [...selection.movedIndices, ...selection.providerIndices].some((i) => hasCiphertext(records[i].inputs) || hasCiphertext(records[i].outputs));
  if (!carriesCiphertext || JSON.stringify(sourceDeployment.secrets_providers ?? null) === JSON.stringify(destDeployment.secrets_providers ?? null)) return undefined;
  return l10n.t(
    "The resources to move hold encrypted secrets and the two files do not share a secrets provider configuration: they cannot be re-encrypted offline. Use `pulumi state move` (it decrypts with the source's provider and encrypts with the destination's), or give both stacks the same secrets provider first.",
  );
}

/**
 * `record` without its dependencies, property dependencies, deletedWith and replaceWith on urns
 * that are `gone` (a copy when something is cut, else the record itself); each cut is listed in `cuts`.
 */
function breakDependencies(record: JsonObject, gone: (urn: string) => boolean, cuts: CutReference[]): JsonObject {
  let next = record;
  const edit = () => (next === record ? (next = { ...record }) : next);
  for (const dep of allDependencies(record)) {
    if (dep.kind === 'parent' || !gone(dep.urn)) continue;
    cuts.push({ from: record.urn as string, kind: dep.kind, target: dep.urn, key: dep.key });
  }
  if (!cuts.some((c) => c.from === record.urn)) return record;
  const keep = (list: unknown) => (Array.isArray(list) ? list.filter((u) => typeof u !== 'string' || !gone(u)) : list);
  if (Array.isArray(record.dependencies)) edit().dependencies = keep(record.dependencies);
  if (isObject(record.propertyDependencies)) {
    edit().propertyDependencies = Object.fromEntries(Object.entries(record.propertyDependencies).map(([k, v]) => [k, keep(v)]));
  }
  if (typeof record.deletedWith === 'string' && gone(record.deletedWith)) delete edit().deletedWith;
  if (typeof record.replaceWith === 'string' && gone(record.replaceWith)) delete edit().replaceWith;
  else if (Array.isArray(record.replaceWith)) {
    const kept = keep(record.replaceWith) as unknown[];
    if (kept.length) edit().replaceWith = kept;
    else delete edit().replaceWith;
  }
  return next;
}

/** The source keeps what does not move; what stays loses its dependencies on what moves. */
function planSource(records: readonly JsonObject[], moving: ReadonlySet<string>): FilePlan {
  const plan: FilePlan = { records: [], cuts: [] };
  records.forEach((record, from) => {
    if (moving.has(record.urn as string)) return;
    plan.records.push({ from, value: breakDependencies(record, (u) => moving.has(u), plan.cuts) });
  });
  return plan;
}

/** How urns are rewritten for the destination: what was copied or moved maps to its new urn, any other urn gets the destination's stack and project. */
interface UrnRewrite {
  destStack: StackName;
  /** Old urn (or provider reference) → new one, filled as providers and resources are copied. */
  rewritten: Map<string, string>;
}

/** What copying records into the destination reads and writes. */
interface Copying {
  sourceRecords: readonly JsonObject[];
  destRecords: readonly JsonObject[];
  selection: MoveSelection;
  plan: DestinationPlan;
  rootUrn: string;
  rewrite: UrnRewrite;
  /** Whether a urn names a source record that stays: dependencies on it are cut. */
  remaining: (urn: string) => boolean;
}

/** The destination keeps its records and gains a root stack when it has none, the providers the moved resources use, then the moved resources. */
function planDestination(sourceRecords: readonly JsonObject[], destRecords: readonly JsonObject[], destStack: StackName, selection: MoveSelection): DestinationPlan | Refusal {
  const plan: DestinationPlan = { records: destRecords.map((value, from) => ({ from, value })), changes: [], cuts: [], notes: [] };
  const copying: Copying = {
    sourceRecords,
    destRecords,
    selection,
    plan,
    rootUrn: ensureRootStack(destRecords, plan, destStack),
    rewrite: { destStack, rewritten: new Map() },
    remaining: (urn) => selection.byUrn.has(urn) && !selection.moving.has(urn),
  };
  const refusal = copyProviders(copying) ?? copyResources(copying);
  return refusal === undefined ? plan : { refusal };
}

/** The destination's root stack urn; a root stack is created first in the file when it has none. */
function ensureRootStack(destRecords: readonly JsonObject[], plan: DestinationPlan, destStack: StackName): string {
  const existing = destRecords.find((r) => isRootStack(r));
  if (existing) return existing.urn as string;
  const rootStack: JsonObject = {
    urn: newUrn(destStack.stack, destStack.project, '', 'pulumi:pulumi:Stack', `${destStack.project}-${destStack.stack}`),
    custom: false,
    type: 'pulumi:pulumi:Stack',
  };
  plan.records.unshift({ value: rootStack });
  plan.changes.push({ urn: rootStack.urn as string, index: -1, action: 'added', detail: l10n.t('root stack created') });
  return rootStack.urn as string;
}

function withDestinationStack(urn: string, destStack: StackName): string {
  if (!urn.startsWith('urn:pulumi:')) return urn;
  const parts = urnParts(urn);
  const type = parts.qualifiedType;
  return `urn:pulumi:${destStack.stack}::${destStack.project}::${type}::${parts.name}`;
}

/** A copy of `record` with its provider, parent and dependencies rewritten, and its urn rebuilt from its new parent's type chain. */
function rewriteRecord(record: JsonObject, rewrite: UrnRewrite): JsonObject {
  const next: JsonObject = { ...record };
  const map = (urn: string) => rewrite.rewritten.get(urn) ?? withDestinationStack(urn, rewrite.destStack);
  const mapList = (list: unknown[]) => list.map((u) => (typeof u === 'string' && u ? map(u) : u));
  if (str(record, 'provider')) next.provider = map(str(record, 'provider'));
  if (str(record, 'parent')) next.parent = map(str(record, 'parent'));
  if (Array.isArray(record.dependencies)) next.dependencies = mapList(record.dependencies);
  if (isObject(record.propertyDependencies)) {
    next.propertyDependencies = Object.fromEntries(Object.entries(record.propertyDependencies).map(([k, v]) => [k, Array.isArray(v) ? mapList(v) : v]));
  }
  if (str(record, 'deletedWith')) next.deletedWith = map(str(record, 'deletedWith'));
  if (typeof record.replaceWith === 'string' && record.replaceWith) next.replaceWith = map(record.replaceWith);
  else if (Array.isArray(record.replaceWith)) next.replaceWith = mapList(record.replaceWith);
  const parts = urnParts(withDestinationStack(record.urn as string, rewrite.destStack));
  const parentType = str(next, 'parent') ? urnParts(str(next, 'parent')).qualifiedType : '';
  next.urn = newUrn(parts.stack, parts.project, parentType, parts.type, parts.name);
  return next;
}

/** Copies the providers the moved resources use; one the destination already has (same id or same inputs) is reused instead. */
function copyProviders(copying: Copying): string | undefined {
  const { selection, plan, rewrite } = copying;
  for (const index of selection.providerIndices) {
    const original = copying.sourceRecords[index];
    const originalRef = `${String(original.urn)}::${str(original, 'id')}`;
    let copy = breakDependencies(original, copying.remaining, plan.cuts);
    if (!selection.moving.has(str(copy, 'parent'))) copy = { ...copy, parent: copying.rootUrn };
    copy = rewriteRecord(copy, rewrite);
    const existing = plan.records.find((r) => r.value.urn === copy.urn)?.value;
    if (existing) {
      if (str(existing, 'id') === str(copy, 'id') || JSON.stringify(existing.inputs ?? {}) === JSON.stringify(copy.inputs ?? {})) {
        rewrite.rewritten.set(originalRef, `${String(existing.urn)}::${str(existing, 'id')}`);
        plan.notes.push(l10n.t('provider {0} already in the destination: reused', String(copy.urn)));
        continue;
      }
      return l10n.t('provider {0} already exists in destination stack', String(copy.urn));
    }
    rewrite.rewritten.set(originalRef, `${String(copy.urn)}::${str(copy, 'id')}`);
    plan.records.push({ value: copy });
    plan.changes.push({ urn: original.urn as string, index, action: 'added', newUrn: copy.urn as string, detail: l10n.t('provider copied') });
  }
  return undefined;
}

/** Moves the resources in, in file order; one whose parent stays behind goes under the root stack. */
function copyResources(copying: Copying): string | undefined {
  const { selection, plan, rewrite } = copying;
  for (const index of selection.movedIndices) {
    const original = copying.sourceRecords[index];
    let copy = original;
    if (!selection.moving.has(str(copy, 'parent'))) copy = { ...copy, parent: copying.rootUrn };
    copy = breakDependencies(copy, copying.remaining, plan.cuts);
    copy = rewriteRecord(copy, rewrite);
    rewrite.rewritten.set(original.urn as string, copy.urn as string);
    if (copying.destRecords.some((r) => r.urn === copy.urn)) return l10n.t('resource {0} already exists in destination stack', String(copy.urn));
    plan.records.push({ value: copy });
    plan.changes.push({ urn: original.urn as string, index, action: 'moved', newUrn: copy.urn as string });
  }
  return undefined;
}

type PendingCleared = SurgeryOutcome['pendingCleared'];

/** The pending operations a file loses, as Pulumi's `SaveSnapshot` clears them. */
function pendingOf(doc: EditableState): PendingCleared {
  const deployment = deploymentOf(doc);
  const operations = Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  return operations.map((op) => ({ type: isObject(op) && typeof op.type === 'string' ? op.type : '', urn: isObject(op) && isObject(op.resource) ? str(op.resource, 'urn') : '' }));
}

const pendingNote = () => l10n.t("Pending operations are cleared in both files, as Pulumi's SaveSnapshot clears them.");
const cutAdvice = () => l10n.t('Add stack outputs and stack references in the programs for the dependencies that were cut.');

/** Renders and checks both files; when either is refused, both are. */
function finishMove(files: MoveFiles, plan: MovePlan, verify: boolean | undefined): MoveOutcome {
  const sourcePending = pendingOf(files.source);
  const destPending = pendingOf(files.dest);
  const sourceOutcome = finishSource(files.source, plan, sourcePending, verify);
  const destOutcome = finishDestination(files.dest, plan, destPending, verify);
  if (sourceOutcome.status === 'refused' || destOutcome.status === 'refused') {
    const errors = [...sourceOutcome.errors.map((e) => l10n.t('source: {0}', e)), ...destOutcome.errors.map((e) => l10n.t('destination: {0}', e))];
    return {
      source: { ...sourceOutcome, status: 'refused', errors, edits: [], text: files.source.text },
      dest: { ...destOutcome, status: 'refused', errors, edits: [], text: files.dest.text },
    };
  }
  if (files.destReplaced !== undefined) {
    // The deployment was created whole: one edit replaces the file.
    destOutcome.edits = [{ offset: 0, length: files.destReplaced.length, newText: destOutcome.text }];
    destOutcome.notes.push(l10n.t("The destination had no deployment yet: one was created (an empty manifest, as Pulumi's empty snapshot has)."));
  }
  return { source: sourceOutcome, dest: destOutcome };
}

function finishSource(source: EditableState, plan: MovePlan, pending: PendingCleared, verify: boolean | undefined): SurgeryOutcome {
  const records = source.records;
  const { movedIndices, warnings } = plan.selection;
  const moved = movedIndices.length;
  const cuts = plan.source.cuts;
  return finish(
    source,
    'move',
    { records: plan.source.records, keepPending: [] },
    {
      message: moved === 1 ? l10n.t('1 resource moved out') : l10n.t('{0} resources moved out', moved),
      changes: movedIndices.map((index) => ({ urn: records[index].urn as string, index, action: 'removed' as const, detail: l10n.t('moved to the destination') })),
      referencesCut: cuts,
      pendingCleared: pending,
      notes: [...warnings.map((w) => l10n.t('warning: {0}', w)), ...(pending.length ? [pendingNote()] : []), ...(cuts.length ? [cutAdvice()] : [])],
    },
    { verify },
  );
}

function finishDestination(dest: EditableState, plan: MovePlan, pending: PendingCleared, verify: boolean | undefined): SurgeryOutcome {
  const moved = plan.selection.movedIndices.length;
  const cuts = plan.dest.cuts;
  return finish(
    dest,
    'move',
    { records: plan.dest.records, keepPending: [] },
    {
      message: moved === 1 ? l10n.t('1 resource moved in') : l10n.t('{0} resources moved in', moved),
      changes: plan.dest.changes,
      referencesCut: cuts,
      pendingCleared: pending,
      notes: [
        ...plan.dest.notes,
        ...(pending.length ? [pendingNote()] : []),
        ...(cuts.length ? [cutAdvice()] : []),
        l10n.t('Aliases, resource references in property values and pending operations are not rewritten, as Pulumi leaves them.'),
      ],
    },
    { verify },
  );
}

/** The checkpoint `text` with an empty deployment as its `latest`, when it is a checkpoint without one. */
function withEmptyDeployment(text: string): string | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(root) || !isObject(root.checkpoint) || (root.checkpoint.latest !== undefined && root.checkpoint.latest !== null)) return undefined;
  const next = {
    ...root,
    version: typeof root.version === 'number' && root.version >= 1 ? root.version : 3,
    checkpoint: { ...root.checkpoint, latest: { manifest: { time: '0001-01-01T00:00:00Z', magic: '', version: '' }, resources: [] } },
  };
  const style = detectStyle(text);
  return style.minified ? JSON.stringify(next) : `${JSON.stringify(next, null, style.unit)}${text.endsWith('\n') ? '\n' : ''}`;
}
