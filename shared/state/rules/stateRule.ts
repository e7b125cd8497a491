/**
 * The shape of a state rule (a code's module: its check, its quick fixes, its documentation) and the
 * one context every check reads: the document, the schema mode, and the passes built for it once
 * per analysis (the schema pass eagerly, since it is carried from version to version; the
 * integrity index and the field tallies on first use).
 */
import type { DiagnosticRule } from '../../diagnosticRule';
import type { Fix, FixRequest } from '../../edits';
import type { StateCode, StateSchemaMode } from '../codes';
import type { StateSnapshot } from '../model/snapshot';
import { recordVersion, type StateStructure } from '../model/structure';
import type { SyntaxError } from '../model/syntax';
import { tallyFields, type FieldTallies } from '../passes/fields';
import type { StateFinding } from '../passes/findings';
import { buildIntegrityIndex, type IntegrityIndex } from '../passes/integrityIndex';
import type { SchemaPass } from '../passes/schemaPass';
import { stateSecrets, type SecretSite, type SecretsPass } from '../passes/secrets';

/** Reads one diagnostic's `data` and offers its fixes. */
export type StateFixProvider = (analysis: StateSnapshot, request: FixRequest) => Fix[];

/** Reports one code: reads the context's document and passes, never the text. */
type StateCheck = (context: StateRuleContext) => StateFinding[];

export type StateRule = DiagnosticRule<StateCode, StateCheck, StateFixProvider>;

/** What the checks of one analysis share. */
export class StateRuleContext {
  /** The record version Pulumi reads the resources as (always 3 in seed-v3 mode). */
  readonly version: 1 | 2 | 3;
  private integrityIndex?: IntegrityIndex;
  private fieldTallies?: FieldTallies;
  private secretSites?: SecretSite[];

  constructor(
    readonly structure: StateStructure,
    readonly mode: StateSchemaMode,
    /** The text's JSON syntax errors (none when `JSON.parse` read it). */
    readonly syntax: readonly SyntaxError[],
    readonly schema: SchemaPass,
    /** What a caller holding the stack's key found of its secrets; absent in the plain analysis, which decrypts nothing. */
    readonly secretsPass?: SecretsPass,
  ) {
    this.version = recordVersion(structure, mode);
  }

  /** The cross-resource index, built in one walk over the resources on first use. */
  get integrity(): IntegrityIndex {
    return (this.integrityIndex ??= buildIntegrityIndex(this.structure, this.version));
  }

  /** The newer-engine and legacy fields of the records and wrappers, counted in one walk on first use. */
  get fields(): FieldTallies {
    return (this.fieldTallies ??= tallyFields(this.structure));
  }

  /** The records' well-formed secrets, found in one walk on first use. */
  get secrets(): SecretSite[] {
    return (this.secretSites ??= stateSecrets(this.structure));
  }
}
