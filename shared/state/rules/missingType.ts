/** `missing-type`: a resource, or a pending operation's resource, without a type (import requires one; Pulumi refuses a pending one). */
import * as l10n from '@vscode/l10n';
import { isObject } from '../model/structure';
import { resourceAnchor, resourceLabel, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    if (!isObject(resource.value) || (resource.type !== undefined && resource.type !== '')) continue;
    out.push({
      code: 'missing-type',
      message: l10n.t('Resource {0} has no "type" (import requires it)', resourceLabel(resource)),
      at: resourceAnchor(resource.path, resource.urn !== undefined),
      data: { path: resource.path },
    });
  }
  // A pending operation's record goes through the same `DeserializeResource` (pkg/resource/stack/deployment.go `DeserializeOperation`).
  for (const resource of structure.pendingResources) {
    if (!isObject(resource.value) || (resource.type !== undefined && resource.type !== '')) continue;
    out.push({
      code: 'missing-type',
      message: l10n.t('Pending operation resource {0} has no "type" (Pulumi refuses the file)', resource.urn || l10n.t('in a pending operation')),
      at: resourceAnchor(resource.path, resource.urn !== undefined),
      data: { path: resource.path },
    });
  }
  return out;
}

export const missingType: StateRule = {
  code: 'missing-type',
  doc: 'A resource has no type (import requires it).',
  check,
};
