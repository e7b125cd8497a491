/** `unused-rule`: a rule no group lists is never applied (reported once, on its first definition); the fix removes it. */
import * as l10n from '@vscode/l10n';
import { propertyValueNode } from '../../json/jsoncTree';
import type { QuotaAnalysis } from '../analysis';
import { removeFrom } from './jsonEdits';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';

/** The rule's position in the `rules` array, found by its name node's value (the model skips nameless rules); undefined when it cannot be removed safely. */
function rulePosition(analysis: QuotaAnalysis, name: string | undefined): number | undefined {
  const index = analysis.model.rules.findIndex((r) => r.name === name);
  const rulesNode = analysis.root ? propertyValueNode(analysis.root, 'rules') : undefined;
  const position = rulesNode?.children?.findIndex((child) => propertyValueNode(child, 'name')?.value === name);
  return index === -1 || position === undefined || position < 0 || analysis.nestingLimited ? undefined : position;
}

export const unusedRule: QuotaDiagnosticRule = {
  code: 'unused-rule',
  doc: 'A rule no group uses is never applied: it limits nothing until a group lists it.',
  check: ofReading((reading) => {
    const used = new Set(reading.ruleReferences.map((ref) => ref.value));
    const first = new Map(reading.definitions.filter((d) => d.kind === 'rule' && !d.first).map((d) => [d.name, d.node.offset]));
    return reading.result.ruleLayout
      .filter((layout) => !used.has(layout.rule.name) && layout.nameSpan && first.get(layout.rule.name) === layout.nameSpan.offset)
      .map((layout) => ({
        code: 'unused-rule',
        message: l10n.t('Rule "{0}" is not used by any group', layout.rule.name),
        at: layout.nameSpan!,
        tags: ['unnecessary' as const],
        data: { name: layout.rule.name },
      }));
  }),
  fix: (analysis, request) => {
    const { name } = request.data as { name?: string };
    const position = rulePosition(analysis, name);
    if (position === undefined) return [];
    return [{ title: l10n.t('Remove unused rule "{0}"', String(name)), edits: removeFrom(analysis, 'rules', position), preferred: false }];
  },
};
