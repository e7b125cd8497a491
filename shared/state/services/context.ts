/**
 * What every state service reads: the parsed snapshot of one document version and its navigation
 * index (built on first use and kept with that version by the caller).
 */
import type { NavigationIndex } from '../navigation/navigationIndex';
import type { StateSnapshot } from '../model/snapshot';
import { parseUrn } from '../model/urn';

export interface StateDocument {
  readonly snapshot: StateSnapshot;
  readonly navigation: NavigationIndex;
}

/** The short name a urn ends in, or the urn itself when it is not one. */
export function resourceName(urn: string): string {
  return parseUrn(urn)?.name ?? urn;
}
