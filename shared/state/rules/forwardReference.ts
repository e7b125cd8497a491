/** `forward-reference`: a reference to a resource that comes later in the file, which import refuses (from the integrity index). */
import * as l10n from '@vscode/l10n';
import { definitionAnchor, referenceData, referenceLabel, resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import { reorderFix } from '../passes/reorder';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  const resources = structure.resources;
  const out: StateFinding[] = [];
  for (const { site, copies, resolution } of integrity.unresolvedReferences) {
    if (resolution !== 'forward' || !copies) continue;
    const later = copies.find((i) => i > site.from) ?? copies[0];
    out.push({
      code: 'forward-reference',
      message: l10n.t("Resource {0}'s {1} {2} comes after it (at index {3}); import requires it to come first", resourceLabel(resources[site.from]), referenceLabel(site), site.target, later),
      at: valueAnchor(site.path),
      related: [{ at: definitionAnchor(resources, later), message: l10n.t('{0} is defined here', site.target) }],
      data: referenceData(site),
    });
  }
  return out;
}

export const forwardReference: StateRule = {
  code: 'forward-reference',
  doc: 'A referenced resource appears later in the file (import refuses this).',
  check,
  fix: reorderFix,
};
