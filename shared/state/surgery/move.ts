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
import { allDependencies, openState, str, SurgeryError, type EditableState } from './document';
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
  const root = doc.records.find((r) => r.type === 'pulumi:pulumi:Stack' && !str(r, 'parent'));
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

export function moveResources(
  sourceInput: string | EditableState,
  destInput: string | EditableState,
  targets: readonly string[],
  options: { includeParents?: boolean; verify?: boolean } = {},
): MoveOutcome {
  let source: EditableState;
  let dest: EditableState;
  // A destination stack with no deployment yet (a checkpoint whose `latest` is empty) gets one.
  let destReplaced: string | undefined;
  try {
    source = typeof sourceInput === 'string' ? openState(sourceInput, l10n.t('the source')) : sourceInput;
    try {
      dest = typeof destInput === 'string' ? openState(destInput, l10n.t('the destination')) : destInput;
    } catch (error) {
      const empty = typeof destInput === 'string' && error instanceof SurgeryError ? withEmptyDeployment(destInput) : undefined;
      if (!empty) throw error;
      destReplaced = destInput as string;
      dest = openState(empty, l10n.t('the destination'));
    }
  } catch (error) {
    if (error instanceof SurgeryError) return fail(undefined, undefined, [error.message]);
    throw error;
  }
  const records = source.records;
  if (records.length === 0) return fail(source, dest, [l10n.t('source stack has no resources')]);
  const destStack = stackOf(dest);
  if (!destStack) return fail(source, dest, [l10n.t("cannot tell the destination's stack and project: it is neither a DIY checkpoint nor has it resources to read them from")]);

  // Matching: exact urn equality; providers cannot be moved.
  const moving = new Set<string>();
  const unmatched = new Set(targets);
  let rootStackUrn = '';
  for (const record of records) {
    const urn = record.urn as string;
    if (!targets.includes(urn)) continue;
    if (str(record, 'type').startsWith('pulumi:providers:')) return fail(source, dest, [l10n.t('cannot move providers. Only resources can be moved, and providers will be included automatically')]);
    if (record.type === 'pulumi:pulumi:Stack' && !str(record, 'parent')) rootStackUrn = urn;
    moving.add(urn);
    unmatched.delete(urn);
  }
  const warnings = [...unmatched].map((arg) => l10n.t('Resource {0} not found in source stack', arg));
  if (moving.size === 0) return fail(source, dest, [[l10n.t('no resources found to move'), ...warnings, listHint()].join('\n')]);

  // Parents (ParentsOf) and transitive children (ChildrenOf), providers excluded.
  const byUrn = new Map<string, JsonObject>();
  for (const record of records) byUrn.set(record.urn as string, record);
  const childrenOf = new Map<string, string[]>();
  for (const record of records) {
    const parent = str(record, 'parent');
    if (parent) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), record.urn as string]);
  }
  if (options.includeParents) {
    for (const urn of [...moving]) {
      let parent = str(byUrn.get(urn)!, 'parent');
      const guard = new Set<string>();
      while (parent && byUrn.has(parent) && !guard.has(parent)) {
        guard.add(parent);
        const record = byUrn.get(parent)!;
        if (!((record.type === 'pulumi:pulumi:Stack' && !str(record, 'parent')) || str(record, 'type').startsWith('pulumi:providers:'))) moving.add(parent);
        parent = str(record, 'parent');
      }
    }
  }
  const queue = [...moving];
  for (let q = 0; q < queue.length; q++) {
    for (const child of childrenOf.get(queue[q]) ?? []) {
      if (str(byUrn.get(child)!, 'type').startsWith('pulumi:providers:') || moving.has(child)) continue;
      moving.add(child);
      queue.push(child);
    }
  }
  moving.delete(rootStackUrn);
  if (moving.size === 0) return fail(source, dest, [l10n.t('no resources found to move (the root stack has no children to move)')]);

  const movedIndices = records.map((r, i) => (moving.has(r.urn as string) ? i : -1)).filter((i) => i !== -1);
  const providersToCopy = new Set(movedIndices.map((i) => str(records[i], 'provider')).filter(Boolean));
  for (const i of movedIndices) {
    if (str(records[i], 'extensionRef')) return fail(source, dest, [l10n.t('{0} has an {1}: moving extension blobs is not supported offline', String(records[i].urn), 'extensionRef')]);
  }

  // Secrets: ciphertext moves only between files with the same secrets provider configuration.
  const sourceDeployment = valueAt(source.snapshot.structure.root, source.snapshot.structure.deploymentPath!) as JsonObject;
  const destDeployment = valueAt(dest.snapshot.structure.root, dest.snapshot.structure.deploymentPath!) as JsonObject;
  const providerIndices = records.map((r, i) => (!moving.has(r.urn as string) && providersToCopy.has(`${String(r.urn)}::${str(r, 'id')}`) ? i : -1)).filter((i) => i !== -1);
  const carriesCiphertext = [...movedIndices, ...providerIndices].some((i) => hasCiphertext(records[i].inputs) || hasCiphertext(records[i].outputs));
  if (carriesCiphertext && JSON.stringify(sourceDeployment.secrets_providers ?? null) !== JSON.stringify(destDeployment.secrets_providers ?? null)) {
    return fail(source, dest, [
      l10n.t(
        "The resources to move hold encrypted secrets and the two files do not share a secrets provider configuration: they cannot be re-encrypted offline. Use `pulumi state move` (it decrypts with the source's provider and encrypts with the destination's), or give both stacks the same secrets provider first.",
      ),
    ]);
  }

  // The source: what stays loses its dependencies on what moves.
  const brokenSource: CutReference[] = [];
  const breakDependencies = (record: JsonObject, gone: (urn: string) => boolean, cuts: CutReference[]): JsonObject => {
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
  };
  const sourcePlan: PlannedRecord[] = [];
  records.forEach((record, from) => {
    if (moving.has(record.urn as string)) return;
    sourcePlan.push({ from, value: breakDependencies(record, (u) => moving.has(u), brokenSource) });
  });

  // The destination.
  const destRecords = dest.records;
  const destPlan: PlannedRecord[] = destRecords.map((value, from) => ({ from, value }));
  let rootStack = destRecords.find((r) => r.type === 'pulumi:pulumi:Stack' && !str(r, 'parent'));
  const changes: SurgeryChange[] = [];
  if (!rootStack) {
    rootStack = {
      urn: newUrn(destStack.stack, destStack.project, '', 'pulumi:pulumi:Stack', `${destStack.project}-${destStack.stack}`),
      custom: false,
      type: 'pulumi:pulumi:Stack',
    };
    destPlan.unshift({ value: rootStack });
    changes.push({ urn: rootStack.urn as string, index: -1, action: 'added', detail: l10n.t('root stack created') });
  }
  const rootUrn = rootStack.urn as string;
  const destUrns = new Set(destPlan.map((r) => r.value.urn as string));
  const remaining = (urn: string) => byUrn.has(urn) && !moving.has(urn);
  const renameStackAndProject = (urn: string) => {
    if (!urn.startsWith('urn:pulumi:')) return urn;
    const parts = urnParts(urn);
    const type = parts.qualifiedType;
    return `urn:pulumi:${destStack.stack}::${destStack.project}::${type}::${parts.name}`;
  };
  const brokenDest: CutReference[] = [];
  const rewriteMap = new Map<string, string>();
  const rewrite = (record: JsonObject): JsonObject => {
    const next: JsonObject = { ...record };
    const map = (urn: string) => rewriteMap.get(urn) ?? renameStackAndProject(urn);
    if (str(record, 'provider')) next.provider = rewriteMap.get(str(record, 'provider')) ?? renameStackAndProject(str(record, 'provider'));
    if (str(record, 'parent')) next.parent = map(str(record, 'parent'));
    if (Array.isArray(record.dependencies)) next.dependencies = record.dependencies.map((u) => (typeof u === 'string' && u ? map(u) : u));
    if (isObject(record.propertyDependencies)) {
      next.propertyDependencies = Object.fromEntries(Object.entries(record.propertyDependencies).map(([k, v]) => [k, Array.isArray(v) ? v.map((u) => (typeof u === 'string' && u ? map(u) : u)) : v]));
    }
    if (str(record, 'deletedWith')) next.deletedWith = map(str(record, 'deletedWith'));
    if (typeof record.replaceWith === 'string' && record.replaceWith) next.replaceWith = map(record.replaceWith);
    else if (Array.isArray(record.replaceWith)) next.replaceWith = record.replaceWith.map((u) => (typeof u === 'string' && u ? map(u) : u));
    const parts = urnParts(renameStackAndProject(record.urn as string));
    const parentType = str(next, 'parent') ? urnParts(str(next, 'parent')).qualifiedType : '';
    next.urn = newUrn(parts.stack, parts.project, parentType, parts.type, parts.name);
    return next;
  };
  const notes: string[] = [];
  for (const index of providerIndices) {
    const original = records[index];
    const originalRef = `${String(original.urn)}::${str(original, 'id')}`;
    let copy = breakDependencies(original, remaining, brokenDest);
    if (!moving.has(str(copy, 'parent'))) copy = { ...copy, parent: rootUrn };
    copy = rewrite(copy);
    const existing = destPlan.find((r) => r.value.urn === copy.urn)?.value;
    if (existing) {
      if (str(existing, 'id') === str(copy, 'id') || JSON.stringify(existing.inputs ?? {}) === JSON.stringify(copy.inputs ?? {})) {
        rewriteMap.set(originalRef, `${String(existing.urn)}::${str(existing, 'id')}`);
        notes.push(l10n.t('provider {0} already in the destination: reused', String(copy.urn)));
        continue;
      }
      return fail(source, dest, [l10n.t('provider {0} already exists in destination stack', String(copy.urn))]);
    }
    rewriteMap.set(originalRef, `${String(copy.urn)}::${str(copy, 'id')}`);
    destPlan.push({ value: copy });
    destUrns.add(copy.urn as string);
    changes.push({ urn: original.urn as string, index, action: 'added', newUrn: copy.urn as string, detail: l10n.t('provider copied') });
  }
  for (const index of movedIndices) {
    const original = records[index];
    let copy = original;
    if (!moving.has(str(copy, 'parent'))) copy = { ...copy, parent: rootUrn };
    copy = breakDependencies(copy, remaining, brokenDest);
    copy = rewrite(copy);
    rewriteMap.set(original.urn as string, copy.urn as string);
    if (destRecords.some((r) => r.urn === copy.urn)) return fail(source, dest, [l10n.t('resource {0} already exists in destination stack', String(copy.urn))]);
    destPlan.push({ value: copy });
    changes.push({ urn: original.urn as string, index, action: 'moved', newUrn: copy.urn as string });
  }

  const clearAll = (doc: EditableState) => {
    const deployment = valueAt(doc.snapshot.structure.root, doc.snapshot.structure.deploymentPath!) as JsonObject;
    const operations = Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
    return operations.map((op) => ({ type: isObject(op) && typeof op.type === 'string' ? op.type : '', urn: isObject(op) && isObject(op.resource) ? str(op.resource, 'urn') : '' }));
  };
  const sourcePending = clearAll(source);
  const destPending = clearAll(dest);
  const pendingNote = l10n.t("Pending operations are cleared in both files, as Pulumi's SaveSnapshot clears them.");
  const cutAdvice = l10n.t('Add stack outputs and stack references in the programs for the dependencies that were cut.');
  const moved = movedIndices.length;
  const sourceOutcome = finish(
    source,
    'move',
    { records: sourcePlan, keepPending: [] },
    {
      message: moved === 1 ? l10n.t('1 resource moved out') : l10n.t('{0} resources moved out', moved),
      changes: movedIndices.map((index) => ({ urn: records[index].urn as string, index, action: 'removed' as const, detail: l10n.t('moved to the destination') })),
      referencesCut: brokenSource,
      pendingCleared: sourcePending,
      notes: [...warnings.map((w) => l10n.t('warning: {0}', w)), ...(sourcePending.length ? [pendingNote] : []), ...(brokenSource.length ? [cutAdvice] : [])],
    },
    { verify: options.verify },
  );
  const destOutcome = finish(
    dest,
    'move',
    { records: destPlan, keepPending: [] },
    {
      message: moved === 1 ? l10n.t('1 resource moved in') : l10n.t('{0} resources moved in', moved),
      changes,
      referencesCut: brokenDest,
      pendingCleared: destPending,
      notes: [
        ...notes,
        ...(destPending.length ? [pendingNote] : []),
        ...(brokenDest.length ? [cutAdvice] : []),
        l10n.t('Aliases, resource references in property values and pending operations are not rewritten, as Pulumi leaves them.'),
      ],
    },
    { verify: options.verify },
  );
  if (sourceOutcome.status === 'refused' || destOutcome.status === 'refused') {
    const errors = [...sourceOutcome.errors.map((e) => l10n.t('source: {0}', e)), ...destOutcome.errors.map((e) => l10n.t('destination: {0}', e))];
    return {
      source: { ...sourceOutcome, status: 'refused', errors, edits: [], text: source.text },
      dest: { ...destOutcome, status: 'refused', errors, edits: [], text: dest.text },
    };
  }
  if (destReplaced !== undefined) {
    // The deployment was created whole: one edit replaces the file.
    destOutcome.edits = [{ offset: 0, length: destReplaced.length, newText: destOutcome.text }];
    destOutcome.notes.push(l10n.t("The destination had no deployment yet: one was created (an empty manifest, as Pulumi's empty snapshot has)."));
  }
  return { source: sourceOutcome, dest: destOutcome };
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
