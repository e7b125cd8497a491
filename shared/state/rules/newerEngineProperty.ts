/** `newer-engine-property`: one summary per file of the fields Pulumi declares beyond the seed's v3 schema. */
import * as l10n from '@vscode/l10n';
import { tallyCounts, tallyList } from '../passes/fields';
import type { StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check(context: StateRuleContext): StateFinding[] {
  // In seed-v3 mode these fields are `unknown-property` errors instead.
  if (context.mode !== 'pulumi') return [];
  const tally = context.fields.newer;
  if (!tally.first) return [];
  return [
    {
      code: 'newer-engine-property',
      message: l10n.t(
        "Fields Pulumi declares but the seed's v3 record schema lacks: {0}. Pulumi reads them; set {1} to {2} to enforce the seed schema",
        tallyList(tally),
        '"quotaState.state.schema"',
        '"seed-v3"',
      ),
      at: { path: tally.first, part: 'key' },
      data: { path: tally.first, fields: tallyCounts(tally) },
    },
  ];
}

export const newerEngineProperty: StateRule = {
  code: 'newer-engine-property',
  doc: "Fields Pulumi's records declare but the seed's version-3 schema lacks; one summary per file with the fields and their counts.",
  check,
};
