/**
 * Every diagnostic code of resource-state files, with its default severity per schema mode. The
 * checks take their severity from here (see `defaultSeverity`), so the table, the checks and the tests
 * agree. The table imports no check, fix or doc (each code's module in rules/ holds them), so anything
 * may import it.
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
  | 'protected-pending-delete'
  | 'secret-in-plaintext'
  | 'secret-undecryptable';

export const STATE_CODES = defineCodes<StateCodeName, { seedV3Severity?: Severity }>([
  { code: 'syntax', severity: 'error' },
  { code: 'schema', severity: 'error' },
  {
    code: 'unknown-property',
    severity: 'warning',
    seedV3Severity: 'error',
  },
  {
    code: 'newer-engine-property',
    severity: 'information',
  },
  {
    code: 'legacy-property',
    severity: 'information',
  },
  { code: 'unsupported-feature', severity: 'error' },
  { code: 'invalid-snippet', severity: 'error' },
  {
    code: 'unsupported-version',
    severity: 'error',
    seedV3Severity: 'warning',
  },
  { code: 'missing-reference', severity: 'error' },
  { code: 'forward-reference', severity: 'error' },
  { code: 'dependency-cycle', severity: 'error' },
  { code: 'self-reference', severity: 'error' },
  { code: 'duplicate-urn', severity: 'error' },
  { code: 'invalid-provider-reference', severity: 'error' },
  { code: 'unknown-provider', severity: 'error' },
  { code: 'missing-type', severity: 'error' },
  { code: 'component-with-id', severity: 'error' },
  { code: 'magic-mismatch', severity: 'error' },
  { code: 'foreign-stack', severity: 'warning' },
  { code: 'malformed-property-value', severity: 'error' },
  {
    code: 'duplicate-alias',
    // Pulumi's loader and integrity check accept it; only the next `pulumi up` refuses (NormalizeURNReferences).
    severity: 'warning',
    seedV3Severity: 'error',
  },
  { code: 'parent-urn-mismatch', severity: 'information' },
  { code: 'invalid-urn', severity: 'information' },
  {
    code: 'protected-pending-delete',
    severity: 'warning',
  },
  // Pulumi writes and accepts plaintext secrets (`stack export --show-secrets`): never more than Information.
  { code: 'secret-in-plaintext', severity: 'information' },
  { code: 'secret-undecryptable', severity: 'warning' },
]);

export type StateCode = keyof typeof STATE_CODES;

/** The default severity of `code` in `mode`, from the registry. */
export function defaultSeverity(code: StateCode, mode: StateSchemaMode): Severity {
  const info: { severity: Severity; seedV3Severity?: Severity } = STATE_CODES[code];
  return mode === 'seed-v3' ? (info.seedV3Severity ?? info.severity) : info.severity;
}
