/** `unknown-rule`: a group lists a rule the file does not define; the fixes change it to a close name or create the rule. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { appendTo } from './jsonEdits';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';
import { closest, definedNames, didYouMean, suggestionFixes } from './suggestions';

export const unknownRule: QuotaDiagnosticRule = {
  code: 'unknown-rule',
  doc: 'A group lists a rule that is not defined, usually a typo: the previews leave that limit out of the group.',
  check: ofReading((reading) => {
    const known = definedNames(reading, 'rule');
    const defined = new Set(known);
    return reading.ruleReferences
      .filter((ref) => ref.value !== '' && !defined.has(ref.value))
      .map((ref) => ({
        code: 'unknown-rule',
        message: didYouMean(
          ref.group !== undefined ? l10n.t('Group "{0}" refers to unknown rule "{1}"', ref.group, ref.value) : l10n.t('Group refers to unknown rule "{0}"', ref.value),
          ref.value,
          known,
        ),
        at: spanOf(ref.node),
        data: { name: ref.value, group: ref.group, suggestions: closest(ref.value, known) },
      }));
  }),
  fix: (analysis, request) => {
    const { name } = request.data as { name?: string };
    const fixes = suggestionFixes(request, (rule) => l10n.t('Change to rule "{0}"', rule));
    // jsonc-parser, which writes an empty or missing array, re-reads content the analysis refused to read.
    if (name && !analysis.nestingLimited) fixes.push({ title: l10n.t('Create rule "{0}"', name), edits: appendTo(analysis, 'rules', { name, limit: -1, subjects: ['size:all'] }), preferred: false });
    return fixes;
  },
};
