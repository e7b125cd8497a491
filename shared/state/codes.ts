/**
 * Every diagnostic code of resource-state files, with its default severity and meaning. The checks
 * take their severity from here (see `defaultSeverity`), so the table, the checks and the tests agree.
 * The table imports no check or fix (rules.ts pairs codes with them), so anything may import it.
 */
import { defineCodes } from '../codes';
import type { Severity } from '../diagnostics';

/**
 * How strictly records are read: `pulumi` follows Pulumi's loader (what it accepts is never an
 * error); `seed-v3` enforces the seed's version-3 record schema exactly.
 */
export type StateSchemaMode = 'pulumi' | 'seed-v3';
export const STATE_SCHEMA_MODES: readonly StateSchemaMode[] = ['pulumi', 'seed-v3'];
export const DEFAULT_STATE_SCHEMA_MODE: StateSchemaMode = 'pulumi';

export function isStateSchemaMode(value: unknown): value is StateSchemaMode {
  return typeof value === 'string' && (STATE_SCHEMA_MODES as readonly string[]).includes(value);
}

/** The mode a setting value asks for; anything unrecognised falls back to the default. */
export function stateSchemaModeOf(value: unknown): StateSchemaMode {
  return isStateSchemaMode(value) ? value : DEFAULT_STATE_SCHEMA_MODE;
}

type StateCodeName =
  | 'syntax'
  | 'schema'
  | 'unknown-property'
  | 'newer-engine-property'
  | 'legacy-property'
  | 'unsupported-feature'
  | 'invalid-snippet'
  | 'unsupported-version'
  | 'missing-reference'
  | 'forward-reference'
  | 'dependency-cycle'
  | 'self-reference'
  | 'duplicate-urn'
  | 'invalid-provider-reference'
  | 'unknown-provider'
  | 'missing-type'
  | 'component-with-id'
  | 'magic-mismatch'
  | 'foreign-stack'
  | 'malformed-property-value'
  | 'duplicate-alias'
  | 'parent-urn-mismatch'
  | 'invalid-urn'
  | 'protected-pending-delete';

export const STATE_CODES = defineCodes<StateCodeName, { seedV3Severity?: Severity }>([
  { code: 'syntax', severity: 'error', description: 'The file is not valid JSON.' },
  { code: 'schema', severity: 'error', description: 'A value has the wrong shape for a resource record (wrong type, missing urn, …).' },
  {
    code: 'unknown-property',
    severity: 'warning',
    seedV3Severity: 'error',
    description: 'A property Pulumi neither declares nor ever wrote (Pulumi ignores it); in seed-v3 mode, any property outside the seed schema.',
  },
  {
    code: 'newer-engine-property',
    severity: 'information',
    description: "Fields Pulumi's records declare but the seed's version-3 schema lacks; one summary per file with the fields and their counts.",
  },
  {
    code: 'legacy-property',
    severity: 'information',
    description: 'Fields older Pulumi engines wrote and Pulumi now ignores (sequenceNumber, version-1 target/time/defaults); one summary per file.',
  },
  { code: 'unsupported-feature', severity: 'error', description: 'A version-4 `features` entry Pulumi does not support.' },
  { code: 'invalid-snippet', severity: 'error', description: 'A snippet without a `uuid`, or two snippets with one `uuid`.' },
  {
    code: 'unsupported-version',
    severity: 'error',
    seedV3Severity: 'warning',
    description: 'A state version Pulumi cannot load (seed-v3 mode: any version but 3); the checks still run.',
  },
  { code: 'missing-reference', severity: 'error', description: 'A parent, dependency, property dependency, deletedWith or replaceWith urn that is not in the file.' },
  { code: 'forward-reference', severity: 'error', description: 'A referenced resource appears later in the file (import refuses this).' },
  { code: 'dependency-cycle', severity: 'error', description: 'Resources depend on each other in a cycle.' },
  { code: 'self-reference', severity: 'error', description: 'A resource references itself.' },
  { code: 'duplicate-urn', severity: 'error', description: 'The same urn appears more than once and not all but one copy are marked delete.' },
  { code: 'invalid-provider-reference', severity: 'error', description: 'A provider reference is not `<provider urn>::<id>` with a `pulumi:providers:<pkg>` type.' },
  { code: 'unknown-provider', severity: 'error', description: 'No earlier provider resource has that urn and id.' },
  { code: 'missing-type', severity: 'error', description: 'A resource has no type (import requires it).' },
  { code: 'component-with-id', severity: 'error', description: 'A component resource (custom false) has an id.' },
  { code: 'magic-mismatch', severity: 'error', description: "The manifest magic is not the SHA-256 of the manifest's version." },
  { code: 'foreign-stack', severity: 'warning', description: "A urn names a stack other than the file's stack." },
  { code: 'malformed-property-value', severity: 'error', description: "A property value breaks Pulumi's encoding (secret, signature, resource reference, asset, archive)." },
  {
    code: 'duplicate-alias',
    // Pulumi's loader and integrity check accept it; only the next `pulumi up` refuses (NormalizeURNReferences).
    severity: 'warning',
    seedV3Severity: 'error',
    description: 'Two resources claim the same alias (Pulumi loads the file; the next `pulumi up` refuses it).',
  },
  { code: 'parent-urn-mismatch', severity: 'information', description: "A urn's qualified type does not match its parent's (Pulumi only logs this)." },
  { code: 'invalid-urn', severity: 'information', description: 'A urn is not of the form `urn:pulumi:<stack>::<project>::<type>::<name>`.' },
  {
    code: 'protected-pending-delete',
    severity: 'warning',
    description: 'A resource pending deletion is also protected: the next update deletes it anyway, since Pulumi does not check protect when deleting a replaced copy.',
  },
]);

export type StateCode = keyof typeof STATE_CODES;

/** The default severity of `code` in `mode`, from the registry. */
export function defaultSeverity(code: StateCode, mode: StateSchemaMode): Severity {
  const info: { severity: Severity; seedV3Severity?: Severity } = STATE_CODES[code];
  return mode === 'seed-v3' ? (info.seedV3Severity ?? info.severity) : info.severity;
}
