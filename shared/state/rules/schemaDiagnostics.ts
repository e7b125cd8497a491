/**
 * Turns ajv errors into located, readable diagnostics: one per offending node, naming the
 * property and the expected type. Errors inside inputs/outputs are replaced by one
 * `malformed-property-value` per malformed special value (the oneOf branch its signature
 * selects), instead of ajv's list of every failed alternative.
 */
import * as l10n from '@vscode/l10n';
import type { ErrorObject } from 'ajv';
import type { JsonPath } from '../model/locate';
import { pathKey } from '../model/locate';
import { isObject, valueAt, type StateStructure } from '../model/structure';
import type { StateFinding } from './findings';
import { findMalformedValues } from './propertyValues';
import { typeName, valueTypeName } from '../../json/words';
import type { StateSchemaMode } from '../codes';
import { closestName, DECLARED_RECORD_FIELDS, fieldWriter, SEED_RECORD_FIELDS } from './fields';
import { pointerToPath, schemaErrorMessage } from '../../json/jsoncTree';
import { orList } from '../../text/lists';

function describePath(path: JsonPath): string {
  const last = path[path.length - 1];
  if (last === undefined) return l10n.t('The document');
  if (typeof last === 'number') {
    const owner = path[path.length - 2];
    return typeof owner === 'string' ? `"${owner}[${last}]"` : l10n.t('Item {0}', last);
  }
  return `"${last}"`;
}

function expectedTypes(type: unknown): string {
  // Null is accepted wherever Go reads it as empty; naming it in "must be an array or null" only distracts.
  const all = Array.isArray(type) ? type : [type];
  const list = all.length > 1 ? all.filter((t) => t !== 'null') : all;
  return orList(list.map((t) => typeName(String(t))));
}

/** What kind of object holds a property, for "not allowed in a …" messages. */
function containerLabel(path: JsonPath, recordPaths: Set<string>): string {
  if (recordPaths.has(pathKey(path))) return l10n.t('a resource record');
  const last = path[path.length - 1];
  if (last === 'manifest') return l10n.t('the manifest');
  if (last === 'deployment' || last === 'latest' || path.length === 0) return path.length === 0 ? l10n.t('this document') : l10n.t('the deployment');
  if (last === 'checkpoint') return l10n.t('the checkpoint');
  return typeof last === 'string' ? `"${last}"` : l10n.t('this object');
}

export function schemaDiagnostics(errors: ErrorObject[], structure: StateStructure, mode: StateSchemaMode): StateFinding[] {
  // A valid file (the usual case) has no errors to place, so it skips keying every record's path.
  const secretsProvider = hasSecretsProvider(structure);
  if (errors.length === 0) return propertyValueDiagnostics(structure, secretsProvider);
  const recordPaths = new Set<string>();
  for (const resource of [...structure.resources, ...structure.pendingResources]) recordPaths.add(pathKey(resource.path));
  const diagnostics: StateFinding[] = [];
  const seen = new Set<string>();
  const propertyValueRoots = new Map<string, JsonPath>();
  const push = (diagnostic: StateFinding) => {
    const key = `${pathKey(diagnostic.at.path)}|${diagnostic.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    diagnostics.push(diagnostic);
  };

  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    // Inside a property value (record/inputs|outputs/<name>/…): handled by signature below.
    const valueRoot = propertyValueRoot(path, recordPaths);
    if (valueRoot) {
      propertyValueRoots.set(pathKey(valueRoot), valueRoot);
      continue;
    }
    switch (error.keyword) {
      case 'if':
      case 'oneOf':
      case 'anyOf':
      case 'not':
        continue;
      case 'additionalProperties': {
        const property = String((error.params as { additionalProperty: string }).additionalProperty);
        const isRecord = recordPaths.has(pathKey(path));
        const suggestion = isRecord ? closestName(property, mode === 'pulumi' ? DECLARED_RECORD_FIELDS : [...SEED_RECORD_FIELDS]) : undefined;
        const container = containerLabel(path, recordPaths);
        // Pulumi's loader decodes with Go's encoding/json, which skips members a struct does not
        // declare (sdk/go/common/apitype/core.go): in pulumi mode an unknown member is ignored, not refused.
        const writer = mode === 'seed-v3' && isRecord ? fieldWriter(property) : undefined;
        const message =
          mode === 'pulumi'
            ? l10n.t('Property "{0}" is not part of {1}: Pulumi ignores this property', property, container)
            : writer
              ? l10n.t('Property "{0}" is not allowed in {1} (the seed\'s v3 schema lacks it; written by {2})', property, container, writer)
              : l10n.t('Property "{0}" is not allowed in {1}', property, container);
        push({
          code: 'unknown-property',
          message: suggestion ? l10n.t('{0}. Did you mean "{1}"?', message, suggestion) : message,
          at: { path: [...path, property], part: 'key' },
          data: { path: [...path, property], property, ...(suggestion ? { suggestion } : {}) },
        });
        continue;
      }
      case 'required': {
        const property = String((error.params as { missingProperty: string }).missingProperty);
        const index = path[path.length - 1];
        const message = !recordPaths.has(pathKey(path))
          ? l10n.t('{0} is missing the required property "{1}"', describePath(path), property)
          : typeof index === 'number'
            ? l10n.t('Resource at index {0} is missing the required property "{1}"', index, property)
            : l10n.t('Resource is missing the required property "{0}"', property);
        push({ code: 'schema', message, at: { path, part: 'name' }, data: { path, property } });
        continue;
      }
      case 'type': {
        const actual = valueTypeName(valueAt(structure.root, path));
        push({
          code: 'schema',

          message: l10n.t('{0} must be {1}, not {2}', describePath(path), expectedTypes((error.params as { type: unknown }).type), actual),
          at: { path, part: 'value' },
          data: { path },
        });
        continue;
      }
      case 'false schema': {
        const last = path[path.length - 1];
        const message = last === 'features' ? l10n.t('{0} is only allowed with version 4 or later', '"features"') : l10n.t('{0} is not allowed here', describePath(path));
        push({ code: 'schema', message, at: { path, part: 'key' }, data: { path } });
        continue;
      }
      case 'enum': {
        const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
        push({
          code: 'schema',

          message: l10n.t('{0} must be one of {1}', describePath(path), allowed.map((v) => JSON.stringify(v)).join(', ')),
          at: { path, part: 'value' },
          data: { path },
        });
        continue;
      }
      default:
        push({ code: 'schema', message: schemaErrorMessage(describePath(path), error.message), at: { path, part: 'value' }, data: { path } });
    }
  }

  const values = propertyValueDiagnostics(structure, secretsProvider);
  for (const diagnostic of values) push(diagnostic);
  if (mode === 'seed-v3') {
    // The seed's schema is stricter than Pulumi's loader (one content key per asset, no extra keys).
    for (const [key, root] of propertyValueRoots) {
      if (values.some((d) => pathKey(d.at.path).startsWith(key))) continue;
      push({
        code: 'malformed-property-value',
        message: l10n.t("{0} does not follow the seed schema's property-value encoding", describePath(root)),
        at: { path: root, part: 'name' },
        data: { path: root },
      });
    }
  }
  return diagnostics;
}

/**
 * What Pulumi's `DeserializeResource` refuses in the property values of every record (inputs and
 * outputs; pending operations' records too): malformed special values, and ciphertext with no
 * secrets manager to decrypt it.
 */
function propertyValueDiagnostics(structure: StateStructure, secretsProvider: boolean | undefined): StateFinding[] {
  const out: StateFinding[] = [];
  for (const list of [structure.resources, structure.pendingResources]) {
    for (const resource of list) {
      const record = resource.value;
      if (!isObject(record)) continue;
      for (const section of ['inputs', 'outputs'] as const) {
        const properties = record[section];
        if (!isObject(properties)) continue;
        for (const name in properties) {
          const value = properties[name];
          if (typeof value !== 'object' || value === null) continue;
          for (const problem of findMalformedValues(value, [...resource.path, section, name], { secretsProvider })) {
            out.push({ code: 'malformed-property-value', message: problem.message, at: { path: problem.path, part: 'name' }, data: { path: problem.path } });
          }
        }
      }
    }
  }
  return out;
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

/** Re-exported for callers that want to check an object is a plain record container. */
