/**
 * Resource-state analysis entry point, shared by the language server and the
 * CLI. Fast path: `JSON.parse` + compiled ajv + integrity checks on the object, then one scan
 * of the text to locate only the nodes that carry diagnostics. Only when `JSON.parse` throws
 * does it fall back to jsonc-parser's tolerant tree (syntax diagnostics, then the same checks
 * on whatever parsed).
 *
 * `reanalyzeState` is the keystroke path: when an edit stays inside one record (see
 * snapshot.ts), only that record is validated against the schema again and the other records'
 * schema diagnostics are carried over; the cross-resource checks run on the updated object.
 * The result equals `analyzeState(text)` (property-tested).
 */
import * as l10n from '@vscode/l10n';
import { compareDiagnostics, type Diagnostic } from '../diagnostics';
import { DEFAULT_STATE_SCHEMA_MODE, defaultSeverity, type StateSchemaMode } from './codes';
import { registeredChecks } from './rules';
import { fieldSummaries } from './rules/fields';
import { integrityDiagnostics } from './rules/integrity';
import { loaderDiagnostics } from './rules/loader';
import { isWithin, type JsonPath } from './model/locate';
import type { StateStructure } from './model/structure';
import type { StateFinding } from './rules/findings';
import { resolve } from './rules/resolve';
import { schemaDiagnostics } from './rules/schemaDiagnostics';
import { validateRecordAt, validateShape } from './rules/schemas';
import { editRecord, parseState, type StateSnapshot } from './model/snapshot';

export interface StateAnalysisOptions {
  /** `pulumi` (default): what Pulumi's loader accepts is never an error; `seed-v3`: the seed's schema exactly. */
  stateSchema?: StateSchemaMode;
}

export interface StateAnalysis extends StateSnapshot {
  /** The schema mode the analysis ran in. */
  stateSchema: StateSchemaMode;
  /** Final diagnostics, sorted with `compareDiagnostics`. */
  diagnostics: Diagnostic[];
  /** Schema diagnostics before location, carried to the next version; absent when incomplete. */
  schemaFindings?: StateFinding[];
}

export function analyzeState(text: string, options: StateAnalysisOptions = {}): StateAnalysis {
  return analyzeSnapshot(parseState(text), options.stateSchema ?? DEFAULT_STATE_SCHEMA_MODE);
}

/** The analysis of `text`, a later version of `previous`'s text. */
export function reanalyzeState(previous: StateAnalysis, text: string, options: StateAnalysisOptions = {}): StateAnalysis {
  const mode = options.stateSchema ?? DEFAULT_STATE_SCHEMA_MODE;
  if (mode !== previous.stateSchema) return analyzeState(text, options);
  if (text === previous.text) return previous;
  const edit = previous.schemaFindings && editRecord(previous, text);
  if (!edit) return analyzeState(text, options);
  const { snapshot, index } = edit;
  const resource = snapshot.structure.resources[index];
  const single: StateStructure = { ...snapshot.structure, resources: [resource], pendingResources: [] };
  const schema = [
    ...previous.schemaFindings!.filter((p) => !isWithin(p.at.path, resource.path)),
    ...schemaDiagnostics(validateRecordAt(resource.value, pathToPointer(resource.path), mode), single, mode),
  ];
  return { ...snapshot, stateSchema: mode, diagnostics: diagnose(snapshot, schema, mode), schemaFindings: schema };
}

function analyzeSnapshot(snapshot: StateSnapshot, mode: StateSchemaMode): StateAnalysis {
  const { structure } = snapshot;
  const schema: StateFinding[] = [];
  let complete = true;
  if (structure.shape === 'unknown') {
    if (snapshot.parsedWith === 'json' || structure.root !== undefined) schema.push(unknownShape(structure.root));
  } else {
    try {
      const validator = structure.legacyCheckpoint ? 'legacyCheckpoint' : structure.shape;
      schema.push(...schemaDiagnostics(validateShape(validator, structure.root, mode), structure, mode));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      complete = false;
      schema.push({ code: 'schema', message: l10n.t('The document is nested too deeply to validate against the schema'), at: { path: [], part: 'head' } });
    }
  }
  return { ...snapshot, stateSchema: mode, diagnostics: diagnose(snapshot, schema, mode), schemaFindings: complete ? schema : undefined };
}

/** Adds the cross-resource checks and the syntax errors to the schema diagnostics, locates and sorts them. */
function diagnose(snapshot: StateSnapshot, schema: StateFinding[], mode: StateSchemaMode): Diagnostic[] {
  const { structure, locator, lines, text } = snapshot;
  const pending =
    structure.shape === 'unknown'
      ? schema
      : [
          ...schema,
          ...(mode === 'pulumi' ? fieldSummaries(structure) : []),
          ...loaderDiagnostics(structure, mode),
          ...integrityDiagnostics(structure, mode),
          ...registeredChecks().flatMap((check) => check(structure, mode)),
        ];
  const diagnostics = resolve(pending, locator, lines, text, mode);
  for (const error of snapshot.syntax) diagnostics.push({ code: 'syntax', severity: defaultSeverity('syntax', mode), message: error.message, range: lines.rangeOf(error.span) });
  return diagnostics.sort(compareDiagnostics);
}

function pathToPointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function unknownShape(root: unknown): StateFinding {
  const isObject = typeof root === 'object' && root !== null && !Array.isArray(root);
  return {
    code: 'schema',

    message: isObject
      ? l10n.t('Not a recognised state shape: expected a resource record (urn), a deployment (manifest, resources), an export (version, deployment) or a checkpoint (version, checkpoint)')
      : l10n.t('A state file must be a JSON object (a resource record, deployment, export or checkpoint), not {0}', root === null ? 'null' : Array.isArray(root) ? l10n.t('an array') : typeof root),
    at: { path: [], part: 'head' },
  };
}
