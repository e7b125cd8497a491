/** `unknown-repo`: an attachment, package or artifact names a repository (`owner/name`) the file does not define. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { changeToSuggestedName, closest, definedNames, didYouMean } from './suggestions';

export const unknownRepo: QuotaDiagnosticRule = {
  code: 'unknown-repo',
  doc: "An attachment, package or artifact names a repository that is not defined, usually a typo: the previews charge whichever account the name's owner part says.",
  check: ofReading((reading) => {
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
  }),
  fix: changeToSuggestedName,
};
