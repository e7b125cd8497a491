/** Default groups and assignments name only groups the file defines. */
import * as l10n from '@vscode/l10n';
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
      message: didYouMean(l10n.t('{0} names unknown group "{1}"', ref.where, ref.value), ref.value, known),
      at: spanOf(ref.node),
      data: { name: ref.value, suggestions: closest(ref.value, known) },
    }));
};
