/**
 * Urn navigation index: every urn definition and every reference (parent, dependencies,
 * propertyDependencies, deletedWith, replaceWith, provider `urn::id`, aliases, resource
 * references inside inputs/outputs), located with one scan. Built on demand (first hover,
 * definition, rename…), not on every keystroke.
 */
import type { Span } from '../diagnostics';
import type { StateSnapshot } from './snapshot';
import { pathKey, type JsonPath, type LocatedNode } from './locate';
import { aliasReferences, dependencyReferences, isObject, providerSite, type ReferenceKind, type ReferenceSite } from './model';
import { findResourceReferences } from './propertyValues';
import { parseProviderReference } from './urn';

export interface UrnOccurrence {
  urn: string;
  kind: 'definition' | ReferenceKind;
  /** Span of the urn text itself (inside the quotes; for a provider reference, the urn part). */
  span: Span;
  /** The whole JSON string literal. */
  literal: Span;
  /** Index of the resource the occurrence is written in. */
  resource: number;
}

export interface NavigationIndex {
  /** Sorted by offset. */
  occurrences: UrnOccurrence[];
  definitions: Map<string, UrnOccurrence[]>;
  references: Map<string, UrnOccurrence[]>;
  /** Span of each resource record (by index); undefined when not located. */
  resourceSpans: Array<Span | undefined>;
  /** Distinct resources referring to each urn (aliases excluded: those are its own former names). */
  dependents: Map<string, Set<number>>;
}

export function buildNavigationIndex(analysis: StateSnapshot): NavigationIndex {
  const { document, text } = analysis;
  const sites: Array<{ site: ReferenceSite | { kind: 'definition'; target: string; from: number; path: JsonPath }; path: JsonPath }> = [];
  for (const resource of document.resources) {
    const record = resource.value;
    if (!isObject(record)) continue;
    if (resource.urn) sites.push({ site: { kind: 'definition', target: resource.urn, from: resource.index, path: [...resource.path, 'urn'] }, path: [...resource.path, 'urn'] });
    const found: ReferenceSite[] = [...dependencyReferences(resource), ...aliasReferences(resource)];
    if (typeof record.provider === 'string') {
      const parsed = parseProviderReference(record.provider);
      if (!('error' in parsed)) found.push(providerSite(resource, parsed.urn, parsed.id));
    }
    findResourceReferences(record.inputs, resource.path, 'inputs', resource.index, found);
    findResourceReferences(record.outputs, resource.path, 'outputs', resource.index, found);
    for (const site of found) sites.push({ site, path: site.path });
  }
  const wanted: JsonPath[] = sites.map((s) => s.path);
  for (const resource of document.resources) wanted.push(resource.path);
  const located = analysis.locator.locateAll(wanted);

  const occurrences: UrnOccurrence[] = [];
  for (const { site, path } of sites) {
    const node = located.get(pathKey(path));
    if (!node || node.kind !== 'string') continue;
    occurrences.push({ urn: site.target, kind: site.kind, span: innerSpan(text, node, site.target), literal: node.value, resource: site.from });
  }
  occurrences.sort((a, b) => a.span.offset - b.span.offset);

  const definitions = new Map<string, UrnOccurrence[]>();
  const references = new Map<string, UrnOccurrence[]>();
  const dependents = new Map<string, Set<number>>();
  for (const occurrence of occurrences) {
    const map = occurrence.kind === 'definition' ? definitions : references;
    const list = map.get(occurrence.urn);
    if (list) list.push(occurrence);
    else map.set(occurrence.urn, [occurrence]);
    if (occurrence.kind !== 'definition' && occurrence.kind !== 'alias') {
      let set = dependents.get(occurrence.urn);
      if (!set) dependents.set(occurrence.urn, (set = new Set()));
      set.add(occurrence.resource);
    }
  }
  const resourceSpans = document.resources.map((r) => located.get(pathKey(r.path))?.value);
  return { occurrences, definitions, references, resourceSpans, dependents };
}

/** The urn's own characters inside the literal; the whole content when escapes make that ambiguous. */
function innerSpan(text: string, node: LocatedNode, urn: string): Span {
  const contentStart = node.value.offset + 1;
  const content = text.slice(contentStart, node.value.offset + node.value.length - 1);
  if (content.startsWith(urn)) return { offset: contentStart, length: urn.length };
  return { offset: contentStart, length: content.length };
}

/** The occurrence whose span contains `offset` (inclusive of its end, for a cursor after it). */
export function occurrenceAt(index: NavigationIndex, offset: number): UrnOccurrence | undefined {
  const list = index.occurrences;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const span = list[mid].literal;
    if (offset < span.offset) high = mid - 1;
    else if (offset > span.offset + span.length) low = mid + 1;
    else return list[mid];
  }
  return undefined;
}

/** Index of the resource whose record contains `offset`. */
export function resourceAt(index: NavigationIndex, offset: number): number | undefined {
  const spans = index.resourceSpans;
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const span = spans[mid];
    if (!span) {
      const found = spans.findIndex((s) => s !== undefined && offset >= s.offset && offset <= s.offset + s.length);
      return found === -1 ? undefined : found;
    }
    if (offset < span.offset) high = mid - 1;
    else if (offset > span.offset + span.length) low = mid + 1;
    else return mid;
  }
  return undefined;
}
