/** `unknown-subject`: a string that is not a quota subject Forgejo accepts; the closest subjects are suggested and offered as fixes. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, suggestSubjects } from '../subjects';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { suggestionFixes } from './suggestions';

/** The closest subjects are offered as alternatives: `"a"`, `"a" or "b"`, `"a" or "b" or "c"`. */
function notASubject(value: string, where: string, suggestions: string[]): string {
  const message = l10n.t('"{0}" in {1} is not a quota subject', value, where);
  const quoted = suggestions.map((s) => `"${s}"`);
  switch (quoted.length) {
    case 0:
      return message;
    case 1:
      return l10n.t('{0}. Did you mean {1}?', message, quoted[0]);
    case 2:
      return l10n.t('{0}. Did you mean {1} or {2}?', message, quoted[0], quoted[1]);
    default:
      return l10n.t('{0}. Did you mean {1} or {2} or {3}?', message, quoted[0], quoted[1], quoted[2]);
  }
}

export const unknownSubject: QuotaDiagnosticRule = {
  code: 'unknown-subject',
  doc: 'A string that is not a quota subject Forgejo accepts: Forgejo refuses the rule, or the usage is counted nowhere.',
  check: ofReading((reading) =>
    reading.subjects
      .filter(({ value }) => !canonicalSubject(value))
      .map(({ value, node, where }) => {
        const suggestions = suggestSubjects(value);
        return { code: 'unknown-subject', message: notASubject(value, where, suggestions), at: spanOf(node), data: { value, suggestions } };
      }),
  ),
  fix: (_analysis, request) => suggestionFixes(request, (subject) => l10n.t('Change to "{0}"', subject), true),
};
