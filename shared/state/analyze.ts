/**
 * Resource-state analysis entry point, shared by the language server and the
 * CLI. Fast path: `JSON.parse` + compiled ajv (the schema pass) + the rules of rules/index.ts, one
 * module per code, all reading one context (the schema pass, and the integrity index built in one
 * walk over the resources), then one scan of the text to locate only the nodes that carry
 * diagnostics. Only when `JSON.parse` throws does it fall back to jsonc-parser's tolerant tree
 * (syntax diagnostics, then the same checks on whatever parsed).
 *
 * `reanalyzeState` is the keystroke path: when an edit stays inside one record (see
 * snapshot.ts), only that record is validated against the schema again and the rest of the
 * schema pass is carried over; the cross-resource rules run on the updated object.
 * The result equals `analyzeState(text)` (property-tested).
 */
import { compareDiagnostics, type Diagnostic } from '../diagnostics';
import { DEFAULT_STATE_SCHEMA_MODE, type StateSchemaMode } from './codes';
import { pathKey } from './model/locate';
import { editRecord, parseState, type StateSnapshot } from './model/snapshot';
import { STATE_RULES, StateRuleContext } from './rules';
import type { StateFinding } from './passes/findings';
import { resolve } from './passes/resolve';
import { EMPTY_SCHEMA_PASS, isCarriable, runSchemaPass, withRecordRevalidated, type SchemaPass } from './passes/schemaPass';
import type { SecretsPass } from './passes/secrets';

export interface StateAnalysisOptions {
  /** `pulumi` (default): what Pulumi's loader accepts is never an error; `seed-v3`: the seed's schema exactly. */
  stateSchema?: StateSchemaMode;
  /** What a caller holding the stack's key found of its secrets (`secret-undecryptable`, the encrypt fix); none by default. */
  secrets?: SecretsPass;
}

export interface StateAnalysis extends StateSnapshot {
  /** The schema mode the analysis ran in. */
  stateSchema: StateSchemaMode;
  /** Final diagnostics, sorted with `compareDiagnostics`. */
  diagnostics: Diagnostic[];
  /** The schema pass, carried to the next version; absent when incomplete. */
  schemaPass?: SchemaPass;
}

export function analyzeState(text: string, options: StateAnalysisOptions = {}): StateAnalysis {
  return analyzeSnapshot(parseState(text), options.stateSchema ?? DEFAULT_STATE_SCHEMA_MODE, options.secrets);
}

/** The analysis of `text`, a later version of `previous`'s text. */
export function reanalyzeState(previous: StateAnalysis, text: string, options: StateAnalysisOptions = {}): StateAnalysis {
  const mode = options.stateSchema ?? DEFAULT_STATE_SCHEMA_MODE;
  if (mode !== previous.stateSchema) return analyzeState(text, options);
  if (text === previous.text) return previous;
  const edit = previous.schemaPass && editRecord(previous, text);
  if (!edit) return analyzeState(text, options);
  const { snapshot, index } = edit;
  const schemaPass = withRecordRevalidated(previous.schemaPass!, snapshot.structure, index, mode);
  return { ...snapshot, stateSchema: mode, diagnostics: diagnose(snapshot, schemaPass, mode, options.secrets), schemaPass };
}

/** The analysis of a snapshot parsed already (surgery's input): no second parse. */
export function analyzeSnapshot(snapshot: StateSnapshot, mode: StateSchemaMode = DEFAULT_STATE_SCHEMA_MODE, secrets?: SecretsPass): StateAnalysis {
  const schemaPass = runSchemaPass(snapshot, mode);
  return { ...snapshot, stateSchema: mode, diagnostics: diagnose(snapshot, schemaPass, mode, secrets), schemaPass: isCarriable(schemaPass) ? schemaPass : undefined };
}

/** The codes only a caller holding the stack's key adds to: their diagnostics are what `secretDiagnostics` gives again. */
export const SECRET_CODES: ReadonlySet<string> = new Set(['secret-in-plaintext', 'secret-undecryptable']);

/**
 * The diagnostics of the secret rules alone, with what a caller holding the stack's key found
 * (`secrets`): the language server's second pass, which replaces the analysis's diagnostics of
 * `SECRET_CODES` with these, without analysing the document again.
 */
export function secretDiagnostics(snapshot: StateSnapshot, mode: StateSchemaMode, secrets: SecretsPass): Diagnostic[] {
  const context = new StateRuleContext(snapshot.structure, mode, snapshot.syntax, EMPTY_SCHEMA_PASS, secrets);
  const findings = STATE_RULES.filter((rule) => SECRET_CODES.has(rule.code)).flatMap((rule) => rule.check(context));
  return resolve(withoutFindingsInBrokenRecords(findings, snapshot), snapshot.locator, snapshot.lines, snapshot.text, mode);
}

/** Runs every rule on one context, then locates and sorts their findings. */
function diagnose(snapshot: StateSnapshot, schemaPass: SchemaPass, mode: StateSchemaMode, secrets?: SecretsPass): Diagnostic[] {
  const context = new StateRuleContext(snapshot.structure, mode, snapshot.syntax, schemaPass, secrets);
  const findings = withoutFindingsInBrokenRecords(
    STATE_RULES.flatMap((rule) => rule.check(context)),
    snapshot,
  );
  return resolve(findings, snapshot.locator, snapshot.lines, snapshot.text, mode).sort(compareDiagnostics);
}

/**
 * A record a syntax error cuts through (a truncated file's last record, a missing comma) holds only
 * what the tolerant parser could recover: its missing "type" or dangling reference is the syntax
 * error seen again, so only `syntax` speaks for it.
 */
function withoutFindingsInBrokenRecords(findings: StateFinding[], snapshot: StateSnapshot): StateFinding[] {
  const records = snapshot.structure.resources;
  if (snapshot.syntax.length === 0 || records.length === 0) return findings;
  // Only records something is reported in are located: mid-typing in a big file, that is a few of thousands.
  const depth = records[0].path.length;
  const recordOf = (finding: StateFinding) => (finding.code !== 'syntax' && finding.at.path.length >= depth ? pathKey(finding.at.path.slice(0, depth)) : undefined);
  const reported = new Set(findings.map(recordOf));
  const candidates = records.map((record) => record.path).filter((path) => reported.has(pathKey(path)));
  if (candidates.length === 0) return findings;
  const spans = snapshot.locator.locateAll(candidates);
  const broken = new Set(
    candidates
      .filter((path) => {
        const span = spans.get(pathKey(path))?.value;
        return span !== undefined && snapshot.syntax.some(({ span: error }) => error.offset >= span.offset && error.offset <= span.offset + span.length);
      })
      .map(pathKey),
  );
  if (broken.size === 0) return findings;
  return findings.filter((finding) => {
    const record = recordOf(finding);
    return record === undefined || !broken.has(record);
  });
}
