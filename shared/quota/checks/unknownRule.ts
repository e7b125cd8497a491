/** A group lists only rules the file defines. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';
import { closest, definedNames, didYouMean } from './suggest';

export const unknownRules: QuotaCheck = (reading) => {
  const known = definedNames(reading, 'rule');
  const defined = new Set(known);
  return reading.ruleReferences
    .filter((ref) => ref.value !== '' && !defined.has(ref.value))
    .map((ref) => ({
      code: 'unknown-rule',
      message: didYouMean(
        ref.group !== undefined ? l10n.t('Group "{0}" refers to unknown rule "{1}"', ref.group, ref.value) : l10n.t('Group refers to unknown rule "{0}"', ref.value),
        ref.value,
        known,
      ),
      at: spanOf(ref.node),
      data: { name: ref.value, group: ref.group, suggestions: closest(ref.value, known) },
    }));
};
