/**
 * The state file as surgery opens it for editing: the parsed snapshot, its records as objects, where each
 * record sits in the text, and the file's style. Opening refuses what surgery cannot edit safely
 * (a syntax error, no resources array, a legacy checkpoint), with a message saying why.
 */
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

export class SurgeryError extends Error {}

/** Opens `text` for surgery, or throws a SurgeryError that says why it cannot be edited. */
export function openState(text: string, name = 'the file'): EditableState {
  const snapshot = parseState(text);
  if (snapshot.parsedWith !== 'json') {
    const first = snapshot.syntax[0];
    const at = first ? snapshot.lines.positionAt(first.span.offset) : undefined;
    throw new SurgeryError(
      `${name} is not valid JSON${at ? ` (line ${at.line + 1}, column ${at.character + 1}: ${first!.message})` : ''}; fix the syntax first (\`quota-state check\` shows every error)`,
    );
  }
  const { structure } = snapshot;
  if (structure.shape === 'record' || structure.shape === 'unknown') {
    throw new SurgeryError(`${name} is not a state file: expected an export {version, deployment}, a checkpoint {version, checkpoint} or a deployment {manifest, resources}`);
  }
  if (structure.legacyCheckpoint) {
    throw new SurgeryError(`${name} is a version-0 checkpoint ("latest" at the top, no "version"); upgrade it first (any \`pulumi stack export\` writes version 3)`);
  }
  if (!structure.deploymentPath) throw new SurgeryError(`${name} has no deployment (a checkpoint whose "latest" is empty): there is nothing to edit`);
  const deployment = valueAt(structure.root, structure.deploymentPath) as JsonObject;
  if (deployment.resources !== undefined && deployment.resources !== null && !Array.isArray(deployment.resources)) {
    throw new SurgeryError(`${name}'s "resources" is not an array`);
  }
  const records: JsonObject[] = [];
  for (const resource of structure.resources) {
    if (!isObject(resource.value)) throw new SurgeryError(`${name}'s resource at index ${resource.index} is not an object`);
    if (typeof resource.value.urn !== 'string' || resource.value.urn === '') throw new SurgeryError(`${name}'s resource at index ${resource.index} has no urn`);
    records.push(resource.value);
  }
  const layout = structure.resourcesPath ? resourceLayoutOf(snapshot) : undefined;
  if (structure.resourcesPath && !layout) throw new SurgeryError(`${name}'s resources could not be located in the text`);
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
