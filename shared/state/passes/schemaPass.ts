/**
 * The schema pass: the document validated against its shape's ajv schema (schemas.ts) once, ajv's
 * errors classified by the code that reports them, and every record's property values checked
 * against Pulumi's encoding (propertyValues.ts). The modules of `schema`, `unknown-property` and
 * `malformed-property-value` turn their classes into findings. The keystroke path validates only
 * the edited record again and carries the rest of the previous pass over (`withRecordRevalidated`).
 */
import * as l10n from '@vscode/l10n';
import type { ErrorObject } from 'ajv';
import { valueTypeName } from '../../json/words';
import { pointerToPath } from '../../json/jsoncTree';
import type { StateSchemaMode } from '../codes';
import { isWithin, pathKey, type JsonPath } from '../model/locate';
import type { StateSnapshot } from '../model/snapshot';
import { isObject, valueAt, type StateStructure } from '../model/structure';
import { MalformedValueWalk, type MalformedValue } from './propertyValues';
import { validateRecordAt, validateShape } from './schemas';

/** An ajv error `schema` reports: where, and whether that node is a resource record. */
export interface ShapeError {
  readonly error: ErrorObject;
  readonly path: JsonPath;
  readonly isRecord: boolean;
  /** The JSON type found, for a `type` error. */
  readonly actual?: string;
}

/** A member the schema does not declare (ajv's `additionalProperties`), which `unknown-property` reports. */
export interface UndeclaredMember {
  /** The object holding it. */
  readonly container: JsonPath;
  readonly property: string;
  /** Whether the container is a resource record. */
  readonly isRecord: boolean;
}

/** Why the document as a whole could not be validated: it is no state shape, or it nests too deeply. */
type DocumentProblem = 'unrecognised-shape' | 'too-deep';

export interface SchemaPass {
  readonly document?: DocumentProblem;
  readonly shapeErrors: readonly ShapeError[];
  readonly undeclaredMembers: readonly UndeclaredMember[];
  /** Special values (secrets, assets, …) Pulumi's loader refuses. */
  readonly malformedValues: readonly MalformedValue[];
  /** seed-v3: the property values its schema refuses that no malformed special value explains. */
  readonly offSchemaValues: readonly JsonPath[];
}

/** A pass that found nothing (what the secret rules, which read none of it, run with in `secretDiagnostics`). */
export const EMPTY_SCHEMA_PASS: SchemaPass = { shapeErrors: [], undeclaredMembers: [], malformedValues: [], offSchemaValues: [] };

/** The schema pass of a whole document. */
export function runSchemaPass(snapshot: StateSnapshot, mode: StateSchemaMode): SchemaPass {
  const { structure } = snapshot;
  if (structure.shape === 'unknown') {
    return snapshot.parsedWith === 'json' || structure.root !== undefined ? { ...EMPTY_SCHEMA_PASS, document: 'unrecognised-shape' } : EMPTY_SCHEMA_PASS;
  }
  try {
    const validator = structure.legacyCheckpoint ? 'legacyCheckpoint' : structure.shape;
    return classify(validateShape(validator, structure.root, mode), structure, mode);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { ...EMPTY_SCHEMA_PASS, document: 'too-deep' };
  }
}

/** Whether the next version may carry this pass over (it is complete). */
export const isCarriable = (pass: SchemaPass): boolean => pass.document !== 'too-deep';

/** `previous` with resource `index` of `structure` (the edited record) validated again. */
export function withRecordRevalidated(previous: SchemaPass, structure: StateStructure, index: number, mode: StateSchemaMode): SchemaPass {
  const resource = structure.resources[index];
  const single: StateStructure = { ...structure, resources: [resource], pendingResources: [] };
  const record = classify(validateRecordAt(resource.value, pathToPointer(resource.path), mode), single, mode);
  const outside = (path: JsonPath) => !isWithin(path, resource.path);
  return {
    document: previous.document,
    shapeErrors: [...previous.shapeErrors.filter((e) => outside(e.path)), ...record.shapeErrors],
    undeclaredMembers: [...previous.undeclaredMembers.filter((m) => outside([...m.container, m.property])), ...record.undeclaredMembers],
    malformedValues: [...previous.malformedValues.filter((v) => outside(v.path)), ...record.malformedValues],
    offSchemaValues: [...previous.offSchemaValues.filter(outside), ...record.offSchemaValues],
  };
}

/** How a message names the node at `path`. */
export function describePath(path: JsonPath): string {
  const last = path[path.length - 1];
  if (last === undefined) return l10n.t('The document');
  if (typeof last === 'number') {
    const owner = path[path.length - 2];
    return typeof owner === 'string' ? `"${owner}[${last}]"` : l10n.t('Item {0}', last);
  }
  return `"${last}"`;
}

function pathToPointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Sorts ajv's errors by the code that reports them. Errors inside a property value are left to
 * the property-value check, which names the one problem of a malformed special value instead of
 * ajv's list of every failed alternative.
 */
function classify(errors: ErrorObject[], structure: StateStructure, mode: StateSchemaMode): SchemaPass {
  const secretsProvider = hasSecretsProvider(structure);
  // A valid file (the usual case) has no errors to place, so it skips keying every record's path.
  if (errors.length === 0) return { ...EMPTY_SCHEMA_PASS, malformedValues: withoutRepeats(malformedValuesOf(structure, secretsProvider)) };
  const recordPaths = new Set<string>();
  for (const resource of [...structure.resources, ...structure.pendingResources]) recordPaths.add(pathKey(resource.path));
  const shapeErrors: ShapeError[] = [];
  const undeclaredMembers: UndeclaredMember[] = [];
  const valueRoots = new Map<string, JsonPath>();
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    const valueRoot = propertyValueRoot(path, recordPaths);
    if (valueRoot) valueRoots.set(pathKey(valueRoot), valueRoot);
    else if (error.keyword === 'additionalProperties') {
      const property = String((error.params as { additionalProperty: string }).additionalProperty);
      undeclaredMembers.push({ container: path, property, isRecord: recordPaths.has(pathKey(path)) });
    } else if (!COMBINATOR_KEYWORDS.has(error.keyword)) {
      const actual = error.keyword === 'type' ? valueTypeName(valueAt(structure.root, path)) : undefined;
      shapeErrors.push({ error, path, isRecord: recordPaths.has(pathKey(path)), actual });
    }
  }
  const malformedValues = withoutRepeats(malformedValuesOf(structure, secretsProvider));
  // The seed's schema is stricter than Pulumi's loader (one content key per asset, no extra keys).
  const offSchemaValues = mode === 'seed-v3' ? [...valueRoots].filter(([key]) => !malformedValues.some((v) => pathKey(v.path).startsWith(key))).map(([, root]) => root) : [];
  return { shapeErrors, undeclaredMembers, malformedValues, offSchemaValues };
}

/** Keywords whose branches' own errors say what is wrong: theirs only repeat it. */
const COMBINATOR_KEYWORDS: ReadonlySet<string> = new Set(['if', 'oneOf', 'anyOf', 'not']);

/** One malformed value per place and problem (a secret's plaintext can repeat one). */
function withoutRepeats(values: MalformedValue[]): MalformedValue[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = `${pathKey(value.path)}|${value.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What Pulumi's `DeserializeResource` refuses in the property values of every record (inputs and
 * outputs; pending operations' records too): malformed special values, and ciphertext with no
 * secrets manager to decrypt it.
 */
function malformedValuesOf(structure: StateStructure, secretsProvider: boolean | undefined): MalformedValue[] {
  const walk = new MalformedValueWalk(secretsProvider);
  for (const list of [structure.resources, structure.pendingResources]) {
    for (const resource of list) if (isObject(resource.value)) walk.visitRecord(resource.value, resource.path);
  }
  return walk.problems;
}

/**
 * Whether Pulumi has a secrets manager to decrypt the deployment's ciphertext with: a `secrets_providers`
 * with a type (pkg/resource/stack/deployment.go initializeSecretsManager). Undefined for a lone record,
 * which Pulumi never loads by itself.
 */
function hasSecretsProvider(structure: StateStructure): boolean | undefined {
  if (structure.shape === 'record' || structure.deploymentPath === undefined) return undefined;
  // Deployments and checkpoints before version 3 have no secrets_providers; the migration drops it.
  if (structure.legacyCheckpoint || (isObject(structure.root) && (structure.root.version === 1 || structure.root.version === 2))) return false;
  const deployment = valueAt(structure.root, structure.deploymentPath);
  const providers = isObject(deployment) ? deployment.secrets_providers : undefined;
  return isObject(providers) && typeof providers.type === 'string' && providers.type !== '';
}

/** `record/inputs/<name>` when `path` lies inside (or at) one property value of a record. */
function propertyValueRoot(path: JsonPath, recordPaths: Set<string>): JsonPath | undefined {
  // The record path is a prefix; inputs/outputs and a property name follow it.
  for (let split = path.length - 2; split >= 0; split--) {
    const section = path[split];
    if ((section === 'inputs' || section === 'outputs') && recordPaths.has(pathKey(path.slice(0, split)))) {
      return path.slice(0, split + 2);
    }
  }
  return undefined;
}
