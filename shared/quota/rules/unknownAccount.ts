/** `unknown-account`: instance content names an account the file does not define (assignments and usage only when it defines some). */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { changeToSuggestedName, closest, definedNames, didYouMean } from './suggestions';

export const unknownAccount: QuotaDiagnosticRule = {
  code: 'unknown-account',
  doc: 'Instance content names an account that is not defined, usually a typo, so what it describes belongs to no account of the file.',
  check: ofReading((reading) => {
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
  }),
  fix: changeToSuggestedName,
};
