/**
 * Findings as the state rules produce them: anchored to a JSON path, not yet to text.
 * All anchors are resolved to ranges in one locator pass at the end of the analysis.
 */
import * as l10n from '@vscode/l10n';
import type { Finding, Span } from '../../diagnostics';
import type { StateCode } from '../codes';
import type { JsonPath } from '../model/locate';
import { REFERENCE_KIND_LABEL, type ReferenceSite, type ResourceEntry } from '../model/structure';

/**
 * Which part of the node to underline: the whole value, the property name, the property
 * name when there is one else the first character (for containers), or the first character.
 */
type AnchorPart = 'value' | 'key' | 'name' | 'head';

export interface Anchor {
  path: JsonPath;
  part: AnchorPart;
  /** A span of the text itself, for what no JSON path names (a syntax error); the path is then ignored. */
  span?: Span;
}

/** A state rule's finding: anchored to a JSON path, resolved to text at the end of the analysis. */
export type StateFinding = Finding<Anchor, StateCode>;

/** Where a resource-level diagnostic goes: the urn value when there is one, else the record. */
export function resourceAnchor(path: JsonPath, hasUrn: boolean): Anchor {
  return hasUrn ? { path: [...path, 'urn'], part: 'value' } : { path, part: 'name' };
}

export const valueAnchor = (path: JsonPath): Anchor => ({ path, part: 'value' });

/** Where `resources[index]` is defined, for related information. */
export function definitionAnchor(resources: readonly ResourceEntry[], index: number): Anchor {
  const target = resources[index];
  return resourceAnchor(target.path, target.urn !== undefined);
}

/** How messages name a resource: its urn, or where it is when it has none. */
export const resourceLabel = (resource: ResourceEntry): string => resource.urn ?? l10n.t('at index {0}', resource.index);

/** How messages name the kind of a reference: "parent", "dependency", "property dependency (from property "x")", … */
export function referenceLabel(site: ReferenceSite): string {
  return site.kind === 'propertyDependency' ? l10n.t('property dependency (from property "{0}")', String(site.property)) : REFERENCE_KIND_LABEL[site.kind];
}

/** A reference's diagnostic data, which the fixes that remove or reorder it read. */
export function referenceData(site: ReferenceSite): Record<string, unknown> {
  return { path: site.path, kind: site.kind, target: site.target, from: site.from };
}
