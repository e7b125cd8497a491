/** `component-with-id`: a component resource (`custom` false), or a pending operation's one, with a non-empty id. */
import * as l10n from '@vscode/l10n';
import { isObject, type ResourceEntry } from '../model/structure';
import { resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

/** The id of a record that is not custom, when it has a non-empty one. */
function componentId(resource: ResourceEntry): string | undefined {
  const record = resource.value;
  return isObject(record) && record.custom !== true && typeof record.id === 'string' && record.id !== '' ? record.id : undefined;
}

function check({ structure }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    const id = componentId(resource);
    if (id === undefined) continue;
    const path = [...resource.path, 'id'];
    out.push({ code: 'component-with-id', message: l10n.t('Resource {0} has "custom" false but a non-empty id "{1}"', resourceLabel(resource), id), at: valueAnchor(path), data: { path } });
  }
  // A pending operation's record goes through the same `DeserializeResource` (pkg/resource/stack/deployment.go `DeserializeOperation`).
  for (const resource of structure.pendingResources) {
    const id = componentId(resource);
    if (id === undefined) continue;
    const path = [...resource.path, 'id'];
    const name = resource.urn || l10n.t('in a pending operation');
    out.push({ code: 'component-with-id', message: l10n.t('Pending operation resource {0} has "custom" false but a non-empty id "{1}"', name, id), at: valueAnchor(path), data: { path } });
  }
  return out;
}

export const componentWithId: StateRule = {
  code: 'component-with-id',
  doc: 'A component resource (custom false) has an id.',
  check,
};
