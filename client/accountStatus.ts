/**
 * The status bar's words for the signed-in account, from its explanation: `✓ alice`, or
 * `✗ bob size:repos:all` naming the subjects of the first failing rule. Pure (no `vscode` at run
 * time); the caller passes `vscode.l10n`.
 */
import type * as vscode from 'vscode';
import type { AccountExplanation } from '../shared/quota/vocabulary';

export interface AccountStatus {
  within: boolean;
  text: string;
  tooltip: string;
  /** For screen readers. */
  label: string;
}

export function accountStatus(explanation: AccountExplanation, server: string, l10n: Pick<typeof vscode.l10n, 't'>): AccountStatus {
  const { account, within } = explanation;
  const subject = explanation.failing?.rule.subjects.join(', ') || undefined;
  if (within) {
    return {
      within,
      text: l10n.t('$(account) {0} ✓', account),
      tooltip: l10n.t('{0} on {1}: within quota. Click for the quota dashboard.', account, server),
      label: l10n.t('Quota: {0}, {1}', account, l10n.t('within quota')),
    };
  }
  return {
    within,
    text: l10n.t('$(account) {0} ✗ {1}', account, subject ?? '').trimEnd(),
    tooltip: subject
      ? l10n.t('{0} on {1}: over quota for {2}. Click for the quota dashboard.', account, server, subject)
      : l10n.t('{0} on {1}: over quota. Click for the quota dashboard.', account, server),
    label: l10n.t('Quota: {0}, {1}', account, subject ? l10n.t('over quota for {0}', subject) : l10n.t('over quota')),
  };
}
