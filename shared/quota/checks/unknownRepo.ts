/** Attachments, packages and artifacts name only repositories (`owner/name`) the file defines. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';
import { closest, definedNames, didYouMean } from './suggest';

export const unknownRepos: QuotaCheck = (reading) => {
  const known = definedNames(reading, 'repo');
  const defined = new Set(known);
  return reading.repoReferences
    .filter((ref) => !defined.has(ref.value) && ref.value.includes('/'))
    .map((ref) => ({
      code: 'unknown-repo',
      message: didYouMean(l10n.t('{0} names unknown repo "{1}"', ref.where, ref.value), ref.value, known),
      at: spanOf(ref.node),
      data: { name: ref.value, suggestions: closest(ref.value, known) },
    }));
};
