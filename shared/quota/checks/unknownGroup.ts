/** Default groups and assignments name only groups the file defines. */
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';
import { closest, definedNames, didYouMean } from './suggest';

export const unknownGroups: QuotaCheck = (reading) => {
  const known = definedNames(reading, 'group');
  const defined = new Set(known);
  return reading.groupReferences
    .filter((ref) => ref.value !== '' && !defined.has(ref.value))
    .map((ref) => ({
      code: 'unknown-group',
      message: `${ref.where} names unknown group "${ref.value}"${didYouMean(ref.value, known)}`,
      at: spanOf(ref.node),
      data: { name: ref.value, suggestions: closest(ref.value, known) },
    }));
};
