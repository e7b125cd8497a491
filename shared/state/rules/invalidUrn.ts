/** `invalid-urn`: a urn not of the form `urn:pulumi:<stack>::<project>::<type>::<name>` (the integrity index parses each urn once). */
import * as l10n from '@vscode/l10n';
import { isObject } from '../model/structure';
import { resourceAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    const urn = resource.urn;
    // An empty urn is a `schema` error instead.
    if (!urn || !isObject(resource.value) || integrity.parsedUrns[resource.index]) continue;
    out.push({
      code: 'invalid-urn',
      message: l10n.t('"{0}" is not a urn of the form {1}', urn, 'urn:pulumi:<stack>::<project>::<type>::<name>'),
      at: resourceAnchor(resource.path, true),
      data: { urn },
    });
  }
  return out;
}

export const invalidUrn: StateRule = {
  code: 'invalid-urn',
  doc: 'A urn is not of the form `urn:pulumi:<stack>::<project>::<type>::<name>`.',
  check,
};
