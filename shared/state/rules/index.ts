/**
 * The rules of resource-state files: each code of codes.ts with its fix provider and, for the checks
 * that stand alone, its check (the checks that share one pass over the records, integrity.ts and
 * loader.ts, run from analyze.ts). Assembled here, at the edge, so the code table stays a leaf.
 */
import {
  addSnippetUuidFix,
  markDuplicateDeletedFix,
  recomputeMagicFix,
  removeLegacyPropertyFixes,
  removeReferenceFix,
  removeUnsupportedFeatureFix,
  reorderFix,
  unknownPropertyFixes,
  unknownProviderFixes,
  unprotectPendingDeleteFix,
  type StateFixProvider,
} from './fixes';
import { protectedPendingDelete } from './protectedPendingDelete';
import type { StateCode, StateSchemaMode } from '../codes';
import type { StateStructure } from '../model/structure';
import type { StateFinding } from './findings';

/**
 * A check that stands alone: it reads the whole document and reports its code. The checks that
 * share one pass over the records (integrity.ts, loader.ts) are not listed here.
 */
export type StateCheck = (structure: StateStructure, mode: StateSchemaMode) => StateFinding[];

export interface StateRule {
  check?: StateCheck;
  fix?: StateFixProvider;
}

export const STATE_RULES: Readonly<Partial<Record<StateCode, StateRule>>> = {
  'unknown-property': { fix: unknownPropertyFixes },
  'legacy-property': { fix: removeLegacyPropertyFixes },
  'unsupported-feature': { fix: removeUnsupportedFeatureFix },
  'invalid-snippet': { fix: addSnippetUuidFix },
  'missing-reference': { fix: removeReferenceFix },
  'forward-reference': { fix: reorderFix },
  'self-reference': { fix: removeReferenceFix },
  'duplicate-urn': { fix: markDuplicateDeletedFix },
  'unknown-provider': { fix: unknownProviderFixes },
  'magic-mismatch': { fix: recomputeMagicFix },
  'protected-pending-delete': { check: protectedPendingDelete, fix: unprotectPendingDeleteFix },
};

/** The stand-alone checks, in the code table's order. */
export function registeredChecks(): StateCheck[] {
  return Object.values(STATE_RULES).flatMap((rule) => (rule?.check ? [rule.check] : []));
}

/** The fix provider of `code`, if it has one. */
export const stateFixProvider = (code: StateCode): StateFixProvider | undefined => STATE_RULES[code]?.fix;
