/**
 * The structure of a parsed state file: which shape it is (record, deployment, export, checkpoint)
 * and where its resources are. Built from the value `JSON.parse` (or the tolerant parser) returned,
 * by content alone. It is one part of a snapshot (snapshot.ts); the state document the services
 * read is `StateDocument` (services/context.ts).
 */
import * as l10n from '@vscode/l10n';
import { lazyTable } from '../../text/lazyTable';
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

/** The parsed value, its shape and its resource entries (a snapshot's `structure`). */
export interface StateStructure {
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
  /** Path of the checkpoint object (stack, config, latest): `checkpoint`, or the root of a legacy checkpoint. */
  checkpointBodyPath?: JsonPath;
  /**
   * A checkpoint from before versions: no `version`, `stack`/`latest` at the top. Pulumi still loads
   * it (pkg/resource/stack/checkpoint.go `UnmarshalVersionedCheckpointToLatestCheckpoint`, case 0).
   */
  legacyCheckpoint?: boolean;
}

/**
 * The record version Pulumi reads the resources as. A legacy or version-1 document is migrated by
 * pkg/resource/stack/migrate (`UpToResourceV2` drops `provider`; `ResourceV1` declares only urn, custom,
 * delete, id, type, inputs, defaults, outputs, parent, protect, dependencies and initErrors). A version-2
 * document's `ResourceV2` adds only `provider`, and `UpToResourceV3` derives `propertyDependencies` from
 * `dependencies`: `deletedWith`, `replaceWith`, `aliases`, snippets and the rest are never read.
 */
export function recordVersion(structure: StateStructure, mode: 'pulumi' | 'seed-v3'): 1 | 2 | 3 {
  if (mode !== 'pulumi') return 3;
  if (structure.legacyCheckpoint === true) return 1;
  const version = isObject(structure.root) ? structure.root.version : undefined;
  return version === 1 ? 1 : version === 2 ? 2 : 3;
}

/** Recognises the shape by its top-level keys. */
function detectShape(root: unknown): StateShape {
  if (!isObject(root)) return 'unknown';
  if ('checkpoint' in root) return 'checkpoint';
  if ('deployment' in root) return 'export';
  if (isLegacyCheckpoint(root)) return 'checkpoint';
  if ('manifest' in root || 'resources' in root) return 'deployment';
  if ('urn' in root) return 'record';
  if ('version' in root) return 'export';
  return 'unknown';
}

/** Version 0: no `version` and the deployment under a top-level `latest` (checkpoint.go, case 0). */
function isLegacyCheckpoint(root: JsonObject): boolean {
  return 'latest' in root && !('version' in root) && !('urn' in root);
}

function resourceEntry(index: number, path: JsonPath, value: unknown): ResourceEntry {
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

export function buildStateStructure(root: unknown): StateStructure {
  const shape = detectShape(root);
  const structure: StateStructure = { root, shape, resources: [], pendingResources: [] };
  if (shape === 'record') {
    structure.resources.push(resourceEntry(0, [], root));
    return structure;
  }
  let deploymentPath: JsonPath | undefined;
  if (shape === 'deployment') deploymentPath = [];
  else if (shape === 'export') deploymentPath = ['deployment'];
  else if (shape === 'checkpoint') {
    // Version 0 (or none) reads the whole file as a CheckpointV1 (checkpoint.go, case 0): a `checkpoint`
    // member beside `"version": 0` is never looked at, only a top-level `latest`.
    const legacy = isLegacyCheckpoint(root as JsonObject) || (root as JsonObject).version === 0;
    const bodyPath = legacy ? [] : ['checkpoint'];
    const checkpoint = valueAt(root, bodyPath);
    if (legacy) structure.legacyCheckpoint = true;
    if (isObject(checkpoint)) {
      structure.checkpointBodyPath = bodyPath;
      if (typeof checkpoint.stack === 'string') structure.checkpointStack = checkpoint.stack;
      deploymentPath = [...bodyPath, 'latest'];
    }
  }
  if (!deploymentPath) return structure;
  const deployment = valueAt(root, deploymentPath);
  if (!isObject(deployment)) return structure;
  structure.deploymentPath = deploymentPath;
  if (Array.isArray(deployment.resources)) {
    structure.resourcesPath = [...deploymentPath, 'resources'];
    deployment.resources.forEach((value, index) => structure.resources.push(resourceEntry(index, [...deploymentPath, 'resources', index], value)));
  }
  if (Array.isArray(deployment.pending_operations)) {
    deployment.pending_operations.forEach((operation, index) => {
      if (isObject(operation) && 'resource' in operation) {
        structure.pendingResources.push(resourceEntry(index, [...deploymentPath, 'pending_operations', index, 'resource'], operation.resource));
      }
    });
  }
  return structure;
}

/**
 * The document with resource `index` replaced by `value`. The containers on the way to it are
 * copied (never mutated: the previous version's document stays intact); everything else,
 * including every other resource, is shared.
 */
export function withResource(structure: StateStructure, index: number, value: unknown): StateStructure {
  const path = structure.resourcesPath!;
  const replaceAt = (container: unknown, depth: number): unknown => {
    if (depth === path.length) {
      const resources = [...(container as unknown[])];
      resources[index] = value;
      return resources;
    }
    const segment = path[depth] as string;
    const object = container as JsonObject;
    return { ...object, [segment]: replaceAt(object[segment], depth + 1) };
  };
  const resources = [...structure.resources];
  resources[index] = resourceEntry(index, structure.resources[index].path, value);
  return { ...structure, root: replaceAt(structure.root, 0), resources };
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

export type ReferenceKind = 'parent' | 'dependency' | 'propertyDependency' | 'deletedWith' | 'replaceWith' | 'provider' | 'alias' | 'resourceReference';

/**
 * A urn written somewhere in a resource, pointing at another resource. The JSON path is
 * computed on demand: most references are never reported, and a path array per reference
 * would dominate the analysis's allocation on large files.
 */
export class ReferenceSite {
  constructor(
    readonly kind: ReferenceKind,
    /** The referenced urn (for a provider reference, the urn part). */
    readonly target: string,
    /** Index of the referring resource. */
    readonly from: number,
    private readonly base: JsonPath,
    /** Path below the resource: a field, then an optional property name and array index. */
    private readonly field: string,
    private readonly index?: number,
    /** propertyDependencies key. */
    readonly property?: string,
    /** Provider references: the id part. */
    readonly providerId?: string,
    private readonly tail?: JsonPath,
  ) {}

  /** Path of the JSON string holding the urn. */
  get path(): JsonPath {
    const path: Array<string | number> = [...this.base, this.field];
    if (this.property !== undefined) path.push(this.property);
    if (this.index !== undefined) path.push(this.index);
    if (this.tail) path.push(...this.tail);
    return path;
  }
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
  if (typeof record.parent === 'string' && record.parent !== '') sites.push(new ReferenceSite('parent', record.parent, from, base, 'parent'));
  const dependencies = record.dependencies;
  if (Array.isArray(dependencies)) {
    for (let i = 0; i < dependencies.length; i++) {
      const target = dependencies[i];
      if (typeof target === 'string' && target !== '') sites.push(new ReferenceSite('dependency', target, from, base, 'dependencies', i));
    }
  }
  const propertyDependencies = record.propertyDependencies;
  if (isObject(propertyDependencies)) {
    for (const property in propertyDependencies) {
      const targets = propertyDependencies[property];
      if (!Array.isArray(targets)) continue;
      for (let i = 0; i < targets.length; i++) {
        const target = targets[i];
        if (typeof target === 'string' && target !== '') {
          sites.push(new ReferenceSite('propertyDependency', target, from, base, 'propertyDependencies', i, property));
        }
      }
    }
  }
  if (typeof record.deletedWith === 'string' && record.deletedWith !== '') {
    sites.push(new ReferenceSite('deletedWith', record.deletedWith, from, base, 'deletedWith'));
  }
  const replaceWith = record.replaceWith;
  if (typeof replaceWith === 'string' && replaceWith !== '') sites.push(new ReferenceSite('replaceWith', replaceWith, from, base, 'replaceWith'));
  else if (Array.isArray(replaceWith)) {
    replaceWith.forEach((target, i) => {
      if (typeof target === 'string' && target !== '') sites.push(new ReferenceSite('replaceWith', target, from, base, 'replaceWith', i));
    });
  }
  return sites;
}

/**
 * The targets of `dependencyReferences(resource)`, in the same order, without a site object per
 * reference: the integrity pass looks every target up, but builds a site only for the few it
 * reports. `parentAndDependenciesOnly`: the version-1 prefix (parent, then dependencies).
 */
export function dependencyTargets(resource: ResourceEntry, parentAndDependenciesOnly = false): string[] {
  const record = resource.value;
  const targets: string[] = [];
  if (!isObject(record)) return targets;
  if (typeof record.parent === 'string' && record.parent !== '') targets.push(record.parent);
  const dependencies = record.dependencies;
  if (Array.isArray(dependencies)) {
    for (let i = 0; i < dependencies.length; i++) {
      const target = dependencies[i];
      if (typeof target === 'string' && target !== '') targets.push(target);
    }
  }
  if (parentAndDependenciesOnly) return targets;
  const propertyDependencies = record.propertyDependencies;
  if (isObject(propertyDependencies)) {
    for (const property in propertyDependencies) {
      const list = propertyDependencies[property];
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const target = list[i];
        if (typeof target === 'string' && target !== '') targets.push(target);
      }
    }
  }
  if (typeof record.deletedWith === 'string' && record.deletedWith !== '') targets.push(record.deletedWith);
  const replaceWith = record.replaceWith;
  if (typeof replaceWith === 'string' && replaceWith !== '') targets.push(replaceWith);
  else if (Array.isArray(replaceWith)) {
    for (const target of replaceWith) if (typeof target === 'string' && target !== '') targets.push(target);
  }
  return targets;
}

export function aliasReferences(resource: ResourceEntry): ReferenceSite[] {
  const record = resource.value;
  if (!isObject(record) || !Array.isArray(record.aliases)) return [];
  const sites: ReferenceSite[] = [];
  record.aliases.forEach((target, i) => {
    if (typeof target === 'string' && target !== '') sites.push(new ReferenceSite('alias', target, resource.index, resource.path, 'aliases', i));
  });
  return sites;
}

/** The provider reference of a resource, when it parses (see urn.ts). */
export function providerSite(resource: ResourceEntry, urn: string, id: string): ReferenceSite {
  return new ReferenceSite('provider', urn, resource.index, resource.path, 'provider', undefined, undefined, id);
}

export const REFERENCE_KIND_LABEL: Readonly<Record<ReferenceKind, string>> = lazyTable({
  parent: () => l10n.t('parent'),
  dependency: () => l10n.t('dependency'),
  propertyDependency: () => l10n.t('property dependency'),
  deletedWith: () => 'deletedWith',
  replaceWith: () => 'replaceWith',
  provider: () => l10n.t('provider'),
  alias: () => l10n.t('alias'),
  resourceReference: () => l10n.t('resource reference'),
});
