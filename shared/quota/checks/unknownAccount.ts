/** Instance content names only accounts the file defines (assignments and usage only when it defines some). */
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';
import { closest, definedNames, didYouMean } from './suggest';

export const unknownAccounts: QuotaCheck = (reading) => {
  const known = definedNames(reading, 'account');
  const defined = new Set(known);
  return reading.accountReferences
    .filter((ref) => ref.checked && !defined.has(ref.value))
    .map((ref) => ({
      code: 'unknown-account',
      message: `${ref.where} names unknown account "${ref.value}"${didYouMean(ref.value, known)}`,
      at: spanOf(ref.node),
      data: { name: ref.value, suggestions: closest(ref.value, known) },
    }));
};
