/**
 * The state schemas compiled with ajv (draft 2020-12), once per process and schema mode, one
 * validator per recognised shape so errors are reported against the shape the content actually has.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import propertyValueSchema from '../../schemas/property-value.schema.json';
import recordSchema from '../../schemas/resource-state.v3.schema.json';
import pulumiRecordSchema from '../../schemas/resource-state.pulumi.schema.json';
import stateFileSchema from '../../schemas/state-file.schema.json';
import pulumiStateFileSchema from '../../schemas/state-file.pulumi.schema.json';
import type { StateSchemaMode } from './codes';
import type { StateShape } from './model';

export const STATE_FILE_SCHEMA_ID = 'https://quota-state.dev/schemas/state-file.schema.json';
export const RECORD_SCHEMA_ID = 'https://quota-state.dev/schemas/resource-state.v3.schema.json';
export const PULUMI_STATE_FILE_SCHEMA_ID = 'https://quota-state.dev/schemas/state-file.pulumi.schema.json';
export const PULUMI_RECORD_SCHEMA_ID = 'https://quota-state.dev/schemas/resource-state.pulumi.schema.json';

type ValidatorKey = Exclude<StateShape, 'unknown'> | 'legacyCheckpoint';
type Validators = Record<ValidatorKey, ValidateFunction>;

const validators: Partial<Record<StateSchemaMode, Validators>> = {};

/** One ajv instance per mode: `pulumi` reads records as Pulumi's ResourceV3, `seed-v3` as the seed's schema. */
function compile(mode: StateSchemaMode): Validators {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema(propertyValueSchema);
  const [record, file, recordId, fileId] =
    mode === 'pulumi'
      ? [pulumiRecordSchema, pulumiStateFileSchema, PULUMI_RECORD_SCHEMA_ID, PULUMI_STATE_FILE_SCHEMA_ID]
      : [recordSchema, stateFileSchema, RECORD_SCHEMA_ID, STATE_FILE_SCHEMA_ID];
  ajv.addSchema(record);
  ajv.addSchema(file);
  const def = (name: string) => {
    const validate = ajv.getSchema(`${fileId}#/$defs/${name}`);
    if (!validate) throw new Error(`state-file schema has no $defs/${name}`);
    return validate;
  };
  return {
    record: ajv.getSchema(recordId)!,
    deployment: def('deployment'),
    export: def('export'),
    checkpoint: def('checkpoint'),
    legacyCheckpoint: def('legacyCheckpoint'),
  };
}

function validatorsOf(mode: StateSchemaMode): Validators {
  return (validators[mode] ??= compile(mode));
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
