/**
 * Findings as the state rules produce them: anchored to a JSON path, not yet to text.
 * All anchors are resolved to ranges in one locator pass at the end of the analysis.
 */
import type { Finding } from '../../diagnostics';
import type { StateCode } from '../codes';
import type { JsonPath } from '../model/locate';

/**
 * Which part of the node to underline: the whole value, the property name, the property
 * name when there is one else the first character (for containers), or the first character.
 */
type AnchorPart = 'value' | 'key' | 'name' | 'head';

export interface Anchor {
  path: JsonPath;
  part: AnchorPart;
}

/** A state rule's finding: anchored to a JSON path, resolved to text at the end of the analysis. */
export type StateFinding = Finding<Anchor, StateCode>;

/** Where a resource-level diagnostic goes: the urn value when there is one, else the record. */
export function resourceAnchor(path: JsonPath, hasUrn: boolean): Anchor {
  return hasUrn ? { path: [...path, 'urn'], part: 'value' } : { path, part: 'name' };
}
