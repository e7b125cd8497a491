/** `unknown-group`: default groups or an assignment name a group the file does not define; the fixes change it to a close name or create the group. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { appendTo } from './jsonEdits';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { closest, definedNames, didYouMean, suggestionFixes } from './suggestions';

export const unknownGroup: QuotaDiagnosticRule = {
  code: 'unknown-group',
  doc: 'Default groups or an assignment name a group that is not defined, usually a typo: the accounts it should cover get none of its limits.',
  check: ofReading((reading) => {
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
  }),
  fix: (analysis, request) => {
    const { name } = request.data as { name?: string };
    const fixes = suggestionFixes(request, (group) => l10n.t('Change to group "{0}"', group));
    // jsonc-parser, which writes an empty or missing array, re-reads content the analysis refused to read.
    if (name && !analysis.nestingLimited) fixes.push({ title: l10n.t('Create group "{0}"', name), edits: appendTo(analysis, 'groups', { name, rules: [] }), preferred: false });
    return fixes;
  },
};
