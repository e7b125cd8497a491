/**
 * The diagnostic rules of resource-state files, one module per code of ../codes.ts and in its order:
 * each holds its check, its quick fix and its documentation. The analysis (../analyze.ts) runs
 * every check of this list with one context (stateRule.ts); the code actions look fixes up here.
 * Assembled here, at the edge, so the code table stays a leaf.
 */
import type { StateCode } from '../codes';
import { componentWithId } from './componentWithId';
import { dependencyCycle } from './dependencyCycle';
import { duplicateAlias } from './duplicateAlias';
import { duplicateUrn } from './duplicateUrn';
import { foreignStack } from './foreignStack';
import { forwardReference } from './forwardReference';
import { invalidProviderReference } from './invalidProviderReference';
import { invalidSnippet } from './invalidSnippet';
import { invalidUrn } from './invalidUrn';
import { legacyProperty } from './legacyProperty';
import { magicMismatch } from './magicMismatch';
import { malformedPropertyValue } from './malformedPropertyValue';
import { missingReference } from './missingReference';
import { missingType } from './missingType';
import { newerEngineProperty } from './newerEngineProperty';
import { parentUrnMismatch } from './parentUrnMismatch';
import { protectedPendingDelete } from './protectedPendingDelete';
import { schema } from './schema';
import { secretInPlaintext } from './secretInPlaintext';
import { secretUndecryptable } from './secretUndecryptable';
import { selfReference } from './selfReference';
import type { StateFixProvider, StateRule } from './stateRule';
import { syntax } from './syntax';
import { unknownProperty } from './unknownProperty';
import { unknownProvider } from './unknownProvider';
import { unsupportedFeature } from './unsupportedFeature';
import { unsupportedVersion } from './unsupportedVersion';

export type { StateFixProvider, StateRule } from './stateRule';
export { StateRuleContext } from './stateRule';

/** Every state rule, in the registry's order. */
export const STATE_RULES: readonly StateRule[] = [
  syntax,
  schema,
  unknownProperty,
  newerEngineProperty,
  legacyProperty,
  unsupportedFeature,
  invalidSnippet,
  unsupportedVersion,
  missingReference,
  forwardReference,
  dependencyCycle,
  selfReference,
  duplicateUrn,
  invalidProviderReference,
  unknownProvider,
  missingType,
  componentWithId,
  magicMismatch,
  foreignStack,
  malformedPropertyValue,
  duplicateAlias,
  parentUrnMismatch,
  invalidUrn,
  protectedPendingDelete,
  secretInPlaintext,
  secretUndecryptable,
];

/** The fix provider of `code`, if it has one. */
export const stateFixProvider = (code: StateCode): StateFixProvider | undefined => STATE_RULES.find((rule) => rule.code === code)?.fix;
