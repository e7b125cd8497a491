/**
 * The status bar item: the signed-in account and its verdict (`✓ alice`, or `✗ bob size:repos:all`
 * naming the subjects of the failing rule). It opens the dashboard; it is hidden when nobody is
 * signed in or no server is configured.
 */
import * as vscode from 'vscode';
import type { LiveUsageParams } from '../shared/protocol';
import { accountStatus } from './accountStatus';
import type { AccountExplainer } from './accountExplainer';
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
  /** Counts updates: an explanation that arrives after a newer update started is dropped. */
  private generation = 0;

  constructor(
    liveUsage: LiveUsage,
    private readonly explainer: AccountExplainer,
    private readonly log: vscode.LogOutputChannel,
  ) {
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
    const generation = ++this.generation;
    if (!live) {
      this.visible = false;
      this.item.hide();
      return;
    }
    // The engine runs in the language server: the verdict is one request away.
    this.explainer.server(live.account, live.quota, live.version, []).then(
      (explanation) => {
        if (generation !== this.generation) return;
        const status = accountStatus(explanation, live.server, vscode.l10n);
        this.item.text = status.text;
        this.item.tooltip = status.tooltip;
        this.item.backgroundColor = status.within ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
        this.item.accessibilityInformation = { label: status.label };
        this.visible = true;
        this.item.show();
      },
      (error: unknown) => this.log.warn(`The status bar could not explain ${live.account}'s quota: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
