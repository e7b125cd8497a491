/**
 * The parsed state document: which shape it is (product.md §5) and where its resources are.
 * Built from the value `JSON.parse` (or the tolerant parser) returned, by content alone.
 */
import type { JsonPath } from './locate';

export type StateShape = 'record' | 'deployment' | 'export' | 'checkpoint' | 'unknown';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface ResourceEntry {
  /** Position in the resources array (0 for a single record). */
  index: number;
  path: JsonPath;
  /** The record itself; not necessarily an object (the schema reports that). */
  value: unknown;
  urn?: string;
  type?: string;
  deleted: boolean;
}

export interface StateDocument {
  root: unknown;
  shape: StateShape;
  /** Path of the deployment object (manifest, resources, …), when the shape has one. */
  deploymentPath?: JsonPath;
  /** Path of the resources array, when present. */
  resourcesPath?: JsonPath;
  resources: ResourceEntry[];
  /** Records inside pending operations: schema-checked, not part of the integrity checks. */
  pendingResources: ResourceEntry[];
  /** The checkpoint's `stack`, when the shape is a checkpoint. */
  checkpointStack?: string;
}

/** Recognises the shape by its top-level keys. */
export function detectShape(root: unknown): StateShape {
  if (!isObject(root)) return 'unknown';
  if ('checkpoint' in root) return 'checkpoint';
  if ('deployment' in root) return 'export';
  if ('manifest' in root || 'resources' in root) return 'deployment';
  if ('urn' in root) return 'record';
  if ('version' in root) return 'export';
  return 'unknown';
}

function entry(index: number, path: JsonPath, value: unknown): ResourceEntry {
  const record = isObject(value) ? value : undefined;
  return {
    index,
    path,
    value,
    urn: typeof record?.urn === 'string' ? record.urn : undefined,
    type: typeof record?.type === 'string' ? record.type : undefined,
    deleted: record?.delete === true,
  };
}

export function buildStateDocument(root: unknown): StateDocument {
  const shape = detectShape(root);
  const document: StateDocument = { root, shape, resources: [], pendingResources: [] };
  if (shape === 'record') {
    document.resources.push(entry(0, [], root));
    return document;
  }
  let deploymentPath: JsonPath | undefined;
  if (shape === 'deployment') deploymentPath = [];
  else if (shape === 'export') deploymentPath = ['deployment'];
  else if (shape === 'checkpoint') {
    const checkpoint = (root as JsonObject).checkpoint;
    if (isObject(checkpoint)) {
      if (typeof checkpoint.stack === 'string') document.checkpointStack = checkpoint.stack;
      deploymentPath = ['checkpoint', 'latest'];
    }
  }
  if (!deploymentPath) return document;
  const deployment = valueAt(root, deploymentPath);
  if (!isObject(deployment)) return document;
  document.deploymentPath = deploymentPath;
  if (Array.isArray(deployment.resources)) {
    document.resourcesPath = [...deploymentPath, 'resources'];
    deployment.resources.forEach((value, index) => document.resources.push(entry(index, [...deploymentPath, 'resources', index], value)));
  }
  if (Array.isArray(deployment.pending_operations)) {
    deployment.pending_operations.forEach((operation, index) => {
      if (isObject(operation) && 'resource' in operation) {
        document.pendingResources.push(entry(index, [...deploymentPath, 'pending_operations', index, 'resource'], operation.resource));
      }
    });
  }
  return document;
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof segment === 'number') value = Array.isArray(value) ? value[segment] : undefined;
    else value = isObject(value) ? value[segment] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

export type ReferenceKind =
  | 'parent'
  | 'dependency'
  | 'propertyDependency'
  | 'deletedWith'
  | 'replaceWith'
  | 'provider'
  | 'alias'
  | 'resourceReference';

/** A urn written somewhere in a resource, pointing at another resource. */
export interface ReferenceSite {
  kind: ReferenceKind;
  /** The referenced urn (for a provider reference, the urn part). */
  target: string;
  /** Path of the JSON string holding the urn. */
  path: JsonPath;
  /** Index of the referring resource. */
  from: number;
  /** propertyDependencies key. */
  property?: string;
  /** Provider references: the id part. */
  providerId?: string;
}

/**
 * The ordering-relevant references of one resource, in Pulumi's checking order: parent,
 * dependencies, propertyDependencies, deletedWith, replaceWith. Empty strings are skipped.
 */
export function dependencyReferences(resource: ResourceEntry): ReferenceSite[] {
  const record = resource.value;
  if (!isObject(record)) return [];
  const sites: ReferenceSite[] = [];
  const base = resource.path;
  const from = resource.index;
  if (typeof record.parent === 'string' && record.parent !== '') sites.push({ kind: 'parent', target: record.parent, path: [...base, 'parent'], from });
  if (Array.isArray(record.dependencies)) {
    record.dependencies.forEach((target, i) => {
      if (typeof target === 'string' && target !== '') sites.push({ kind: 'dependency', target, path: [...base, 'dependencies', i], from });
    });
  }
  if (isObject(record.propertyDependencies)) {
    for (const [property, targets] of Object.entries(record.propertyDependencies)) {
      if (!Array.isArray(targets)) continue;
      targets.forEach((target, i) => {
        if (typeof target === 'string' && target !== '') {
          sites.push({ kind: 'propertyDependency', target, path: [...base, 'propertyDependencies', property, i], from, property });
        }
      });
    }
  }
  if (typeof record.deletedWith === 'string' && record.deletedWith !== '') {
    sites.push({ kind: 'deletedWith', target: record.deletedWith, path: [...base, 'deletedWith'], from });
  }
  const replaceWith = record.replaceWith;
  if (typeof replaceWith === 'string' && replaceWith !== '') sites.push({ kind: 'replaceWith', target: replaceWith, path: [...base, 'replaceWith'], from });
  else if (Array.isArray(replaceWith)) {
    replaceWith.forEach((target, i) => {
      if (typeof target === 'string' && target !== '') sites.push({ kind: 'replaceWith', target, path: [...base, 'replaceWith', i], from });
    });
  }
  return sites;
}

export function aliasReferences(resource: ResourceEntry): ReferenceSite[] {
  const record = resource.value;
  if (!isObject(record) || !Array.isArray(record.aliases)) return [];
  const sites: ReferenceSite[] = [];
  record.aliases.forEach((target, i) => {
    if (typeof target === 'string' && target !== '') sites.push({ kind: 'alias', target, path: [...resource.path, 'aliases', i], from: resource.index });
  });
  return sites;
}

export const REFERENCE_KIND_LABEL: Record<ReferenceKind, string> = {
  parent: 'parent',
  dependency: 'dependency',
  propertyDependency: 'property dependency',
  deletedWith: 'deletedWith',
  replaceWith: 'replaceWith',
  provider: 'provider',
  alias: 'alias',
  resourceReference: 'resource reference',
};
