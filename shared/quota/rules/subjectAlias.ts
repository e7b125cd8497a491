/** `subject-alias`: a seed spelling of a subject that real Forgejo servers reject; the canonical spelling is offered. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, isSubjectAlias } from '../subjects';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { replaceString } from './suggestions';

export const subjectAlias: QuotaDiagnosticRule = {
  code: 'subject-alias',
  doc: 'A seed spelling of a subject that real Forgejo servers reject; use the canonical one so the file works on both.',
  check: ofReading((reading) =>
    reading.subjects
      .filter(({ value }) => canonicalSubject(value) && isSubjectAlias(value))
      .map(({ value, node }) => {
        const canonical = canonicalSubject(value)!;
        return {
          code: 'subject-alias',
          message: l10n.t('"{0}" is the seed\'s spelling of "{1}"; real Forgejo servers accept only "{1}"', value, canonical),
          at: spanOf(node),
          data: { value, canonical },
        };
      }),
  ),
  fix: (_analysis, request) => {
    const { canonical } = request.data as { canonical?: string };
    return canonical ? [{ title: l10n.t('Use the canonical spelling "{0}"', canonical), edits: replaceString(request, canonical), preferred: true }] : [];
  },
};
