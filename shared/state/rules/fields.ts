/**
 * Which record and wrapper fields Pulumi declares, which it once wrote and now ignores, and the
 * one-per-file summaries (`newer-engine-property`, `legacy-property`) of `pulumi` mode.
 *
 * Authority: pulumi/pulumi `sdk/go/common/apitype/core.go` (`ResourceV3`, `ResourceV1`,
 * `CheckpointV1`, `DeploymentV1`). Go's `encoding/json` ignores members a struct does not declare,
 * so a field outside these lists is read as absent, never refused.
 */
import type { JsonPath } from '../model/locate';
import { isObject, valueAt, type StateStructure } from '../model/structure';
import type { StateFinding } from './findings';

/** The seed's version-3 record: the 19 properties of its schema. */
export const SEED_RECORD_FIELDS: ReadonlySet<string> = new Set([
  'urn',
  'custom',
  'delete',
  'id',
  'type',
  'inputs',
  'outputs',
  'parent',
  'protect',
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
]);

/**
 * Fields `apitype.ResourceV3` declares beyond the seed's schema, with what writes them
 * (`pkg/resource/stack/deployment.go` `SerializeResource`; version-4 features from `ApplyFeatures`).
 */
const NEWER_ENGINE_FIELDS: Readonly<Record<string, string>> = {
  created: 'the engine: time the resource was created (since 2023)',
  modified: 'the engine: time the resource was last modified (since 2023)',
  sourcePosition: 'the engine: where the program registered the resource',
  stackTrace: 'the engine: the call stack of the registration',
  ignoreChanges: 'the `ignoreChanges` resource option',
  replaceOnChanges: 'the `replaceOnChanges` resource option',
  hideDiff: 'the `hideDiffs` resource option',
  deletedWith: 'the `deletedWith` resource option',
  retainOnDelete: 'the `retainOnDelete` resource option',
  replacementTrigger: 'the `replacementTrigger` resource option',
  refreshBeforeUpdate: 'providers that ask for a refresh before update (version-4 feature `refreshBeforeUpdate`)',
  taint: '`pulumi state taint` (version-4 feature `taint`)',
  replaceWith: 'the `replaceWith` resource option (version-4 feature `replaceWith`)',
  viewOf: 'resource views (version-4 feature `views`)',
  resourceHooks: 'resource hooks (version-4 feature `hooks`)',
  extensionRef: 'parameterized extensions (version-4 feature `extensionParameterization`)',
  snippetID: 'snippets (version-4 feature `snippets-prototype`)',
};

/** Record fields older engines wrote and Pulumi now ignores, with who wrote them. */
const LEGACY_RECORD_FIELDS: Readonly<Record<string, string>> = {
  sequenceNumber: 'Pulumi v3.33–v3.34; ignored since',
  defaults: 'version-1 engines (`ResourceV1.Defaults`); dropped by the migration to version 2',
  children: 'the 2017 engines ("Lumi"), which listed each resource\'s children; `ResourceV1` does not declare it',
};

/** Deployment and checkpoint members of version-1 files that `CheckpointV1`/`DeploymentV1` do not declare. */
const LEGACY_WRAPPER_FIELDS: Readonly<Record<string, { where: 'deployment' | 'checkpoint'; writtenBy: string }>> = {
  time: { where: 'deployment', writtenBy: 'version-1 engines (deployment time); `DeploymentV1` reads `manifest.time` instead' },
  info: { where: 'deployment', writtenBy: 'the 2017 engines ("Lumi"), which recorded engine details here; `DeploymentV1` does not declare it' },
  target: { where: 'checkpoint', writtenBy: 'version-1 engines (stack name); `CheckpointV1` reads `stack` instead' },
};

/** Every record field Pulumi reads, for "did you mean" suggestions. */
export const DECLARED_RECORD_FIELDS: readonly string[] = [...SEED_RECORD_FIELDS, ...Object.keys(NEWER_ENGINE_FIELDS)];

/** What writes `field`, for hovers; undefined when it is neither newer nor legacy. */
export function fieldWriter(field: string): string | undefined {
  return NEWER_ENGINE_FIELDS[field] ?? LEGACY_RECORD_FIELDS[field] ?? LEGACY_WRAPPER_FIELDS[field]?.writtenBy;
}

interface Tally {
  counts: Map<string, number>;
  first?: JsonPath;
}

const own = Object.prototype.hasOwnProperty;

/**
 * The `newer-engine-property` and `legacy-property` summaries of a document: each names its
 * fields with their counts and sits on the first occurrence. One pass over the records' keys.
 */
export function fieldSummaries(structure: StateStructure): StateFinding[] {
  const newer: Tally = { counts: new Map() };
  const legacy: Tally = { counts: new Map() };
  // The path is built only for the first occurrence: most files carry these fields on every record.
  const count = (tally: Tally, field: string, base: JsonPath) => {
    tally.counts.set(field, (tally.counts.get(field) ?? 0) + 1);
    tally.first ??= [...base, field];
  };
  const visitWrapper = (containerPath: JsonPath | undefined, where: 'deployment' | 'checkpoint') => {
    if (!containerPath) return;
    const container = valueAt(structure.root, containerPath);
    if (!isObject(container)) return;
    for (const field in container) {
      if (own.call(LEGACY_WRAPPER_FIELDS, field) && LEGACY_WRAPPER_FIELDS[field].where === where) count(legacy, field, containerPath);
    }
  };
  visitWrapper(structure.checkpointBodyPath, 'checkpoint');
  visitWrapper(structure.deploymentPath, 'deployment');
  for (const list of [structure.resources, structure.pendingResources]) {
    for (const resource of list) {
      const record = resource.value;
      if (!isObject(record)) continue;
      for (const field in record) {
        if (own.call(NEWER_ENGINE_FIELDS, field)) count(newer, field, resource.path);
        else if (own.call(LEGACY_RECORD_FIELDS, field)) count(legacy, field, resource.path);
      }
    }
  }
  const out: StateFinding[] = [];
  const listOf = (tally: Tally) => [...tally.counts].map(([field, n]) => `${field} (${n})`).join(', ');
  const fieldsOf = (tally: Tally) => Object.fromEntries(tally.counts);
  if (newer.first) {
    out.push({
      code: 'newer-engine-property',
      message: `Fields Pulumi declares but the seed's v3 record schema lacks: ${listOf(newer)}. Pulumi reads them; set "quotaState.state.schema" to "seed-v3" to enforce the seed schema`,
      at: { path: newer.first, part: 'key' },
      data: { path: newer.first, fields: fieldsOf(newer) },
    });
  }
  if (legacy.first) {
    out.push({
      code: 'legacy-property',
      message: `Fields older Pulumi engines wrote and Pulumi now ignores: ${listOf(legacy)}`,
      at: { path: legacy.first, part: 'key' },
      data: { path: legacy.first, fields: fieldsOf(legacy) },
    });
  }
  return out;
}

/** Every path of `field` in the document's records (or its wrapper, for version-1 members). */
export function occurrencesOf(structure: StateStructure, field: string): JsonPath[] {
  const paths: JsonPath[] = [];
  const wrapper = own.call(LEGACY_WRAPPER_FIELDS, field) ? LEGACY_WRAPPER_FIELDS[field].where : undefined;
  if (wrapper) {
    const containerPath = wrapper === 'checkpoint' ? structure.checkpointBodyPath : structure.deploymentPath;
    const container = containerPath && valueAt(structure.root, containerPath);
    if (containerPath && isObject(container) && own.call(container, field)) paths.push([...containerPath, field]);
    return paths;
  }
  for (const list of [structure.resources, structure.pendingResources]) {
    for (const resource of list) {
      if (isObject(resource.value) && own.call(resource.value, field)) paths.push([...resource.path, field]);
    }
  }
  return paths;
}

/** The closest of `candidates` to `name` (case-insensitive equality, or edit distance ≤ 2), if any. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.ceil(name.length / 2));
  for (const candidate of candidates) {
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
