/** `self-reference`: a resource names itself as its parent, a dependency, deletedWith or replaceWith (from the integrity index). */
import * as l10n from '@vscode/l10n';
import { referenceData, referenceLabel, resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import { removeReferenceFix } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  return integrity.unresolvedReferences
    .filter((reference) => reference.resolution === 'self')
    .map(({ site }) => ({
      code: 'self-reference',
      message: l10n.t('Resource {0} lists itself as its {1}', resourceLabel(structure.resources[site.from]), referenceLabel(site)),
      at: valueAnchor(site.path),
      data: referenceData(site),
    }));
}

export const selfReference: StateRule = {
  code: 'self-reference',
  doc: 'A resource references itself.',
  check,
  fix: removeReferenceFix,
};
