/**
 * Which record and wrapper fields Pulumi declares, which it once wrote and now ignores, and their
 * tallies, which the one-per-file summaries (`newer-engine-property`, `legacy-property`) of
 * `pulumi` mode read.
 *
 * Authority: pulumi/pulumi `sdk/go/common/apitype/core.go` (`ResourceV3`, `ResourceV1`,
 * `CheckpointV1`, `DeploymentV1`). Go's `encoding/json` ignores members a struct does not declare,
 * so a field outside these lists is read as absent, never refused.
 */
import * as l10n from '@vscode/l10n';
import { lazyTable } from '../../text/lazyTable';
import type { JsonPath } from '../model/locate';
import { isObject, valueAt, type StateStructure } from '../model/structure';

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
const NEWER_ENGINE_FIELDS: Readonly<Record<string, string>> = lazyTable({
  created: () => l10n.t('the engine: time the resource was created (since 2023)'),
  modified: () => l10n.t('the engine: time the resource was last modified (since 2023)'),
  sourcePosition: () => l10n.t('the engine: where the program registered the resource'),
  stackTrace: () => l10n.t('the engine: the call stack of the registration'),
  ignoreChanges: () => resourceOption('ignoreChanges'),
  replaceOnChanges: () => resourceOption('replaceOnChanges'),
  hideDiff: () => resourceOption('hideDiffs'),
  deletedWith: () => resourceOption('deletedWith'),
  retainOnDelete: () => resourceOption('retainOnDelete'),
  replacementTrigger: () => resourceOption('replacementTrigger'),
  refreshBeforeUpdate: () => l10n.t('providers that ask for a refresh before update (version-4 feature `{0}`)', 'refreshBeforeUpdate'),
  taint: () => l10n.t('`{0}` (version-4 feature `{1}`)', 'pulumi state taint', 'taint'),
  replaceWith: () => l10n.t('the `{0}` resource option (version-4 feature `{1}`)', 'replaceWith', 'replaceWith'),
  viewOf: () => l10n.t('resource views (version-4 feature `{0}`)', 'views'),
  resourceHooks: () => l10n.t('resource hooks (version-4 feature `{0}`)', 'hooks'),
  extensionRef: () => l10n.t('parameterized extensions (version-4 feature `{0}`)', 'extensionParameterization'),
  snippetID: () => l10n.t('snippets (version-4 feature `{0}`)', 'snippets-prototype'),
});

/** Record fields older engines wrote and Pulumi now ignores, with who wrote them. */
const LEGACY_RECORD_FIELDS: Readonly<Record<string, string>> = lazyTable({
  sequenceNumber: () => l10n.t('Pulumi v3.33–v3.34; ignored since'),
  defaults: () => l10n.t('version-1 engines (`{0}`); dropped by the migration to version 2', 'ResourceV1.Defaults'),
  children: () => l10n.t('the 2017 engines ("Lumi"), which listed each resource\'s children; `{0}` does not declare it', 'ResourceV1'),
});

/** Deployment and checkpoint members of version-1 files that `CheckpointV1`/`DeploymentV1` do not declare. */
const LEGACY_WRAPPER_FIELDS: Readonly<Record<string, { where: 'deployment' | 'checkpoint'; writtenBy: () => string }>> = {
  time: { where: 'deployment', writtenBy: () => l10n.t('version-1 engines (deployment time); `{0}` reads `{1}` instead', 'DeploymentV1', 'manifest.time') },
  info: { where: 'deployment', writtenBy: () => l10n.t('the 2017 engines ("Lumi"), which recorded engine details here; `{0}` does not declare it', 'DeploymentV1') },
  target: { where: 'checkpoint', writtenBy: () => l10n.t('version-1 engines (stack name); `{0}` reads `{1}` instead', 'CheckpointV1', 'stack') },
};

function resourceOption(option: string): string {
  return l10n.t('the `{0}` resource option', option);
}

/** Every record field Pulumi reads, for "did you mean" suggestions. */
export const DECLARED_RECORD_FIELDS: readonly string[] = [...SEED_RECORD_FIELDS, ...Object.keys(NEWER_ENGINE_FIELDS)];

const own = Object.prototype.hasOwnProperty;

/** What writes `field`, for hovers; undefined when it is neither newer nor legacy. */
export function fieldWriter(field: string): string | undefined {
  return NEWER_ENGINE_FIELDS[field] ?? LEGACY_RECORD_FIELDS[field] ?? (own.call(LEGACY_WRAPPER_FIELDS, field) ? LEGACY_WRAPPER_FIELDS[field].writtenBy() : undefined);
}

/** How often each field occurs, and where it first does. */
export interface FieldTally {
  readonly counts: Map<string, number>;
  first?: JsonPath;
}

/** The newer-engine and the legacy fields of a document, for their one-per-file summaries. */
export interface FieldTallies {
  readonly newer: FieldTally;
  readonly legacy: FieldTally;
}

/**
 * Counts the newer-engine and legacy fields of a document's records and wrappers, in one pass over
 * the records' keys (both summaries read it).
 */
export function tallyFields(structure: StateStructure): FieldTallies {
  const tallies: FieldTallies = { newer: { counts: new Map() }, legacy: { counts: new Map() } };
  tallyWrapper(structure, structure.checkpointBodyPath, 'checkpoint', tallies.legacy);
  tallyWrapper(structure, structure.deploymentPath, 'deployment', tallies.legacy);
  for (const list of [structure.resources, structure.pendingResources]) {
    for (const resource of list) {
      const record = resource.value;
      if (!isObject(record)) continue;
      for (const field in record) {
        if (own.call(NEWER_ENGINE_FIELDS, field)) count(tallies.newer, field, resource.path);
        else if (own.call(LEGACY_RECORD_FIELDS, field)) count(tallies.legacy, field, resource.path);
      }
    }
  }
  return tallies;
}

// The path is built only for the first occurrence: most files carry these fields on every record.
function count(tally: FieldTally, field: string, base: JsonPath): void {
  tally.counts.set(field, (tally.counts.get(field) ?? 0) + 1);
  tally.first ??= [...base, field];
}

function tallyWrapper(structure: StateStructure, containerPath: JsonPath | undefined, where: 'deployment' | 'checkpoint', legacy: FieldTally): void {
  if (!containerPath) return;
  const container = valueAt(structure.root, containerPath);
  if (!isObject(container)) return;
  for (const field in container) {
    if (own.call(LEGACY_WRAPPER_FIELDS, field) && LEGACY_WRAPPER_FIELDS[field].where === where) count(legacy, field, containerPath);
  }
}

/** `field (n), …` for a summary's message. */
export const tallyList = (tally: FieldTally): string => [...tally.counts].map(([field, n]) => `${field} (${n})`).join(', ');

/** The counts as the summary's data: the legacy fix removes each field listed there. */
export const tallyCounts = (tally: FieldTally): Record<string, number> => Object.fromEntries(tally.counts);

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
