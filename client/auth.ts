/** Quota: Sign In / Sign Out. The token goes to SecretStorage only after the server accepted it. */
import * as vscode from 'vscode';
import { QuotaApiClient, normaliseBaseUrl } from '../shared/api/client';
import { SETTINGS_SECTION } from '../shared/protocol';
import type { CommandContext } from './commands/context';
import { argumentsOf, stringArgument } from './commands/context';
import type { LiveUsage } from './liveUsage';
import type { Session } from './session';
import { readApiSettings } from './settings';

export class AuthCommands {
  constructor(
    private readonly context: CommandContext,
    private readonly session: Session,
    private readonly liveUsage: LiveUsage,
  ) {}

  register(): vscode.Disposable[] {
    return [vscode.commands.registerCommand('quotaState.signIn', (args?: unknown) => this.signIn(args)), vscode.commands.registerCommand('quotaState.signOut', () => this.signOut())];
  }

  /** `{token, baseUrl?}` signs in without prompts. Returns the account name on success. */
  async signIn(args?: unknown): Promise<string | undefined> {
    const given = argumentsOf<{ token: string; baseUrl: string }>(args);
    let baseUrl = readApiSettings().baseUrl;
    const requestedUrl = stringArgument(given?.baseUrl);
    if (requestedUrl || !baseUrl) {
      const raw =
        requestedUrl ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Quota: Sign In — server'),
          prompt: vscode.l10n.t('Base URL of the quota API'),
          placeHolder: 'https://forge.example/api/v1',
          ignoreFocusOut: true,
          validateInput: (input) => (isHttpUrl(input) ? undefined : vscode.l10n.t('Enter an http(s) URL such as https://forge.example/api/v1')),
        }));
      if (!raw) return undefined;
      if (!isHttpUrl(raw)) {
        void this.context.notifier.error(vscode.l10n.t('Could not sign in: "{0}" is not an http(s) URL.', raw));
        return undefined;
      }
      baseUrl = normaliseBaseUrl(raw);
      if (readApiSettings().baseUrl !== baseUrl) {
        await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('api.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
      }
    }
    const server = baseUrl;
    const token =
      stringArgument(given?.token) ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Quota: Sign In to {0}', server),
        prompt: vscode.l10n.t("Access token (kept in VS Code's secret storage)"),
        password: true,
        ignoreFocusOut: true,
      }));
    if (!token) return undefined;
    const settings = readApiSettings();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Quota: signing in to {0}…', server), cancellable: true },
      async (_progress, cancellation) => {
        const controller = new AbortController();
        const subscription = cancellation.onCancellationRequested(() => controller.abort());
        try {
          const client = new QuotaApiClient({ baseUrl: server, token: token.trim(), timeoutMs: settings.timeoutMs });
          return { ok: true as const, user: await client.currentUser({ signal: controller.signal }) };
        } catch (error) {
          return { ok: false as const, message: error instanceof Error ? error.message : String(error) };
        } finally {
          subscription.dispose();
        }
      },
    );
    if (!result.ok) {
      void this.context.notifier.error(result.message);
      return undefined;
    }
    await this.session.store(server, token.trim());
    const role = result.user.is_admin ? ' (site administrator)' : '';
    void this.context.notifier.info(vscode.l10n.t('Signed in to {0} as {1}{2}.', server, result.user.login, role));
    await this.liveUsage.refresh();
    this.context.serverChanged();
    return result.user.login;
  }

  async signOut(): Promise<boolean> {
    const baseUrl = readApiSettings().baseUrl;
    if (!baseUrl || !(await this.session.token(baseUrl))) {
      void this.context.notifier.info(vscode.l10n.t('You are not signed in to a quota API.'));
      return false;
    }
    await this.session.forget(baseUrl);
    void this.context.notifier.info(vscode.l10n.t("Signed out of {0}; the token was removed from VS Code's secret storage.", baseUrl));
    await this.liveUsage.refresh();
    this.context.serverChanged();
    return true;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value.trim()).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
