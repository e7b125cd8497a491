/** Document symbols for quota files: rules, groups (with their rules) and accounts. */
import * as l10n from '@vscode/l10n';
import type { OutlineSymbol } from '../../features';
import type { QuotaAnalysis } from '../config';
import { formatSize } from '../sizes';

/** `1 GiB on size:all`: a rule's limit and subjects. */
function ruleDetail(limit: string, subjects: string): string {
  return subjects ? l10n.t('{0} on {1}', limit, subjects) : l10n.t('{0} on nothing', limit);
}

export function quotaDocumentSymbols(analysis: QuotaAnalysis): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const container = (name: string, children: OutlineSymbol[]) => {
    if (children.length === 0) return;
    const first = children[0].range.start;
    const last = children[children.length - 1].range.end;
    symbols.push({ name, kind: 'namespace', range: { start: first, end: last }, selectionRange: { start: first, end: first }, children });
  };
  container(
    'rules',
    analysis.ruleLayout.map((layout) => ({
      name: layout.rule.name,
      detail: ruleDetail(layout.limitValid ? formatSize(layout.rule.limit) : l10n.t('no valid limit'), layout.rule.subjects.join(' + ')),
      kind: 'constant',
      range: analysis.lines.rangeOf(layout.node),
      selectionRange: analysis.lines.rangeOf(layout.nameSpan ?? layout.node),
    })),
  );
  container(
    'groups',
    analysis.groupLayout.map((layout) => ({
      name: layout.group.name,
      detail: layout.group.rules.join(', '),
      kind: 'class',
      range: analysis.lines.rangeOf(layout.node),
      selectionRange: analysis.lines.rangeOf(layout.nameSpan ?? layout.node),
    })),
  );
  container(
    'accounts',
    analysis.names.occurrences
      .filter((o) => o.kind === 'account' && o.role === 'definition')
      .map((o) => ({
        name: o.name,
        detail: analysis.content.accounts.find((a) => a.name === o.name)?.type ?? l10n.t('account'),
        kind: 'object',
        range: analysis.lines.rangeOf(o.span),
        selectionRange: analysis.lines.rangeOf(o.span),
      })),
  );
  return symbols;
}
