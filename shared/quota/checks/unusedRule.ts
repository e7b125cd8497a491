/** A rule no group lists is never applied (reported once, on its first definition). */
import * as l10n from '@vscode/l10n';
import type { QuotaCheck } from './finding';

export const unusedRules: QuotaCheck = (reading) => {
  const used = new Set(reading.ruleReferences.map((ref) => ref.value));
  const first = new Map(reading.definitions.filter((d) => d.kind === 'rule' && !d.first).map((d) => [d.name, d.node.offset]));
  return reading.result.ruleLayout
    .filter((layout) => !used.has(layout.rule.name) && layout.nameSpan && first.get(layout.rule.name) === layout.nameSpan.offset)
    .map((layout) => ({
      code: 'unused-rule',
      message: l10n.t('Rule "{0}" is not used by any group', layout.rule.name),
      at: layout.nameSpan!,
      tags: ['unnecessary' as const],
      data: { name: layout.rule.name },
    }));
};
