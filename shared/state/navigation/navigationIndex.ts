/**
 * Urn navigation: every urn definition and every reference (parent, dependencies,
 * propertyDependencies, deletedWith, replaceWith, provider `urn::id`, aliases, resource
 * references inside inputs/outputs).
 *
 * Lazy and local, so a keystroke never costs the whole file: who refers to whom comes from the parsed object (no text), and
 * text spans are found only for the records a request touches (the record under the cursor,
 * the records defining or referring to one urn), with a scan that jumps over every other
 * record. A hover after a keystroke in a 30,000-resource file so costs a few records, not the
 * file. Code lenses and symbols, which need every record, locate them in one batch.
 */
import type { Span } from '../../diagnostics';
import { indexUrns } from '../passes/integrityIndex';
import { pathKey, type JsonPath, type LocatedNode } from '../model/locate';
import { aliasReferences, dependencyReferences, isObject, providerSite, type ReferenceKind, type ReferenceSite } from '../model/structure';
import { findResourceReferences } from '../passes/propertyValues';
import { resourceLayoutOf, type StateSnapshot } from '../model/snapshot';
import { parseProviderReference } from '../model/urn';
import { upperBound } from '../../text/upperBound';

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

/** A urn written in a record; ReferenceSite computes its path only when it is located. */
type Site = ReferenceSite | { kind: 'definition'; target: string; path: JsonPath };

export class NavigationIndex {
  private byUrn?: ReadonlyMap<string, number[]>;
  /** urn -> records referring to it, aliases included (flagged). */
  private referrers?: Map<string, Map<number, { alias: boolean; other: boolean }>>;
  private sites: Array<Site[] | undefined> = [];
  private readonly located: Array<UrnOccurrence[] | undefined> = [];
  private spans?: Array<Span | undefined>;
  private definitionsByRecord?: Map<number, UrnOccurrence>;

  constructor(private readonly snapshot: StateSnapshot) {}

  /**
   * The index of `snapshot`, a later version that differs from this one only inside record
   * `changed` (snapshot.ts editRecord). It takes over who-refers-to-whom, replacing only that
   * record's part, so a hover after a keystroke does not walk every record again. This index
   * must not be used afterwards.
   */
  derive(snapshot: StateSnapshot, changed: number): NavigationIndex {
    const next = new NavigationIndex(snapshot);
    // Which records define which urn changes only when the edited record's own urn does.
    if (this.byUrn && this.snapshot.structure.resources[changed]?.urn === snapshot.structure.resources[changed]?.urn) next.byUrn = this.byUrn;
    next.sites = this.sites;
    if (this.referrers) {
      for (const site of this.sitesOf(changed)) if (site.kind !== 'definition') this.referrers.get(site.target)?.delete(changed);
      next.referrers = this.referrers;
    }
    next.sites[changed] = undefined;
    if (next.referrers) next.addReferrers(next.referrers, changed);
    this.sites = [];
    this.referrers = undefined;
    this.byUrn = undefined;
    return next;
  }

  /** Builds now, rather than on the first request, what every hover reads: definers and referrers. */
  prepare(): void {
    this.definedUrns();
    this.allReferrers();
  }

  /** Records defining `urn`, in file order. */
  definingRecords(urn: string): number[] {
    this.byUrn ??= indexUrns(this.snapshot.structure.resources);
    return this.byUrn.get(urn) ?? [];
  }

  /** Every urn defined in the file with its defining records. */
  definedUrns(): ReadonlyMap<string, number[]> {
    this.byUrn ??= indexUrns(this.snapshot.structure.resources);
    return this.byUrn;
  }

  /** Distinct records referring to `urn` (aliases excluded: those are a record's own former names). */
  dependentCount(urn: string): number {
    let count = 0;
    for (const use of this.referrersOf(urn).values()) if (use.other) count++;
    return count;
  }

  definitions(urn: string): UrnOccurrence[] {
    const records = this.definingRecords(urn);
    this.locateMissing(records);
    return records.flatMap((index) => this.occurrencesIn(index).filter((o) => o.kind === 'definition' && o.urn === urn));
  }

  /** References to `urn` (aliases included), in file order. */
  references(urn: string): UrnOccurrence[] {
    const records = [...this.referrersOf(urn).keys()].sort((a, b) => a - b);
    // One scan for all of them: a urn such as the stack's can be referred to by every record.
    this.locateMissing(records);
    return records.flatMap((index) => this.occurrencesIn(index).filter((o) => o.kind !== 'definition' && o.urn === urn));
  }

  /** The occurrence whose literal contains `offset` (inclusive of its end, for a cursor after it). */
  occurrenceAt(offset: number): UrnOccurrence | undefined {
    const record = this.recordAt(offset);
    if (record === undefined) return undefined;
    const list = this.occurrencesIn(record);
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

  /** Index of the record whose text contains `offset`. */
  recordAt(offset: number): number | undefined {
    const layout = resourceLayoutOf(this.snapshot);
    if (layout) {
      const index = upperBound(layout.starts, offset) - 1;
      return index >= 0 && offset <= layout.ends[index] ? index : undefined;
    }
    const spans = this.allRecordSpans();
    const found = spans.findIndex((s) => s !== undefined && offset >= s.offset && offset <= s.offset + s.length);
    return found === -1 ? undefined : found;
  }

  recordSpan(index: number): Span | undefined {
    const layout = resourceLayoutOf(this.snapshot);
    if (layout) return index < layout.starts.length ? { offset: layout.starts[index], length: layout.ends[index] - layout.starts[index] } : undefined;
    return this.allRecordSpans()[index];
  }

  /** The definition occurrence of every record that has a urn, located in one batch (only the urns). */
  allDefinitions(): Map<number, UrnOccurrence> {
    if (this.definitionsByRecord) return this.definitionsByRecord;
    const defined = this.snapshot.structure.resources.filter((r) => r.urn && isObject(r.value));
    const found = this.snapshot.locator.locateAll(defined.map((r) => [...r.path, 'urn']));
    const result = new Map<number, UrnOccurrence>();
    for (const resource of defined) {
      const node = found.get(pathKey([...resource.path, 'urn']));
      if (!node || node.kind !== 'string') continue;
      const urn = resource.urn!;
      result.set(resource.index, { urn, kind: 'definition', span: innerSpan(this.snapshot.text, node, urn), literal: node.value, resource: resource.index });
    }
    return (this.definitionsByRecord = result);
  }

  /** The occurrences written in record `index`, sorted by offset. */
  occurrencesIn(index: number): UrnOccurrence[] {
    this.locateMissing([index]);
    return this.located[index] ?? [];
  }

  private locateMissing(indices: number[]): void {
    this.locate(indices.filter((index) => this.located[index] === undefined));
  }

  private locate(indices: number[]): void {
    if (!indices.length) return;
    const wanted: JsonPath[] = [];
    for (const index of indices) for (const site of this.sitesOf(index)) wanted.push(site.path);
    const found = wanted.length ? this.snapshot.locator.locateAll(wanted) : new Map<string, LocatedNode>();
    const text = this.snapshot.text;
    for (const index of indices) {
      const occurrences: UrnOccurrence[] = [];
      for (const site of this.sitesOf(index)) {
        const node = found.get(pathKey(site.path));
        if (!node || node.kind !== 'string') continue;
        occurrences.push({ urn: site.target, kind: site.kind, span: innerSpan(text, node, site.target), literal: node.value, resource: index });
      }
      this.located[index] = occurrences.sort((a, b) => a.span.offset - b.span.offset);
    }
  }

  private sitesOf(index: number): Site[] {
    let sites = this.sites[index];
    if (sites) return sites;
    sites = [];
    const resource = this.snapshot.structure.resources[index];
    const record = resource?.value;
    if (isObject(record)) {
      if (resource.urn) sites.push({ kind: 'definition', target: resource.urn, path: [...resource.path, 'urn'] });
      const found: ReferenceSite[] = [...dependencyReferences(resource), ...aliasReferences(resource)];
      if (typeof record.provider === 'string') {
        const parsed = parseProviderReference(record.provider);
        if (!('error' in parsed)) found.push(providerSite(resource, parsed.urn, parsed.id));
      }
      findResourceReferences(record.inputs, resource.path, 'inputs', resource.index, found);
      findResourceReferences(record.outputs, resource.path, 'outputs', resource.index, found);
      sites.push(...found);
    }
    this.sites[index] = sites;
    return sites;
  }

  private referrersOf(urn: string): Map<number, { alias: boolean; other: boolean }> {
    return this.allReferrers().get(urn) ?? new Map();
  }

  /** Who refers to whom, built from every record on first use. */
  private allReferrers(): Map<string, Map<number, { alias: boolean; other: boolean }>> {
    if (!this.referrers) {
      const referrers = new Map<string, Map<number, { alias: boolean; other: boolean }>>();
      for (const resource of this.snapshot.structure.resources) this.addReferrers(referrers, resource.index);
      this.referrers = referrers;
    }
    return this.referrers;
  }

  private addReferrers(referrers: Map<string, Map<number, { alias: boolean; other: boolean }>>, index: number): void {
    for (const site of this.sitesOf(index)) {
      if (site.kind === 'definition') continue;
      let byRecord = referrers.get(site.target);
      if (!byRecord) referrers.set(site.target, (byRecord = new Map()));
      let use = byRecord.get(index);
      if (!use) byRecord.set(index, (use = { alias: false, other: false }));
      if (site.kind === 'alias') use.alias = true;
      else use.other = true;
    }
  }

  /** Record spans when the text has no record layout (syntax errors): located in one batch. */
  private allRecordSpans(): Array<Span | undefined> {
    if (!this.spans) {
      const resources = this.snapshot.structure.resources;
      const found = this.snapshot.locator.locateAll(resources.map((r) => r.path));
      this.spans = resources.map((r) => found.get(pathKey(r.path))?.value);
    }
    return this.spans;
  }
}

/** The urn's own characters inside the literal; the whole content when escapes make that ambiguous. */
function innerSpan(text: string, node: LocatedNode, urn: string): Span {
  const contentStart = node.value.offset + 1;
  const content = text.slice(contentStart, node.value.offset + node.value.length - 1);
  if (content.startsWith(urn)) return { offset: contentStart, length: urn.length };
  return { offset: contentStart, length: content.length };
}
