/**
 * `parent-urn-mismatch`: a urn whose qualified type does not match its parent's, as VerifyIntegrity
 * (pkg/resource/deploy/snapshot.go) builds it: from the parent *urn*'s qualified type, where only a
 * parent whose qualified type is the root stack type drops the prefix. Pulumi only logs this, hence
 * Information.
 */
import * as l10n from '@vscode/l10n';
import { isObject } from '../model/structure';
import { ROOT_STACK_TYPE } from '../model/urn';
import { definitionAnchor, resourceAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  if (integrity.isolated) return [];
  const resources = structure.resources;
  const out: StateFinding[] = [];
  for (const resource of resources) {
    const record = resource.value;
    const parentIndex = integrity.parentIndices[resource.index];
    if (parentIndex === -1 || !isObject(record) || !resource.urn || !resource.type) continue;
    const child = integrity.parsedUrns[resource.index];
    // The parent's urn is record.parent itself, so its parse is the parent resource's.
    const parent = integrity.parsedUrns[parentIndex];
    if (!child || !parent) continue;
    const underStack = parent.qualifiedType === ROOT_STACK_TYPE;
    if (underStack ? child.qualifiedType === resource.type : isQualifiedBy(child.qualifiedType, parent.qualifiedType, resource.type)) continue;
    const expected = underStack ? resource.type : `${parent.qualifiedType}$${resource.type}`;
    out.push({
      code: 'parent-urn-mismatch',
      message: l10n.t('The urn\'s qualified type "{0}" does not match its parent {1}: expected "{2}"', child.qualifiedType, String(record.parent), expected),
      at: resourceAnchor(resource.path, true),
      related: [{ at: definitionAnchor(resources, parentIndex), message: l10n.t('Parent defined here') }],
      data: { path: resource.path, expected },
    });
  }
  return out;
}

/** Whether `qualified` is `parent + '$' + type`, without building that string for every resource. */
function isQualifiedBy(qualified: string, parent: string, type: string): boolean {
  return qualified.length === parent.length + 1 + type.length && qualified.charCodeAt(parent.length) === 36 /* $ */ && qualified.startsWith(parent) && qualified.endsWith(type);
}

export const parentUrnMismatch: StateRule = {
  code: 'parent-urn-mismatch',
  doc: "A urn's qualified type does not match its parent's (Pulumi only logs this).",
  check,
};
