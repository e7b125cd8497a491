/** `empty-subjects`: a rule with no subjects applies to nothing. */
import * as l10n from '@vscode/l10n';
import { headSpan, spanOf } from '../../json/jsoncTree';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const emptySubjects: QuotaDiagnosticRule = {
  code: 'empty-subjects',
  doc: 'A rule with no subjects applies to nothing, so its limit never counts.',
  check: ofReading((reading) =>
    reading.rules
      .filter(({ subjects, subjectsNode }) => subjects.length === 0 && (!subjectsNode || subjectsNode.type === 'array'))
      .map(({ name, node, subjectsNode }) => ({
        code: 'empty-subjects',
        message: name ? l10n.t('Rule "{0}" has no subjects, so it applies to nothing', name.value) : l10n.t('Rule has no subjects, so it applies to nothing'),
        at: subjectsNode ? spanOf(subjectsNode) : name ? spanOf(name.node) : headSpan(node),
        data: { name: name?.value },
      })),
  ),
};
