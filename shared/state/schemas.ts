/**
 * The state schemas compiled with ajv (draft 2020-12), once per process, one validator per
 * recognised shape so errors are reported against the shape the content actually has.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import propertyValueSchema from '../../schemas/property-value.schema.json';
import recordSchema from '../../schemas/resource-state.v3.schema.json';
import stateFileSchema from '../../schemas/state-file.schema.json';
import type { StateShape } from './model';

export const STATE_FILE_SCHEMA_ID = 'https://quota-state.dev/schemas/state-file.schema.json';
export const RECORD_SCHEMA_ID = 'https://quota-state.dev/schemas/resource-state.v3.schema.json';

/** Properties absent from the v3 schema that newer Pulumi engines write (product.md §5). */
export const NEWER_ENGINE_PROPERTIES: ReadonlySet<string> = new Set([
  'created',
  'modified',
  'deletedWith',
  'retainOnDelete',
  'taint',
  'sourcePosition',
  'stackTrace',
  'ignoreChanges',
  'hideDiff',
  'replaceOnChanges',
  'replacementTrigger',
  'replaceWith',
  'viewOf',
  'resourceHooks',
  'extensionRef',
  'snippetID',
  'refreshBeforeUpdate',
]);

let validators: Record<Exclude<StateShape, 'unknown'>, ValidateFunction> | undefined;

function compile(): Record<Exclude<StateShape, 'unknown'>, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema(propertyValueSchema);
  ajv.addSchema(recordSchema);
  ajv.addSchema(stateFileSchema);
  const def = (name: string) => {
    const validate = ajv.getSchema(`${STATE_FILE_SCHEMA_ID}#/$defs/${name}`);
    if (!validate) throw new Error(`state-file schema has no $defs/${name}`);
    return validate;
  };
  return { record: ajv.getSchema(RECORD_SCHEMA_ID)!, deployment: def('deployment'), export: def('export'), checkpoint: def('checkpoint') };
}

/** Validates `root` against the schema of `shape`; returns ajv's errors (empty when valid). */
export function validateShape(shape: Exclude<StateShape, 'unknown'>, root: unknown): ErrorObject[] {
  validators ??= compile();
  const validate = validators[shape];
  return validate(root) ? [] : [...(validate.errors ?? [])];
}

/**
 * Validates one resource record of a document, as the whole-document validation would at
 * `pointer` (the record's JSON pointer): ajv's errors with their instance paths under it.
 */
export function validateRecordAt(record: unknown, pointer: string): ErrorObject[] {
  validators ??= compile();
  const validate = validators.record;
  if (validate(record)) return [];
  return (validate.errors ?? []).map((error) => ({ ...error, instancePath: pointer + error.instancePath }));
}
