/**
 * Commands that open the dashboard: for the signed-in account, for an account a site
 * administrator picks, and for an account of a quota file's preview. Each returns the
 * dashboard's model, so tests and other commands can read what is shown.
 */
import * as vscode from 'vscode';
import { argumentsOf, stringArgument, type CommandContext } from '../commands/context';
import type { DashboardModel } from './model';
import { quotaFileReader } from '../quotaFile';
import { fileAccounts, type QuotaDashboard } from './panel';

export class DashboardCommands {
  constructor(
    private readonly context: CommandContext,
    private readonly dashboard: QuotaDashboard,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.showDashboard', (args?: unknown) => this.showDashboard(args)),
      vscode.commands.registerCommand('quotaState.showAccountDashboard', (args?: unknown) => this.showAccount(args)),
      vscode.commands.registerCommand('quotaState.showFileDashboard', (args?: unknown) => this.showFile(args)),
    ];
  }

  /** `{}` or nothing: you; `{account}`: that account (site administrators); `{uri, account}`: a quota file's preview. `show: false` only computes. */
  async showDashboard(args?: unknown): Promise<DashboardModel | undefined> {
    const given = argumentsOf<{ account: string; uri: string; show: boolean }>(args);
    const reveal = given?.show !== false;
    const uri = stringArgument(given?.uri);
    const account = stringArgument(given?.account);
    if (uri) return this.showFile({ uri, account, show: reveal });
    if (account) return this.dashboard.show({ kind: 'admin', account }, reveal);
    return this.dashboard.show({ kind: 'self' }, reveal);
  }

  /** Site administrators: picks an account among the members of the server's groups, or any typed login. */
  async showAccount(args?: unknown): Promise<DashboardModel | undefined> {
    const given = argumentsOf<{ account: string; show: boolean }>(args);
    const account = stringArgument(given?.account) ?? (await this.pickAccount());
    if (!account) return undefined;
    return this.dashboard.show({ kind: 'admin', account }, given?.show !== false);
  }

  async showFile(args?: unknown): Promise<DashboardModel | undefined> {
    const given = argumentsOf<{ uri: string; account: string; show: boolean }>(args);
    const uriText = stringArgument(given?.uri);
    const uri = uriText ? vscode.Uri.parse(uriText) : args instanceof vscode.Uri ? args : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void this.context.notifier.error(vscode.l10n.t('Open a quota file to show one of its accounts in the dashboard.'));
      return undefined;
    }
    let account = stringArgument(given?.account);
    if (!account) {
      const accounts = await fileAccounts(uri, quotaFileReader(this.context.languageClient));
      if (accounts.length === 0) {
        void this.context.notifier.error(vscode.l10n.t('{0} names no account to preview: add "usage", "accounts" or "assignments".', vscode.workspace.asRelativePath(uri)));
        return undefined;
      }
      account = accounts.length === 1 ? accounts[0] : await vscode.window.showQuickPick(accounts, { title: vscode.l10n.t('Quota: show which account of this file?') });
    }
    if (!account) return undefined;
    return this.dashboard.show({ kind: 'file', uri, account }, given?.show !== false);
  }

  private async pickAccount(): Promise<string | undefined> {
    const members = await this.context.api.run(vscode.l10n.t('Quota: listing accounts in quota groups…'), async (client, signal) => {
      const groups = await client.listGroups({ signal });
      const lists = await Promise.all(groups.map((group) => client.groupUsers(group.name ?? '', { signal }).catch(() => [])));
      return [...new Set(lists.flat().map((user) => user.login))].sort();
    });
    if (!members.ok) return undefined;
    return new Promise<string | undefined>((resolve) => {
      const pick = vscode.window.createQuickPick();
      pick.title = vscode.l10n.t('Quota: show the quota of which account?');
      pick.placeholder = 'A login: members of quota groups are listed; type any other login';
      const listed = members.value.map((login) => ({ label: login, description: 'member of a quota group' }));
      pick.items = listed;
      pick.onDidChangeValue((value) => {
        const typed = value.trim();
        pick.items = typed && !members.value.includes(typed) ? [{ label: typed, description: 'typed login' }, ...listed] : listed;
      });
      let chosen: string | undefined;
      pick.onDidAccept(() => {
        chosen = pick.selectedItems[0]?.label ?? (pick.value.trim() || undefined);
        pick.hide();
      });
      pick.onDidHide(() => {
        pick.dispose();
        resolve(chosen);
      });
      pick.show();
    });
  }
}
