/** `legacy-property`: one summary per file of the fields older Pulumi engines wrote and Pulumi now ignores. */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import { pathKey, type LocatedNode } from '../model/locate';
import type { StateSnapshot } from '../model/snapshot';
import { isObject } from '../model/structure';
import { occurrencesOf, tallyCounts, tallyList } from '../passes/fields';
import type { StateFinding } from '../passes/findings';
import { removalEdit } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check(context: StateRuleContext): StateFinding[] {
  if (context.mode !== 'pulumi') return [];
  const tally = context.fields.legacy;
  if (!tally.first) return [];
  return [
    {
      code: 'legacy-property',
      message: l10n.t('Fields older Pulumi engines wrote and Pulumi now ignores: {0}', tallyList(tally)),
      at: { path: tally.first, part: 'key' },
      data: { path: tally.first, fields: tallyCounts(tally) },
    },
  ];
}

/** One fix per legacy field, removing every occurrence (the diagnostic sums them up once per file). */
function removeLegacyPropertyFixes(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const fixes: Fix[] = [];
  const fields = isObject(data.fields) ? Object.keys(data.fields) : [];
  for (const field of fields) {
    const paths = occurrencesOf(analysis.structure, field);
    const nodes = analysis.locator.locateAll(paths);
    const edits = paths
      .map((p) => nodes.get(pathKey(p)))
      .filter((n): n is LocatedNode => n !== undefined)
      .map((n) => removalEdit(analysis.text, n));
    if (edits.length) {
      fixes.push({
        title: edits.length === 1 ? l10n.t('Remove the legacy property "{0}" (1 occurrence)', field) : l10n.t('Remove the legacy property "{0}" ({1} occurrences)', field, edits.length),
        edits,
        preferred: fields.length === 1,
      });
    }
  }
  return fixes;
}

export const legacyProperty: StateRule = {
  code: 'legacy-property',
  doc: 'Fields older Pulumi engines wrote and Pulumi now ignores (sequenceNumber, version-1 target/time/defaults); one summary per file.',
  check,
  fix: removeLegacyPropertyFixes,
};
