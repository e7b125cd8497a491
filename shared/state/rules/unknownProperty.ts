/**
 * `unknown-property`: a member the schema does not declare, from the schema pass. Pulumi's loader
 * ignores it (pulumi mode: a warning); the seed's v3 schema refuses it (seed-v3 mode: an error).
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSchemaMode } from '../codes';
import { pathKey, type JsonPath } from '../model/locate';
import type { StateSnapshot } from '../model/snapshot';
import { closestName, DECLARED_RECORD_FIELDS, fieldWriter, SEED_RECORD_FIELDS } from '../passes/fields';
import type { StateFinding } from '../passes/findings';
import { located, removalEdit } from '../passes/fixes';
import type { UndeclaredMember } from '../passes/schemaPass';
import type { StateRule, StateRuleContext } from './stateRule';

function check(context: StateRuleContext): StateFinding[] {
  const seen = new Set<string>();
  const out: StateFinding[] = [];
  for (const member of context.schema.undeclaredMembers) {
    const finding = undeclaredMemberFinding(member, context.mode);
    // ajv can report one member through several subschemas.
    const key = `${pathKey(finding.at.path)}|${finding.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(finding);
  }
  return out;
}

function undeclaredMemberFinding({ container: path, property, isRecord }: UndeclaredMember, mode: StateSchemaMode): StateFinding {
  const suggestion = isRecord ? closestName(property, mode === 'pulumi' ? DECLARED_RECORD_FIELDS : [...SEED_RECORD_FIELDS]) : undefined;
  const container = containerLabel(path, isRecord);
  // Pulumi's loader decodes with Go's encoding/json, which skips members a struct does not
  // declare (sdk/go/common/apitype/core.go): in pulumi mode an unknown member is ignored, not refused.
  const writer = mode === 'seed-v3' && isRecord ? fieldWriter(property) : undefined;
  const message =
    mode === 'pulumi'
      ? l10n.t('Property "{0}" is not part of {1}: Pulumi ignores this property', property, container)
      : writer
        ? l10n.t('Property "{0}" is not allowed in {1} (the seed\'s v3 schema lacks it; written by {2})', property, container, writer)
        : l10n.t('Property "{0}" is not allowed in {1}', property, container);
  return {
    code: 'unknown-property',
    message: suggestion ? l10n.t('{0}. Did you mean "{1}"?', message, suggestion) : message,
    at: { path: [...path, property], part: 'key' },
    data: { path: [...path, property], property, ...(suggestion ? { suggestion } : {}) },
  };
}

/** What kind of object holds a property, for "not allowed in a …" messages. */
function containerLabel(path: JsonPath, isRecord: boolean): string {
  if (isRecord) return l10n.t('a resource record');
  const last = path[path.length - 1];
  if (last === 'manifest') return l10n.t('the manifest');
  if (last === 'deployment' || last === 'latest' || path.length === 0) return path.length === 0 ? l10n.t('this document') : l10n.t('the deployment');
  if (last === 'checkpoint') return l10n.t('the checkpoint');
  return typeof last === 'string' ? `"${last}"` : l10n.t('this object');
}

/** Rename to the declared field it resembles (preferred when there is one), or remove it. */
function unknownPropertyFixes(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node) return [];
  const fixes: Fix[] = [];
  const suggestion = typeof data.suggestion === 'string' ? data.suggestion : undefined;
  if (suggestion && node.key) {
    fixes.push({ title: l10n.t('Rename to "{0}"', suggestion), edits: [{ offset: node.key.offset, length: node.key.length, newText: JSON.stringify(suggestion) }], preferred: true });
  }
  fixes.push({ title: l10n.t('Remove property "{0}"', String(data.property)), edits: [removalEdit(analysis.text, node)], preferred: !suggestion });
  return fixes;
}

export const unknownProperty: StateRule = {
  code: 'unknown-property',
  doc: 'A property Pulumi neither declares nor ever wrote (Pulumi ignores it); in seed-v3 mode, any property outside the seed schema.',
  check,
  fix: unknownPropertyFixes,
};
