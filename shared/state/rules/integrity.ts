/**
 * The cross-record checks: Pulumi's VerifyIntegrity rules (ordering, providers,
 * duplicates, types, ids, magic) and the product's additions (cycles, aliases, stacks, urn
 * shape), reporting every violation rather than the first. Linear in the number of references.
 */
import * as l10n from '@vscode/l10n';
// Pure JS and synchronous, so the same code runs in Node and in a browser worker (WebCrypto is asynchronous).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { JsonPath } from '../model/locate';
import {
  aliasReferences,
  dependencyReferences,
  dependencyTargets,
  isObject,
  recordVersion,
  REFERENCE_KIND_LABEL,
  valueAt,
  type ReferenceSite,
  type ResourceEntry,
  type StateStructure,
} from '../model/structure';
import { resourceAnchor, type Anchor, type StateFinding } from './findings';
import { isProviderType, parseProviderReference, parseUrn, providerUrnProblem, ROOT_STACK_TYPE, UNKNOWN_ID, type ParsedUrn } from '../model/urn';
import { addProviderEdge, DependencyGraph, findCycles, pickCopy } from './cycles';
import type { StateSchemaMode } from '../codes';

function magicOf(version: string): string {
  return version === '' ? '' : bytesToHex(sha256(utf8ToBytes(version)));
}

const valueAnchor = (path: JsonPath): Anchor => ({ path, part: 'value' });

/** How messages name a resource: its urn, or where it is when it has none. */
const resourceLabel = (resource: ResourceEntry): string => resource.urn ?? atIndex(resource.index);
const atIndex = (index: number): string => l10n.t('at index {0}', index);

/** Indices of every copy of each urn, in array order. */
export function indexUrns(resources: ResourceEntry[]): Map<string, number[]> {
  const byUrn = new Map<string, number[]>();
  for (const resource of resources) {
    if (resource.urn === undefined) continue;
    const list = byUrn.get(resource.urn);
    if (list) list.push(resource.index);
    else byUrn.set(resource.urn, [resource.index]);
  }
  return byUrn;
}

/**
 * A port of `Snapshot.VerifyIntegrity` (pulumi/pulumi pkg/resource/deploy/snapshot.go) that keeps
 * going after a violation, plus the product's additions (cycles, aliases, stacks, urn shape).
 */
export function integrityDiagnostics(structure: StateStructure, mode: StateSchemaMode = 'pulumi'): StateFinding[] {
  const out: StateFinding[] = [];
  checkManifest(structure, mode, out);
  const version = recordVersion(structure, mode);
  const resources = structure.resources;
  const isolated = structure.shape === 'record';
  const byUrn = indexUrns(resources);
  const providers = new Map<string, number>();
  // Each resource's own urn, parsed once; a reference to a urn of the file reuses its parse.
  const parsedUrns: Array<ParsedUrn | undefined> = new Array(resources.length);
  // The first resource named by each resource's parent (-1: none, or not in the file).
  const parentIndices = new Int32Array(resources.length).fill(-1);
  const graph = new DependencyGraph(resources.length);

  for (const resource of resources) {
    graph.begin(resource.index);
    const record = resource.value;
    if (!isObject(record)) continue;
    const urn = resource.urn;
    const parsedUrn = urn ? parseUrn(urn) : undefined;
    parsedUrns[resource.index] = parsedUrn;
    const name = resourceLabel(resource);
    // VerifyIntegrity: "resource at index <i> missing required 'urn' field"; Go reads a null urn as "".
    if (record.urn === null) {
      out.push({
        code: 'schema',
        message: l10n.t('Resource at index {0} is missing the required property "urn" (it is null)', resource.index),
        at: { path: [...resource.path, 'urn'], part: 'value' },
        data: { path: resource.path },
      });
    } else if (urn === '') {
      out.push({ code: 'schema', message: l10n.t('Resource at index {0} has an empty urn', resource.index), at: resourceAnchor(resource.path, true), data: { path: resource.path } });
    } else if (urn !== undefined && !parsedUrn) {
      out.push({
        code: 'invalid-urn',

        message: l10n.t('"{0}" is not a urn of the form {1}', urn, 'urn:pulumi:<stack>::<project>::<type>::<name>'),
        at: resourceAnchor(resource.path, true),
        data: { urn },
      });
    }
    if (resource.type === undefined || resource.type === '') {
      out.push({ code: 'missing-type', message: l10n.t('Resource {0} has no "type" (import requires it)', name), at: resourceAnchor(resource.path, urn !== undefined), data: { path: resource.path } });
    }
    if (record.custom !== true && typeof record.id === 'string' && record.id !== '') {
      out.push({
        code: 'component-with-id',

        message: l10n.t('Resource {0} has "custom" false but a non-empty id "{1}"', name, record.id),
        at: valueAnchor([...resource.path, 'id']),
        data: { path: [...resource.path, 'id'] },
      });
    }
    if (urn && resource.type && isProviderType(resource.type)) {
      const problem = providerUrnProblem(urn);
      if (problem) {
        out.push({ code: 'invalid-provider-reference', message: l10n.t('Provider {0} is not referenceable: {1}', urn, problem), at: resourceAnchor(resource.path, true), data: { urn } });
      } else {
        const id = typeof record.id === 'string' && record.id !== '' ? record.id : UNKNOWN_ID;
        const key = `${urn}::${id}`;
        if (!providers.has(key)) providers.set(key, resource.index);
      }
    }
    // A version-1 record's provider is dropped by migrate.UpToResourceV2, so it is never checked.
    if (version !== 1 && typeof record.provider === 'string' && record.provider !== '') {
      checkProviderReference(resource, record.provider, providers, byUrn, resources, isolated, out);
    }
    // Targets only: a site object (with its path) is built for the few references that are reported.
    const targets = dependencyTargets(resource, version < 3);
    const hasParent = typeof record.parent === 'string' && record.parent !== '';
    let sites: ReferenceSite[] | undefined;
    for (let s = 0; s < targets.length; s++) {
      const target = targets[s];
      // One lookup per reference serves the ordering check, the parent check and the graph.
      const copies = byUrn.get(target);
      if (copies) {
        const to = pickCopy(resources, copies, resource.index);
        if (to !== resource.index) graph.add(to, s);
        if (s === 0 && hasParent) parentIndices[resource.index] = copies[0];
      }
      // What checkReference lets pass without a word: an earlier resource of the file, or any in an isolated record.
      if (target !== urn && (isolated || (copies !== undefined && copies[0] < resource.index))) continue;
      sites ??= dependencyReferences(resource);
      checkReference(resource, sites[s], copies, resources, isolated, out);
    }
    checkUrnsPulumiParses(resource, parentIndices[resource.index], out);
    addProviderEdge(graph, resources, byUrn, resource);
  }
  graph.finish();

  checkPendingRecords(structure.pendingResources, out);
  if (!isolated) {
    checkDuplicates(resources, byUrn, out);
    // Version-1 and -2 records have no aliases: the migration to version 3 never reads them.
    if (version === 3) checkAliases(resources, out);
    checkParentUrns(resources, parsedUrns, parentIndices, out);
    checkStacks(structure, parsedUrns, out);
    out.push(...findCycles(resources, graph));
  }
  return out;
}

/**
 * VerifyIntegrity's first rule: the manifest magic is the SHA-256 of its version ("" for "").
 * In pulumi mode an absent manifest, version or magic reads as Go's zero value, the empty string
 * (`apitype.ManifestV1`), so a deployment without a manifest passes, as in Pulumi.
 */
function checkManifest(structure: StateStructure, mode: StateSchemaMode, out: StateFinding[]): void {
  if (!structure.deploymentPath) return;
  const manifest = valueAt(structure.root, [...structure.deploymentPath, 'manifest']);
  if (!isObject(manifest)) return;
  const version = typeof manifest.version === 'string' ? manifest.version : mode === 'pulumi' && manifest.version == null ? '' : undefined;
  const magic = typeof manifest.magic === 'string' ? manifest.magic : mode === 'pulumi' && manifest.magic == null ? '' : undefined;
  if (version === undefined || magic === undefined) return;
  const expected = magicOf(version);
  if (magic !== expected) {
    const path = [...structure.deploymentPath, 'manifest', typeof manifest.magic === 'string' ? 'magic' : 'version'];
    out.push({
      code: 'magic-mismatch',
      message: l10n.t('Manifest magic does not match the SHA-256 of version "{0}" (expected "{1}")', version, expected),
      at: valueAnchor(path),
      data: { path: [...structure.deploymentPath, 'manifest', 'magic'], expected },
    });
  }
}

function definitionAnchor(resources: ResourceEntry[], index: number): Anchor {
  const target = resources[index];
  return resourceAnchor(target.path, target.urn !== undefined);
}

/** `copies`: the indices of the resources named `site.target` (undefined when none). */
function checkReference(resource: ResourceEntry, site: ReferenceSite, copies: number[] | undefined, resources: ResourceEntry[], isolated: boolean, out: StateFinding[]): void {
  const urn = resourceLabel(resource);
  // An earlier copy of the same urn (a live record before its `delete: true` copy) satisfies Pulumi's check.
  if (site.target === resource.urn && !(copies && copies[0] < resource.index)) {
    out.push({ code: 'self-reference', message: l10n.t('Resource {0} lists itself as its {1}', urn, labelOf(site)), at: valueAnchor(site.path), data: dataOf(site) });
    return;
  }
  // Import requires every reference to name a resource that comes earlier.
  if (isolated || (copies && copies[0] < resource.index)) return;
  if (copies) {
    const later = copies.find((i) => i > resource.index) ?? copies[0];
    out.push({
      code: 'forward-reference',

      message: l10n.t("Resource {0}'s {1} {2} comes after it (at index {3}); import requires it to come first", urn, labelOf(site), site.target, later),
      at: valueAnchor(site.path),
      related: [{ at: definitionAnchor(resources, later), message: l10n.t('{0} is defined here', site.target) }],
      data: dataOf(site),
    });
  } else {
    out.push({
      code: 'missing-reference',

      message: l10n.t("Resource {0}'s {1} {2} is not in this file", urn, labelOf(site), site.target),
      at: valueAnchor(site.path),
      data: dataOf(site),
    });
  }
}

function labelOf(site: ReferenceSite): string {
  return site.kind === 'propertyDependency' ? l10n.t('property dependency (from property "{0}")', String(site.property)) : REFERENCE_KIND_LABEL[site.kind];
}

function dataOf(site: ReferenceSite): Record<string, unknown> {
  return { path: site.path, kind: site.kind, target: site.target, from: site.from };
}

function checkProviderReference(
  resource: ResourceEntry,
  reference: string,
  providers: Map<string, number>,
  byUrn: Map<string, number[]>,
  resources: ResourceEntry[],
  isolated: boolean,
  out: StateFinding[],
): void {
  const path = [...resource.path, 'provider'];
  const urn = resourceLabel(resource);
  const parsed = parseProviderReference(reference);
  if ('error' in parsed) {
    out.push({
      code: 'invalid-provider-reference',

      message: l10n.t("Resource {0}'s provider reference is not {1}: {2}", urn, '<provider urn>::<id>', parsed.error),
      at: valueAnchor(path),
      data: { path, reference },
    });
    return;
  }
  // A provider naming itself (same urn and id) passes: VerifyIntegrity registers a provider before it
  // checks the provider's own reference. With another id it is an unknown provider, like any other.
  const record = resource.value as Record<string, unknown>;
  if (isolated || record.pendingReplacement === true || providers.has(reference)) return;
  const candidates = (byUrn.get(parsed.urn) ?? []).filter((i) => resources[i].type !== undefined && isProviderType(resources[i].type!));
  const sameId = candidates.find((i) => providerIdOf(resources[i]) === (parsed.id === '' ? '\u0000' : parsed.id));
  const earlierOther = candidates.filter((i) => i < resource.index).pop();
  const related: Array<{ at: Anchor; message: string }> = [];
  let message: string;
  const data: Record<string, unknown> = { path, reference, from: resource.index, target: parsed.urn, kind: 'provider' };
  if (sameId !== undefined && sameId > resource.index) {
    message = l10n.t('Resource {0} refers to provider {1}, which is declared after it (at index {2}); import requires providers to come first', urn, reference, sameId);
    related.push({ at: definitionAnchor(resources, sameId), message: l10n.t('Provider {0} is defined here', parsed.urn) });
    data.later = true;
  } else if (earlierOther !== undefined) {
    const currentId = providerIdOf(resources[earlierOther]);
    const suggestion = `${parsed.urn}::${currentId}`;
    message = l10n.t('Resource {0} refers to unknown provider {1}: provider {2} has id "{3}"', urn, reference, parsed.urn, currentId);
    related.push({ at: definitionAnchor(resources, earlierOther), message: l10n.t('Provider {0} is defined here', parsed.urn) });
    data.suggestion = suggestion;
  } else {
    message = l10n.t('Resource {0} refers to unknown provider {1}', urn, reference);
    if (candidates.length) related.push({ at: definitionAnchor(resources, candidates[0]), message: l10n.t('Provider {0} is defined here, after the resource', parsed.urn) });
  }
  out.push({ code: 'unknown-provider', message, at: valueAnchor(path), related: related.length ? related : undefined, data });
}

/** The id a provider is registered under (the unknown ID when empty). */
function providerIdOf(resource: ResourceEntry): string {
  const id = (resource.value as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : UNKNOWN_ID;
}

function checkDuplicates(resources: ResourceEntry[], byUrn: Map<string, number[]>, out: StateFinding[]): void {
  for (const [urn, copies] of byUrn) {
    if (copies.length < 2 || urn === '') continue;
    const live = copies.filter((i) => !resources[i].deleted);
    if (live.length <= 1) continue;
    const first = live[0];
    for (const index of live.slice(1)) {
      const resource = resources[index];
      out.push({
        code: 'duplicate-urn',

        message: l10n.t('Duplicate resource {0} (not marked for deletion); it is also defined at index {1}', urn, first),
        at: resourceAnchor(resource.path, true),
        related: [{ at: definitionAnchor(resources, first), message: l10n.t('First definition of {0}', urn) }],
        data: { path: resource.path, urn },
      });
    }
  }
}

/**
 * VerifyIntegrity reads the type of a child's urn and of its parent's once the parent is found earlier
 * (`urn.Type()`, `QualifiedType()`), and those assert the "urn:pulumi:" prefix: Pulumi crashes on
 * anything else there. Elsewhere such a urn is only `invalid-urn` (Information).
 */
function checkUrnsPulumiParses(resource: ResourceEntry, parentIndex: number, out: StateFinding[]): void {
  if (parentIndex < 0 || parentIndex >= resource.index || !resource.urn) return;
  const record = resource.value as Record<string, unknown>;
  const parent = typeof record.parent === 'string' ? record.parent : '';
  const crashing = [resource.urn, parent].find((urn) => urn !== '' && !urn.startsWith('urn:pulumi:'));
  if (crashing === undefined) return;
  out.push({
    code: 'schema',
    message: l10n.t('Pulumi crashes on "{0}" (an assertion in its integrity check): a child\'s urn and its parent\'s must start with "{1}"', crashing, 'urn:pulumi:'),
    at: resourceAnchor(resource.path, true),
    data: { path: resource.path },
  });
}

/**
 * A pending operation's record goes through the same `DeserializeResource` as the resources
 * (pkg/resource/stack/deployment.go `DeserializeOperation`), so its urn, type and id are checked alike;
 * the integrity checks that follow never look at it.
 */
function checkPendingRecords(pending: ResourceEntry[], out: StateFinding[]): void {
  for (const resource of pending) {
    const record = resource.value;
    if (!isObject(record)) continue;
    const name = resource.urn || l10n.t('in a pending operation');
    if (typeof record.urn !== 'string' || record.urn === '') {
      out.push({
        code: 'schema',
        message: l10n.t('The pending operation\'s resource is missing the required property "urn" (Pulumi refuses the file)'),
        at: resourceAnchor(resource.path, false),
        data: { path: resource.path },
      });
    }
    if (resource.type === undefined || resource.type === '') {
      out.push({
        code: 'missing-type',
        message: l10n.t('Pending operation resource {0} has no "type" (Pulumi refuses the file)', name),
        at: resourceAnchor(resource.path, resource.urn !== undefined),
        data: { path: resource.path },
      });
    }
    if (record.custom !== true && typeof record.id === 'string' && record.id !== '') {
      out.push({
        code: 'component-with-id',
        message: l10n.t('Pending operation resource {0} has "custom" false but a non-empty id "{1}"', name, record.id),
        at: valueAnchor([...resource.path, 'id']),
        data: { path: [...resource.path, 'id'] },
      });
    }
  }
}

function checkAliases(resources: ResourceEntry[], out: StateFinding[]): void {
  const owners = new Map<string, ReferenceSite>();
  for (const resource of resources) {
    for (const site of aliasReferences(resource)) {
      const owner = owners.get(site.target);
      if (!owner) {
        owners.set(site.target, site);
        continue;
      }
      if (owner.from === site.from) continue;
      const first = resourceLabel(resources[owner.from]);
      out.push({
        code: 'duplicate-alias',

        message: l10n.t(
          'Two resources ({0} and {1}) have the same alias {2}; Pulumi loads this, but `pulumi up` refuses it ({3})',
          first,
          resourceLabel(resource),
          site.target,
          '"aliased to the same"',
        ),
        at: valueAnchor(site.path),
        related: [{ at: valueAnchor(owner.path), message: l10n.t('{0} also claims alias {1}', first, site.target) }],
        data: { path: site.path, alias: site.target },
      });
    }
  }
}

function checkParentUrns(resources: ResourceEntry[], parsedUrns: Array<ParsedUrn | undefined>, parentIndices: Int32Array, out: StateFinding[]): void {
  for (const resource of resources) {
    const record = resource.value;
    const parentIndex = parentIndices[resource.index];
    if (parentIndex === -1 || !isObject(record) || !resource.urn || !resource.type) continue;
    const child = parsedUrns[resource.index];
    // The parent's urn is record.parent itself, so its parse is the parent resource's.
    const parent = parsedUrns[parentIndex];
    if (!child || !parent) continue;
    // As VerifyIntegrity (pkg/resource/deploy/snapshot.go): the expected qualified type is built from
    // the parent *urn*'s qualified type, and only a parent urn whose qualified type is the root stack
    // type drops the prefix. Pulumi only logs this mismatch, hence Information.
    const underStack = parent.qualifiedType === ROOT_STACK_TYPE;
    if (underStack ? child.qualifiedType !== resource.type : !isQualifiedBy(child.qualifiedType, parent.qualifiedType, resource.type)) {
      const expected = underStack ? resource.type : `${parent.qualifiedType}$${resource.type}`;
      out.push({
        code: 'parent-urn-mismatch',

        message: l10n.t('The urn\'s qualified type "{0}" does not match its parent {1}: expected "{2}"', child.qualifiedType, String(record.parent), expected),
        at: resourceAnchor(resource.path, true),
        related: [{ at: definitionAnchor(resources, parentIndex), message: l10n.t('Parent defined here') }],
        data: { path: resource.path, expected },
      });
    }
  }
}

/** Whether `qualified` is `parent + '$' + type`, without building that string for every resource. */
function isQualifiedBy(qualified: string, parent: string, type: string): boolean {
  return qualified.length === parent.length + 1 + type.length && qualified.charCodeAt(parent.length) === 36 /* $ */ && qualified.startsWith(parent) && qualified.endsWith(type);
}

/**
 * The stack a DIY checkpoint names, as urns name it: project-mode backends write the fully qualified
 * `organization/<project>/<stack>` (pkg/backend/diy/backend.go, `diyBackendReference.FullyQualifiedName`),
 * while urns carry only the stack's own name, so the last segment is compared.
 */
function checkpointStackName(stack: string): string {
  const slash = stack.lastIndexOf('/');
  return slash === -1 ? stack : stack.slice(slash + 1);
}

function checkStacks(structure: StateStructure, parsedUrns: Array<ParsedUrn | undefined>, out: StateFinding[]): void {
  let stack = structure.checkpointStack ? checkpointStackName(structure.checkpointStack) : undefined;
  let source = l10n.t('the checkpoint');
  if (!stack) {
    const root = structure.resources.find((r) => r.type === ROOT_STACK_TYPE && parsedUrns[r.index]);
    if (root) {
      stack = parsedUrns[root.index]!.stack;
      source = l10n.t('the {0} resource', ROOT_STACK_TYPE);
    }
  }
  if (!stack) {
    const counts = new Map<string, number>();
    for (const r of structure.resources) {
      const parsed = parsedUrns[r.index];
      if (parsed) counts.set(parsed.stack, (counts.get(parsed.stack) ?? 0) + 1);
    }
    let best = 0;
    for (const [name, count] of counts) if (count > best) [stack, best] = [name, count];
    source = l10n.t('most urns');
  }
  if (!stack) return;
  for (const resource of structure.resources) {
    const parsed = parsedUrns[resource.index];
    if (parsed && parsed.stack !== stack) {
      out.push({
        code: 'foreign-stack',

        message: l10n.t('Resource {0} is from stack "{1}", but this file\'s stack is "{2}" (from {3})', String(resource.urn), parsed.stack, stack, source),
        at: resourceAnchor(resource.path, true),
        data: { path: resource.path, stack },
      });
    }
  }
}
