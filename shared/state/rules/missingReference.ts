/** `missing-reference`: a parent, dependency, property dependency, deletedWith or replaceWith urn no resource of the file has (from the integrity index). */
import * as l10n from '@vscode/l10n';
import { referenceData, referenceLabel, resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import { removeReferenceFix } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  return integrity.unresolvedReferences
    .filter((reference) => reference.resolution === 'missing')
    .map(({ site }) => ({
      code: 'missing-reference',
      message: l10n.t("Resource {0}'s {1} {2} is not in this file", resourceLabel(structure.resources[site.from]), referenceLabel(site), site.target),
      at: valueAnchor(site.path),
      data: referenceData(site),
    }));
}

export const missingReference: StateRule = {
  code: 'missing-reference',
  doc: 'A parent, dependency, property dependency, deletedWith or replaceWith urn that is not in the file.',
  check,
  fix: removeReferenceFix,
};
