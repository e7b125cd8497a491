/**
 * `schema`: a value with the wrong shape for a resource record, deployment, export or checkpoint,
 * from the schema pass (one diagnostic per offending node, naming the property and the expected
 * type), and the urns Pulumi's loader and integrity check refuse (null, empty, or crashing it).
 */
import * as l10n from '@vscode/l10n';
import { schemaErrorMessage } from '../../json/jsoncTree';
import { typeName } from '../../json/words';
import { orList } from '../../text/lists';
import { pathKey } from '../model/locate';
import { isObject, type ResourceEntry } from '../model/structure';
import { resourceAnchor, type StateFinding } from '../passes/findings';
import { describePath, type ShapeError } from '../passes/schemaPass';
import type { StateRule, StateRuleContext } from './stateRule';

function check(context: StateRuleContext): StateFinding[] {
  const out = [...documentFindings(context), ...withoutRepeats(context.schema.shapeErrors.map(shapeErrorFinding))];
  for (const resource of context.structure.resources) {
    const finding = urnFinding(resource) ?? crashingUrnFinding(resource, context.integrity.parentIndices[resource.index]);
    if (finding) out.push(finding);
  }
  for (const resource of context.structure.pendingResources) {
    const finding = pendingUrnFinding(resource);
    if (finding) out.push(finding);
  }
  return out;
}

function documentFindings(context: StateRuleContext): StateFinding[] {
  const at = { path: [], part: 'head' as const };
  switch (context.schema.document) {
    case undefined:
      return [];
    case 'too-deep':
      return [{ code: 'schema', message: l10n.t('The document is nested too deeply to validate against the schema'), at }];
    case 'unrecognised-shape': {
      const root = context.structure.root;
      const message = isObject(root)
        ? l10n.t('Not a recognised state shape: expected a resource record (urn), a deployment (manifest, resources), an export (version, deployment) or a checkpoint (version, checkpoint)')
        : l10n.t('A state file must be a JSON object (a resource record, deployment, export or checkpoint), not {0}', root === null ? 'null' : Array.isArray(root) ? l10n.t('an array') : typeof root);
      return [{ code: 'schema', message, at }];
    }
  }
}

/** ajv can report one problem through several subschemas: each place and message is reported once. */
function withoutRepeats(findings: StateFinding[]): StateFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${pathKey(finding.at.path)}|${finding.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function shapeErrorFinding({ error, path, isRecord, actual }: ShapeError): StateFinding {
  switch (error.keyword) {
    case 'required': {
      const property = String((error.params as { missingProperty: string }).missingProperty);
      const index = path[path.length - 1];
      const message = !isRecord
        ? l10n.t('{0} is missing the required property "{1}"', describePath(path), property)
        : typeof index === 'number'
          ? l10n.t('Resource at index {0} is missing the required property "{1}"', index, property)
          : l10n.t('Resource is missing the required property "{0}"', property);
      return { code: 'schema', message, at: { path, part: 'name' }, data: { path, property } };
    }
    case 'type': {
      const message = l10n.t('{0} must be {1}, not {2}', describePath(path), expectedTypes((error.params as { type: unknown }).type), String(actual));
      return { code: 'schema', message, at: { path, part: 'value' }, data: { path } };
    }
    case 'false schema': {
      const last = path[path.length - 1];
      const message = last === 'features' ? l10n.t('{0} is only allowed with version 4 or later', '"features"') : l10n.t('{0} is not allowed here', describePath(path));
      return { code: 'schema', message, at: { path, part: 'key' }, data: { path } };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      const message = l10n.t('{0} must be one of {1}', describePath(path), allowed.map((v) => JSON.stringify(v)).join(', '));
      return { code: 'schema', message, at: { path, part: 'value' }, data: { path } };
    }
    default:
      return { code: 'schema', message: schemaErrorMessage(describePath(path), error.message), at: { path, part: 'value' }, data: { path } };
  }
}

function expectedTypes(type: unknown): string {
  // Null is accepted wherever Go reads it as empty; naming it in "must be an array or null" only distracts.
  const all = Array.isArray(type) ? type : [type];
  const list = all.length > 1 ? all.filter((t) => t !== 'null') : all;
  return orList(list.map((t) => typeName(String(t))));
}

/** VerifyIntegrity: "resource at index <i> missing required 'urn' field"; Go reads a null urn as "". */
function urnFinding(resource: ResourceEntry): StateFinding | undefined {
  const record = resource.value;
  if (!isObject(record)) return undefined;
  if (record.urn === null) {
    return {
      code: 'schema',
      message: l10n.t('Resource at index {0} is missing the required property "urn" (it is null)', resource.index),
      at: { path: [...resource.path, 'urn'], part: 'value' },
      data: { path: resource.path },
    };
  }
  if (resource.urn === '') return { code: 'schema', message: l10n.t('Resource at index {0} has an empty urn', resource.index), at: resourceAnchor(resource.path, true), data: { path: resource.path } };
  return undefined;
}

/**
 * VerifyIntegrity reads the type of a child's urn and of its parent's once the parent is found earlier
 * (`urn.Type()`, `QualifiedType()`), and those assert the "urn:pulumi:" prefix: Pulumi crashes on
 * anything else there. Elsewhere such a urn is only `invalid-urn` (Information).
 */
function crashingUrnFinding(resource: ResourceEntry, parentIndex: number): StateFinding | undefined {
  if (parentIndex < 0 || parentIndex >= resource.index || !resource.urn) return undefined;
  const record = resource.value as Record<string, unknown>;
  const parent = typeof record.parent === 'string' ? record.parent : '';
  const crashing = [resource.urn, parent].find((urn) => urn !== '' && !urn.startsWith('urn:pulumi:'));
  if (crashing === undefined) return undefined;
  return {
    code: 'schema',
    message: l10n.t('Pulumi crashes on "{0}" (an assertion in its integrity check): a child\'s urn and its parent\'s must start with "{1}"', crashing, 'urn:pulumi:'),
    at: resourceAnchor(resource.path, true),
    data: { path: resource.path },
  };
}

/** A pending operation's record goes through the same `DeserializeResource` as the resources, so it needs a urn too. */
function pendingUrnFinding(resource: ResourceEntry): StateFinding | undefined {
  const record = resource.value;
  if (!isObject(record) || (typeof record.urn === 'string' && record.urn !== '')) return undefined;
  return {
    code: 'schema',
    message: l10n.t('The pending operation\'s resource is missing the required property "urn" (Pulumi refuses the file)'),
    at: resourceAnchor(resource.path, false),
    data: { path: resource.path },
  };
}

export const schema: StateRule = {
  code: 'schema',
  doc: 'A value has the wrong shape for a resource record (wrong type, missing urn, …).',
  check,
};
