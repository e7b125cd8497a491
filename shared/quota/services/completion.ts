/** Completion in quota files: subjects, rule names, group names and account names. */
import { CompletionItemKind, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import type { QuotaAnalysis } from '../config';
import { CANONICAL_SUBJECTS, LEAF_SUBJECTS, SUBJECT_DESCRIPTIONS, subjectAncestors } from '../subjects';
import { quotaContextAt } from './location';

function uniqueNames(analysis: QuotaAnalysis, kind: 'rule' | 'group' | 'account'): string[] {
  const names = analysis.names.occurrences.filter((o) => o.kind === kind && o.role === 'definition').map((o) => o.name);
  if (kind === 'account') names.push(...analysis.accountNames);
  return [...new Set(names)].filter((n) => n !== '');
}

export function quotaCompletion(analysis: QuotaAnalysis, offset: number): CompletionItem[] {
  const context = quotaContextAt(analysis, offset);
  if (context.kind !== 'subject' && context.kind !== 'name') return [];
  // Replace the whole string the cursor is in (quotes included), or insert a quoted value.
  const node = context.node;
  const range: Range = node ? analysis.lines.rangeOf(node) : analysis.lines.rangeOf({ offset, length: 0 });
  const item = (label: string, kind: CompletionItemKind, detail: string, documentation?: string, sortText?: string): CompletionItem => ({
    label,
    kind,
    detail,
    ...(documentation ? { documentation: { kind: MarkupKind.Markdown, value: documentation } } : {}),
    ...(sortText ? { sortText } : {}),
    textEdit: { range, newText: JSON.stringify(label) },
    filterText: JSON.stringify(label),
  });
  if (context.kind === 'subject') {
    const subjects = context.leafOnly ? LEAF_SUBJECTS : CANONICAL_SUBJECTS;
    return subjects.map((subject, i) => {
      const ancestors = subjectAncestors(subject);
      return item(
        subject,
        CompletionItemKind.EnumMember,
        SUBJECT_DESCRIPTIONS[subject],
        `${SUBJECT_DESCRIPTIONS[subject]}${ancestors.length ? `\n\nAncestors: ${ancestors.map((a) => `\`${a}\``).join(' → ')}` : ''}`,
        String(i).padStart(2, '0'),
      );
    });
  }
  if (context.role !== 'reference') return [];
  if (context.nameKind === 'rule') {
    return analysis.model.rules
      .filter((rule, i, all) => all.findIndex((r) => r.name === rule.name) === i)
      .map((rule) => item(rule.name, CompletionItemKind.Reference, `rule: ${rule.subjects.join(' + ') || 'no subject'}`));
  }
  if (context.nameKind === 'group') {
    return uniqueNames(analysis, 'group').map((name) => {
      const group = analysis.model.groups.find((g) => g.name === name);
      return item(name, CompletionItemKind.Module, `group: ${group?.rules.join(', ') || 'no rules'}`);
    });
  }
  if (context.nameKind === 'account') {
    return uniqueNames(analysis, 'account').map((name) => {
      const account = analysis.content.accounts.find((a) => a.name === name);
      return item(name, CompletionItemKind.Value, account ? `${account.type}${account.admin ? ', site admin' : ''}` : 'account');
    });
  }
  return [];
}
