/**
 * The cross-resource index the integrity rules read (a port of `Snapshot.VerifyIntegrity`,
 * pulumi/pulumi pkg/resource/deploy/snapshot.go, split by code, plus the product's additions),
 * built in ONE walk over the resources per analysis: each urn's copies, the parsed urns, each
 * resource's parent, the providers and the references to them, the dependency references that do
 * not name an earlier resource, and the dependency graph. Linear in the number of references: a
 * site object (with its path) is built only for the few references a rule reports.
 */
import { dependencyReferences, dependencyTargets, isObject, type ReferenceSite, type ResourceEntry, type StateStructure } from '../model/structure';
import { isProviderType, parseProviderReference, parseUrn, providerUrnProblem, UNKNOWN_ID, type ParsedUrn, type ProviderReference } from '../model/urn';
import { UrnMap } from '../model/urnMap';
import { addProviderEdge, DependencyGraph, pickCopy } from './cycles';

/** How a dependency reference fails Pulumi's ordering rule: it names its own resource, a later one, or none. */
type ReferenceResolution = 'self' | 'forward' | 'missing';

interface UnresolvedReference {
  readonly site: ReferenceSite;
  /** The indices of the resources named `site.target`, in order (undefined when none). */
  readonly copies: number[] | undefined;
  readonly resolution: ReferenceResolution;
}

/** A resource's `provider` as Pulumi reads it (not in version 1, whose migration drops it). */
interface ProviderUse {
  readonly resource: ResourceEntry;
  readonly reference: string;
  readonly parsed: ProviderReference;
}

export interface IntegrityIndex {
  /** A lone record: Pulumi never loads it by itself, so the rules that need the other records skip it. */
  readonly isolated: boolean;
  /** Indices of every copy of each urn, in array order. */
  readonly byUrn: ReadonlyMap<string, number[]>;
  /** Each resource's own urn, parsed once (undefined when it has none or it does not parse). */
  readonly parsedUrns: Array<ParsedUrn | undefined>;
  /** The first resource named by each resource's parent (-1: none, or not in the file). */
  readonly parentIndices: Int32Array;
  /** The first provider resource registered under each `<urn>::<id>` (the unknown ID when empty). */
  readonly providers: Map<string, number>;
  /** Provider resources whose urn a reference cannot name, with Pulumi's reason. */
  readonly unreferenceableProviders: Array<{ resource: ResourceEntry; problem: string }>;
  readonly providerUses: ProviderUse[];
  /** The dependency references that do not name an earlier resource of the file (in an isolated record: only self-references). */
  readonly unresolvedReferences: UnresolvedReference[];
  readonly graph: DependencyGraph;
}

/** Indices of every copy of each urn, in array order. */
export function indexUrns(resources: ResourceEntry[]): UrnMap<number[]> {
  const byUrn = new UrnMap<number[]>();
  for (const resource of resources) {
    if (resource.urn === undefined) continue;
    const list = byUrn.get(resource.urn);
    if (list) list.push(resource.index);
    else byUrn.set(resource.urn, [resource.index]);
  }
  return byUrn;
}

export function buildIntegrityIndex(structure: StateStructure, version: 1 | 2 | 3): IntegrityIndex {
  const resources = structure.resources;
  const index: IntegrityIndex = {
    isolated: structure.shape === 'record',
    byUrn: indexUrns(resources),
    parsedUrns: new Array<ParsedUrn | undefined>(resources.length),
    parentIndices: new Int32Array(resources.length).fill(-1),
    providers: new Map(),
    unreferenceableProviders: [],
    providerUses: [],
    unresolvedReferences: [],
    graph: new DependencyGraph(resources.length),
  };
  for (const resource of resources) {
    index.graph.begin(resource.index);
    const record = resource.value;
    if (!isObject(record)) continue;
    if (resource.urn) index.parsedUrns[resource.index] = parseUrn(resource.urn);
    registerProvider(index, resource, record);
    const provider = typeof record.provider === 'string' ? parseProviderReference(record.provider) : undefined;
    if (provider && version !== 1 && record.provider !== '') index.providerUses.push({ resource, reference: record.provider as string, parsed: provider });
    indexDependencies(index, resources, resource, version);
    // After the dependency edges: the order of a resource's edges decides which cycle is reported.
    if (provider && !('error' in provider)) addProviderEdge(index.graph, resources, index.byUrn, resource, provider.urn);
  }
  index.graph.finish();
  return index;
}

/** A provider resource is registered under `<urn>::<id>` (VerifyIntegrity registers it before it checks its own reference). */
function registerProvider(index: IntegrityIndex, resource: ResourceEntry, record: Record<string, unknown>): void {
  const urn = resource.urn;
  if (!urn || !resource.type || !isProviderType(resource.type)) return;
  const problem = providerUrnProblem(urn);
  if (problem) {
    index.unreferenceableProviders.push({ resource, problem });
    return;
  }
  const id = typeof record.id === 'string' && record.id !== '' ? record.id : UNKNOWN_ID;
  const key = `${urn}::${id}`;
  if (!index.providers.has(key)) index.providers.set(key, resource.index);
}

/**
 * One lookup per dependency reference serves the ordering rules, the parent and the graph. Targets
 * only: a site object is built for the few references that do not name an earlier resource.
 */
function indexDependencies(index: IntegrityIndex, resources: ResourceEntry[], resource: ResourceEntry, version: 1 | 2 | 3): void {
  const record = resource.value as Record<string, unknown>;
  const targets = dependencyTargets(resource, version < 3);
  const hasParent = typeof record.parent === 'string' && record.parent !== '';
  const urn = resource.urn;
  let sites: ReferenceSite[] | undefined;
  for (let s = 0; s < targets.length; s++) {
    const target = targets[s];
    const copies = index.byUrn.get(target);
    if (copies) {
      const to = pickCopy(resources, copies, resource.index);
      if (to !== resource.index) index.graph.add(to, s);
      if (s === 0 && hasParent) index.parentIndices[resource.index] = copies[0];
    }
    // An earlier copy of the same urn (a live record before its `delete: true` copy) satisfies Pulumi's check.
    const earlier = copies !== undefined && copies[0] < resource.index;
    if (target === urn && !earlier) {
      sites ??= dependencyReferences(resource);
      index.unresolvedReferences.push({ site: sites[s], copies, resolution: 'self' });
      continue;
    }
    // Import requires every reference to name a resource that comes earlier; an isolated record names none.
    if (index.isolated || earlier) continue;
    sites ??= dependencyReferences(resource);
    index.unresolvedReferences.push({ site: sites[s], copies, resolution: copies ? 'forward' : 'missing' });
  }
}
