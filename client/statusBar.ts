/**
 * The status bar item: the signed-in account and its verdict (`✓ alice`, or `✗ bob size:repos:all`
 * naming the subjects of the failing rule). It opens the dashboard; it is hidden when nobody is
 * signed in or no server is configured.
 */
import * as vscode from 'vscode';
import type { LiveUsageParams } from '../shared/protocol';
import { accountVerdict, dashboardFromQuotaInfo } from './dashboard/model';
import { forgejoProfileFor } from './forgejoVersion';
import type { LiveUsage } from './liveUsage';

export interface StatusBarState {
  visible: boolean;
  text: string;
  tooltip: string;
  command?: string;
}

export class QuotaStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('quotaState.account', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[];
  private visible = false;

  constructor(liveUsage: LiveUsage) {
    this.item.name = vscode.l10n.t('Quota Account');
    this.item.command = 'quotaState.showDashboard';
    this.subscriptions = [
      liveUsage.onDidChange((live) => this.update(live)),
      // The verdict follows the Forgejo version: the setting can change it without new usage.
      vscode.workspace.onDidChangeConfiguration((change) => {
        if (change.affectsConfiguration('quotaState.forgejoVersion')) this.update(liveUsage.current());
      }),
    ];
    this.update(liveUsage.current());
  }

  state(): StatusBarState {
    const tooltip = typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '');
    return { visible: this.visible, text: this.item.text, tooltip, command: typeof this.item.command === 'string' ? this.item.command : this.item.command?.command };
  }

  private update(live: LiveUsageParams | null): void {
    if (!live) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const model = dashboardFromQuotaInfo(live.account, live.quota, { kind: 'self', server: live.server }, forgejoProfileFor({ server: live.version }).profile);
    const verdict = accountVerdict(model);
    this.item.text = verdict.within ? vscode.l10n.t('$(account) {0} ✓', live.account) : vscode.l10n.t('$(account) {0} ✗ {1}', live.account, verdict.subject ?? '').trimEnd();
    this.item.tooltip = verdict.within
      ? vscode.l10n.t('{0} on {1}: within quota. Click for the quota dashboard.', live.account, live.server)
      : verdict.subject
        ? vscode.l10n.t('{0} on {1}: over quota for {2}. Click for the quota dashboard.', live.account, live.server, verdict.subject)
        : vscode.l10n.t('{0} on {1}: over quota. Click for the quota dashboard.', live.account, live.server);
    this.item.backgroundColor = verdict.within ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
    const state = verdict.within ? vscode.l10n.t('within quota') : verdict.subject ? vscode.l10n.t('over quota for {0}', verdict.subject) : vscode.l10n.t('over quota');
    this.item.accessibilityInformation = { label: vscode.l10n.t('Quota: {0}, {1}', live.account, state) };
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
