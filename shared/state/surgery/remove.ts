/**
 * `pulumi state remove` (aliases `rm`, `delete`): pkg/cmd/pulumi/state/state_delete.go and
 * pkg/resource/edit/operations.go `DeleteResource`, with `DependencyGraph.OnlyDependsOn`
 * (pkg/resource/graph/dependency_graph.go) ported as is, quirks included: dependents are found
 * only after the target, and a dependency on a urn with several dependent copies does not count.
 */
import * as l10n from '@vscode/l10n';
import type { JsonObject } from '../model/structure';
import { UrnMap } from '../model/urnMap';
import { providerRef, str, type EditableState, type SurgeryInput } from './document';
import { finish, openForOperation, refused, type SurgeryChange, type SurgeryOutcome } from './outcome';
import { resolveTarget, TargetError } from './targets';

export interface RemoveOptions {
  /** Every resource (`--all`); `targets` must then be empty. */
  all?: boolean;
  targetDependents?: boolean;
  /** Remove protected resources too. */
  force?: boolean;
  verify?: boolean;
}

class RemoveRefusal extends Error {}

/**
 * `OnlyDependsOn(res)` over the current list (`current` holds original indices): the records after
 * `target` that depend on it, directly or through each other, and on no other copy of its urn.
 */
function onlyDependsOn(records: readonly JsonObject[], current: readonly number[], position: number): number[] {
  const res = records[current[position]];
  const resUrn = res.urn as string;
  const resId = str(res, 'id');
  // Urn-keyed maps that hash only the urns' ends: every reference looked up is a fresh string.
  const dependentSet = new UrnMap<string[]>().set(resUrn, [resId]);
  const nonDependentSet = new UrnMap<string[]>();
  const push = (map: UrnMap<string[]>, urn: string, id: string) => {
    const list = map.get(urn);
    if (list) list.push(id);
    else map.set(urn, [id]);
  };
  for (let i = 0; i < position; i++) {
    const r = records[current[i]];
    push(nonDependentSet, r.urn as string, str(r, 'id'));
  }
  const dependents: number[] = [];
  for (let i = position + 1; i < current.length; i++) {
    const candidate = records[current[i]];
    const urn = candidate.urn as string;
    const id = str(candidate, 'id');
    let dependent = false;
    if (!(urn === resUrn && id === resId)) {
      dependent = dependsOnly(candidate, dependentSet, nonDependentSet);
      if (!dependent) {
        const provider = providerRef(candidate);
        if (provider && dependentSet.get(provider.urn)?.includes(provider.id)) dependent = true;
      }
    }
    if (dependent) {
      dependents.push(current[i]);
      push(dependentSet, urn, id);
    } else push(nonDependentSet, urn, id);
  }
  return dependents;
}

/** Whether a parent, dependency, property dependency, deletedWith or replaceWith of `candidate` makes it a dependent (`isDependent`). */
function dependsOnly(candidate: JsonObject, dependentSet: ReadonlyMap<string, string[]>, nonDependentSet: ReadonlyMap<string, string[]>): boolean {
  const other = (urn: unknown) => typeof urn === 'string' && urn !== '' && dependentSet.get(urn)?.length === 1 && !nonDependentSet.get(urn)?.length;
  const parent = candidate.parent;
  if (typeof parent === 'string' && parent !== '' && (dependentSet.get(parent)?.length ?? 0) > 0 && !nonDependentSet.get(parent)?.length) return true;
  const dependencies = candidate.dependencies;
  if (Array.isArray(dependencies)) for (const urn of dependencies) if (other(urn)) return true;
  const propertyDependencies = candidate.propertyDependencies;
  if (propertyDependencies && typeof propertyDependencies === 'object' && !Array.isArray(propertyDependencies)) {
    for (const key in propertyDependencies) {
      const list = (propertyDependencies as JsonObject)[key];
      if (Array.isArray(list)) for (const urn of list) if (other(urn)) return true;
    }
  }
  if (other(candidate.deletedWith)) return true;
  const replaceWith = candidate.replaceWith;
  if (Array.isArray(replaceWith)) {
    for (const urn of replaceWith) if (other(urn)) return true;
  } else if (other(replaceWith)) return true;
  return false;
}

function nameOf(urn: string): string {
  const parts = urn.split('::');
  return parts.slice(3).join('::');
}

/** `%-15q`: Go's quoted string, padded to 15 characters. */
function quotedPadded(name: string): string {
  const quoted = JSON.stringify(name);
  return quoted.length >= 15 ? quoted : quoted + ' '.repeat(15 - quoted.length);
}

/** A deletion in progress over the file's records. */
interface Deletion {
  records: readonly JsonObject[];
  options: RemoveOptions;
  /** The original indices of the records still in the list. */
  current: number[];
  /** The records deleted as targets (every record with `--all`), in deletion order. */
  removed: number[];
  /** The records deleted because they depend on a target. */
  dependentsRemoved: number[];
  notes: string[];
}

export function removeResources(input: SurgeryInput, targets: readonly string[], options: RemoveOptions = {}): SurgeryOutcome {
  const operation = 'remove';
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const misuse = argumentsRefusal(targets, options);
  if (misuse !== undefined) return refused(doc, operation, [misuse]);
  const deletion: Deletion = { records: doc.records, options, current: doc.records.map((_, i) => i), removed: [], dependentsRemoved: [], notes: [] };
  try {
    if (options.all) deleteAll(deletion);
    else {
      const refusal = deleteTargets(deletion, targets);
      if (refusal !== undefined) return refused(doc, operation, [refusal]);
    }
  } catch (error) {
    if (error instanceof RemoveRefusal) return refused(doc, operation, [error.message]);
    throw error;
  }
  return reportRemoval(doc, deletion, options);
}

/** `--all` and targets exclude each other, and one of them is needed. */
function argumentsRefusal(targets: readonly string[], options: RemoveOptions): string | undefined {
  if (options.all && targets.length) return l10n.t('cannot specify a resource URN when deleting all resources');
  if (!options.all && targets.length === 0) return l10n.t('Must supply {0} unless pulumi is run interactively (or pass {1})', '<resource URN>', '--all');
  return undefined;
}

/** A protected record stops the deletion unless it is forced; a forced one is noted. */
function checkProtected(deletion: Deletion, index: number): void {
  const { records, options } = deletion;
  if (records[index].protect !== true) return;
  if (!options.force) {
    throw new RemoveRefusal(l10n.t("{0} can't be safely deleted because it is protected. Re-run this command with {1} to force deletion", String(records[index].urn), '--force'));
  }
  deletion.notes.push(l10n.t('deleting protected resource {0} due to presence of {1}', String(records[index].urn), '--force'));
}

/** `DeleteResource` on the current list: the record goes with its dependents, which need `--target-dependents`. */
function deleteOne(deletion: Deletion, index: number): void {
  const { records } = deletion;
  checkProtected(deletion, index);
  const position = deletion.current.indexOf(index);
  if (position === -1) return;
  const deps = onlyDependsOn(records, deletion.current, position);
  if (deps.length && !deletion.options.targetDependents) {
    const lines = [l10n.t("{0} can't be safely deleted because the following resources depend on it:", String(records[index].urn))];
    for (const dep of deps) lines.push(` * ${quotedPadded(nameOf(records[dep].urn as string))} (${String(records[dep].urn)})`);
    lines.push('', l10n.t('Delete those resources first or pass {0}.', '--target-dependents'));
    throw new RemoveRefusal(lines.join('\n'));
  }
  for (const dep of deps) checkProtected(deletion, dep);
  const gone = new Set([index, ...deps]);
  deletion.current = deletion.current.filter((i) => !gone.has(i));
  deletion.removed.push(index);
  deletion.dependentsRemoved.push(...deps);
}

/**
 * `--all`: Pulumi deletes backwards, so that dependents go first: the last record never has
 * dependents, so each step removes exactly one record and only protect can stop it.
 */
function deleteAll(deletion: Deletion): void {
  for (let i = deletion.records.length - 1; i >= 0; i--) checkProtected(deletion, i);
  deletion.removed.push(...deletion.current.reverse());
  deletion.current = [];
}

/** Resolves every target (the first that fails refuses), then deletes them in Pulumi's order. */
function deleteTargets(deletion: Deletion, targets: readonly string[]): string | undefined {
  const chosen: number[] = [];
  const errors: string[] = [];
  for (const arg of targets) {
    try {
      const { index } = resolveTarget(deletion.records, arg, { pick: 'refuse' });
      if (!chosen.includes(index)) chosen.push(index);
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      errors.push(error.message);
    }
  }
  if (errors.length) return errors[0];
  const order = deleteOrder(deletion.records, chosen);
  if (order === undefined) return l10n.t('could not order deletions: selected resources have cyclic or conflicting dependencies; try deleting them one at a time');
  for (const index of order) deleteOne(deletion, index);
  return undefined;
}

/** `computeStateDeleteOrder`: repeatedly the first target none of whose dependents is still to go; undefined when none is. */
function deleteOrder(records: readonly JsonObject[], chosen: readonly number[]): number[] | undefined {
  const remaining = [...chosen];
  const order: number[] = [];
  const everything = records.map((_, i) => i);
  const dependentsOf = new Map<number, number[]>();
  const dependents = (t: number) => {
    if (!dependentsOf.has(t)) dependentsOf.set(t, onlyDependsOn(records, everything, t));
    return dependentsOf.get(t)!;
  };
  while (remaining.length) {
    if (remaining.length === 1) {
      order.push(remaining.pop()!);
      break;
    }
    const next = remaining.find((t) => dependents(t).every((d) => !remaining.includes(d)));
    if (next === undefined) return undefined;
    order.push(next);
    remaining.splice(remaining.indexOf(next), 1);
  }
  return order;
}

function reportRemoval(doc: EditableState, deletion: Deletion, options: RemoveOptions): SurgeryOutcome {
  const { records, removed, dependentsRemoved } = deletion;
  const count = removed.length;
  const message = options.all ? l10n.t('Resources deleted') : count === 1 ? l10n.t('Resource deleted') : l10n.t('{0} resources deleted', count);
  const changes: SurgeryChange[] = [...removed, ...dependentsRemoved]
    .sort((a, b) => a - b)
    .map((index) => ({ urn: records[index].urn as string, index, action: 'removed', detail: dependentsRemoved.includes(index) ? l10n.t('dependent') : undefined }));
  const kept = new Set(deletion.current);
  return finish(
    doc,
    'remove',
    { records: records.map((value, from) => ({ from, value })).filter((r) => kept.has(r.from)) },
    {
      message,
      changes,
      dependentsRemoved: dependentsRemoved.map((i) => records[i].urn as string),
      notes: [...deletion.notes, l10n.t('Only the resources list is edited, as Pulumi does: pending operations, aliases and resource references in property values are left as they are.')],
    },
    { verify: options.verify },
  );
}
