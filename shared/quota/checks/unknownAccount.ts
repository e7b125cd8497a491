/** Instance content names only accounts the file defines (assignments and usage only when it defines some). */
import * as l10n from '@vscode/l10n';
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
      message: didYouMean(l10n.t('{0} names unknown account "{1}"', ref.where, ref.value), ref.value, known),
      at: spanOf(ref.node),
      data: { name: ref.value, suggestions: closest(ref.value, known) },
    }));
};
