/**
 * The state document as surgery sees it: the parsed snapshot, its records as objects, where each
 * record sits in the text, and the file's style. Opening refuses what surgery cannot edit safely
 * (a syntax error, no resources array, a legacy checkpoint), with a message saying why.
 */
import * as l10n from '@vscode/l10n';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import { resourceLayoutOf, type StateSnapshot } from '../model/snapshot';
import type { ResourceLayout } from '../model/layout';
import { parseState } from '../model/snapshot';
import { detectStyle, type TextStyle } from './text';

export interface EditableState {
  snapshot: StateSnapshot;
  text: string;
  style: TextStyle;
  /** The records, in file order (every one an object: opening refuses anything else). */
  records: JsonObject[];
  /** Where each record sits in the text; undefined when there is no resources array. */
  layout?: ResourceLayout;
  /** The records of `pending_operations`, in order (an entry without `resource` is kept as undefined). */
  pending: Array<JsonObject | undefined>;
}

/** What an operation works on: a text, its parsed snapshot, or a document opened for surgery (parsed once either way). */
export type SurgeryInput = string | StateSnapshot | EditableState;

export class SurgeryError extends Error {}

/**
 * Opens `text` (or its snapshot, parsed already) for surgery, or throws a SurgeryError that says why
 * it cannot be edited. `name` says which file it is in messages: "the file" by default, "the source"
 * and "the destination" for a move.
 */
export function openState(input: string | StateSnapshot, name = l10n.t('the file')): EditableState {
  const snapshot = typeof input === 'string' ? parseState(input) : input;
  const text = snapshot.text;
  if (snapshot.parsedWith !== 'json') {
    const first = snapshot.syntax[0];
    const at = first ? snapshot.lines.positionAt(first.span.offset) : undefined;
    throw new SurgeryError(
      at
        ? l10n.t('{0} is not valid JSON (line {1}, column {2}: {3}); fix the syntax first (`quota-state check` shows every error)', name, at.line + 1, at.character + 1, first!.message)
        : l10n.t('{0} is not valid JSON; fix the syntax first (`quota-state check` shows every error)', name),
    );
  }
  const { structure } = snapshot;
  if (structure.shape === 'record' || structure.shape === 'unknown') {
    throw new SurgeryError(
      l10n.t('{0} is not a state file: expected an export {1}, a checkpoint {2} or a deployment {3}', name, '{version, deployment}', '{version, checkpoint}', '{manifest, resources}'),
    );
  }
  if (structure.legacyCheckpoint) {
    throw new SurgeryError(l10n.t('{0} is a version-0 checkpoint ("latest" at the top, no "version"); upgrade it first (any `pulumi stack export` writes version 3)', name));
  }
  if (!structure.deploymentPath) throw new SurgeryError(l10n.t('{0} has no deployment (a checkpoint whose "latest" is empty): there is nothing to edit', name));
  const deployment = valueAt(structure.root, structure.deploymentPath) as JsonObject;
  if (deployment.resources !== undefined && deployment.resources !== null && !Array.isArray(deployment.resources)) {
    throw new SurgeryError(l10n.t('{0}\'s "resources" is not an array', name));
  }
  const records: JsonObject[] = [];
  for (const resource of structure.resources) {
    if (!isObject(resource.value)) throw new SurgeryError(l10n.t("{0}'s resource at index {1} is not an object", name, resource.index));
    if (typeof resource.value.urn !== 'string' || resource.value.urn === '') throw new SurgeryError(l10n.t("{0}'s resource at index {1} has no urn", name, resource.index));
    records.push(resource.value);
  }
  const layout = structure.resourcesPath ? resourceLayoutOf(snapshot) : undefined;
  if (structure.resourcesPath && !layout) throw new SurgeryError(l10n.t("{0}'s resources could not be located in the text", name));
  const pendingList = deployment.pending_operations;
  const pending = Array.isArray(pendingList) ? pendingList.map((op) => (isObject(op) && isObject(op.resource) ? op.resource : undefined)) : [];
  return { snapshot, text, style: detectStyle(text), records, layout, pending };
}

/** Pulumi reads an absent string field as "". */
export function str(record: JsonObject, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' && value !== '' ? [value] : [];
}

type DependencyKind = 'parent' | 'dependency' | 'propertyDependency' | 'deletedWith' | 'replaceWith';

export interface Dependency {
  kind: DependencyKind;
  urn: string;
  key?: string;
}

/** `State.GetAllDependencies` (pkg/resource/state.go): parent, dependencies, property dependencies, deletedWith, replaceWith; empty urns skipped. */
export function allDependencies(record: JsonObject): Dependency[] {
  const out: Dependency[] = [];
  const parent = str(record, 'parent');
  if (parent) out.push({ kind: 'parent', urn: parent });
  for (const urn of strings(record.dependencies)) if (urn) out.push({ kind: 'dependency', urn });
  if (isObject(record.propertyDependencies)) {
    for (const [key, list] of Object.entries(record.propertyDependencies)) for (const urn of strings(list)) if (urn) out.push({ kind: 'propertyDependency', urn, key });
  }
  const deletedWith = str(record, 'deletedWith');
  if (deletedWith) out.push({ kind: 'deletedWith', urn: deletedWith });
  for (const urn of strings(record.replaceWith)) if (urn) out.push({ kind: 'replaceWith', urn });
  return out;
}

/** Pulumi's `providers.ParseReference`: `<provider urn>::<id>`, split at the last `::`. */
export function providerRef(record: JsonObject): { urn: string; id: string } | undefined {
  const reference = str(record, 'provider');
  if (!reference) return undefined;
  const at = reference.lastIndexOf('::');
  if (at === -1) return undefined;
  return { urn: reference.slice(0, at), id: reference.slice(at + 2) };
}

/** Pulumi's ResourceV3 field order: where a member an operation adds goes. */
export const RESOURCE_FIELD_ORDER = [
  'urn',
  'custom',
  'delete',
  'id',
  'type',
  'inputs',
  'outputs',
  'parent',
  'protect',
  'taint',
  'external',
  'dependencies',
  'initErrors',
  'provider',
  'propertyDependencies',
  'pendingReplacement',
  'additionalSecretOutputs',
  'aliases',
  'customTimeouts',
  'importID',
  'retainOnDelete',
  'deletedWith',
  'replaceWith',
  'created',
  'modified',
  'sourcePosition',
  'stackTrace',
  'ignoreChanges',
  'hideDiff',
  'replaceOnChanges',
  'replacementTrigger',
  'refreshBeforeUpdate',
  'viewOf',
  'resourceHooks',
  'extensionRef',
  'snippetID',
] as const;
