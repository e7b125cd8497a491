/**
 * The state schemas as ajv (draft 2020-12) validators, precompiled at build time per schema mode, one
 * validator per recognised shape so errors are reported against the shape the content actually has.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
// ajv standalone code generated from schemas/ at build time (scripts/generate-validators.mjs).
import * as pulumiValidators from '../../validators/stateValidatorsPulumi';
import * as seedV3Validators from '../../validators/stateValidatorsSeedV3';
import type { StateSchemaMode } from '../codes';
import type { StateShape } from '../model/structure';

type ValidatorKey = Exclude<StateShape, 'unknown'> | 'legacyCheckpoint';
type Validators = Record<ValidatorKey, ValidateFunction>;

/** `pulumi` reads records as Pulumi's ResourceV3, `seed-v3` as the seed's schema. */
const validators: Record<StateSchemaMode, Validators> = { pulumi: pulumiValidators, 'seed-v3': seedV3Validators };

function validatorsOf(mode: StateSchemaMode): Validators {
  return validators[mode];
}

/** Validates `root` against the schema of `shape`; returns ajv's errors (empty when valid). */
export function validateShape(shape: Exclude<StateShape, 'unknown'> | 'legacyCheckpoint', root: unknown, mode: StateSchemaMode): ErrorObject[] {
  const validate = validatorsOf(mode)[shape];
  return validate(root) ? [] : [...(validate.errors ?? [])];
}

/**
 * Validates one resource record of a document, as the whole-document validation would at
 * `pointer` (the record's JSON pointer): ajv's errors with their instance paths under it.
 */
export function validateRecordAt(record: unknown, pointer: string, mode: StateSchemaMode): ErrorObject[] {
  const validate = validatorsOf(mode).record;
  if (validate(record)) return [];
  return (validate.errors ?? []).map((error) => ({ ...error, instancePath: pointer + error.instancePath }));
}
