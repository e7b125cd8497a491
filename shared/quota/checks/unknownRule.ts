/** A group lists only rules the file defines. */
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
      message: `Group${ref.group !== undefined ? ` "${ref.group}"` : ''} refers to unknown rule "${ref.value}"${didYouMean(ref.value, known)}`,
      at: spanOf(ref.node),
      data: { name: ref.value, group: ref.group, suggestions: closest(ref.value, known) },
    }));
};
