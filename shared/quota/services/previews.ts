/**
 * Evaluation previews inside a quota file: per account with preview usage
 * (the `usage` section, usage computed from instance content, or the signed-in user's live
 * usage), an inlay hint at each rule's limit and a code lens on each group. They render the
 * accounts' explanations (../explain.ts), as the hovers do.
 */
import * as l10n from '@vscode/l10n';
import type { Range } from '../../diagnostics';
import type { InlayHintEntry, Lens } from '../../features';
import type { QuotaAnalysis } from '../config';
import type { AccountExplanation, RuleExplanation } from '../explain';
import { explainFile, type ReportOptions } from '../report';
import { formatSize } from '../sizes';
import { compactFigure, ruleFigure } from './describe';

export interface PreviewAccount {
  explanation: AccountExplanation;
  source: 'usage' | 'content' | 'live';
  /** The quota API the live usage came from. */
  server?: string;
}

/** Accounts that have preview usage, explained; the live account (if any) last and marked. */
export function previewAccounts(analysis: QuotaAnalysis, live?: ReportOptions['live'], forgejo?: ReportOptions['forgejo']): PreviewAccount[] {
  const names = [...analysis.usage.keys()].filter((name) => name !== live?.account);
  if (live) names.push(live.account);
  if (names.length === 0) return [];
  return explainFile({ ...analysis, accountNames: names }, { live, forgejo }).accounts.map(({ live: from, ...explanation }) =>
    from ? { explanation, source: 'live', server: from.server } : { explanation, source: analysis.usageSource.get(explanation.account) ?? 'usage' },
  );
}

function accountLabel(account: PreviewAccount): string {
  return account.source === 'live' ? l10n.t('{0} (live)', account.explanation.account) : account.explanation.account;
}

function within(range: Range | undefined, line: number): boolean {
  return !range || (line >= range.start.line && line <= range.end.line);
}

/** What an inlay hint says in full: the account's usage of the rule, its limit and the verdict. */
function hintTooltip(account: PreviewAccount, verdict: RuleExplanation): string {
  const args = [account.explanation.account, String(verdict.used), formatSize(verdict.used), verdict.name, formatSize(verdict.limit)];
  const sentence = verdict.stands
    ? l10n.t('{0} uses {1} bytes ({2}) of rule "{3}" whose limit is {4}: the rule stands', ...args)
    : l10n.t('{0} uses {1} bytes ({2}) of rule "{3}" whose limit is {4}: the rule fails', ...args);
  return account.source === 'live' ? l10n.t('{0} (live usage from {1})', sentence, String(account.server)) : sentence;
}

/** One hint per account whose group list contains the rule, placed after the rule's limit. */
export function previewInlayHints(analysis: QuotaAnalysis, accounts: PreviewAccount[], range?: Range): InlayHintEntry[] {
  const hints: InlayHintEntry[] = [];
  for (const layout of analysis.ruleLayout) {
    if (!layout.limitSpan || !layout.limitValid) continue;
    const position = analysis.lines.positionAt(layout.limitSpan.offset + layout.limitSpan.length);
    if (!within(range, position.line)) continue;
    for (const account of accounts) {
      const verdict = account.explanation.groups.flatMap((g) => g.rules).find((r) => r.name === layout.rule.name);
      if (!verdict) continue;
      hints.push({
        position,
        // Verdict first and compact: VS Code cuts long hints, and the check or cross mark is what matters.
        label: `${verdict.stands ? '✓' : '✗'} ${accountLabel(account)} ${compactFigure(verdict)}`,
        kind: 'parameter',
        paddingLeft: true,
        tooltip: hintTooltip(account, verdict),
      });
    }
  }
  return hints;
}

/** A lens on each group: the accounts it stands for, and for the others the first failing rule. */
export function previewCodeLenses(analysis: QuotaAnalysis, accounts: PreviewAccount[]): Lens[] {
  const lenses: Lens[] = [];
  for (const layout of analysis.groupLayout) {
    const span = layout.nameSpan ?? layout.node;
    const range = analysis.lines.rangeOf(span);
    const standsFor: string[] = [];
    const failsFor: string[] = [];
    for (const account of accounts) {
      const group = account.explanation.groups.find((g) => g.name === layout.group.name && !g.builtin);
      if (!group) continue;
      if (group.stands) standsFor.push(accountLabel(account));
      else {
        const failing = group.rules.find((r) => !r.stands)!;
        failsFor.push(`${accountLabel(account)} (${failing.name}: ${ruleFigure(failing)})`);
      }
    }
    const parts: string[] = [];
    if (standsFor.length) parts.push(l10n.t('✓ stands for {0}', standsFor.join(', ')));
    if (failsFor.length) parts.push(l10n.t('✗ fails for {0}', failsFor.join(', ')));
    if (parts.length === 0) parts.push(accounts.length ? l10n.t('no previewed account is in this group') : l10n.t('no account has preview usage'));
    lenses.push({ range, command: { title: parts.join(' · '), command: '' } });
  }
  return lenses;
}
