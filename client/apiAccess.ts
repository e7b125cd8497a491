/**
 * Builds the API client from the settings and the stored token, and runs network work under a
 * cancellable progress notification. Failures become one readable message (with "Sign In" when
 * signing in is the way out); the caller gets a result it can use to keep the user's input.
 */
import * as vscode from 'vscode';
import { QuotaApiClient } from '../shared/api/client';
import { QuotaApiError } from '../shared/api/errors';
import type { Notifier } from './notifier';
import type { Session } from './session';
import { readApiSettings } from './settings';

/** A failure with `shown` was already told to the user (with its way out), so callers add no second message. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string; error?: unknown; shown?: boolean };

const SIGN_IN = vscode.l10n.t('Sign In');
const OPEN_SETTING = vscode.l10n.t('Open Setting');

export class ApiAccess {
  constructor(
    private readonly session: Session,
    private readonly notifier: Notifier,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /**
   * The configured server and its client, or an explanation of what is missing: shown as one
   * message unless `quiet` (views stay silent and show their welcome content instead).
   */
  async connect(options: { requireToken: boolean; quiet?: boolean }): Promise<Outcome<{ client: QuotaApiClient; baseUrl: string }>> {
    const settings = readApiSettings();
    if (!settings.baseUrl) {
      const message = settings.invalidBaseUrl
        ? vscode.l10n.t('The setting quotaState.api.baseUrl ("{0}") is not an http(s) URL, e.g. https://forge.example/api/v1.', settings.invalidBaseUrl)
        : vscode.l10n.t('No quota API is configured. Set quotaState.api.baseUrl to your server, e.g. https://forge.example/api/v1, then run "Quota: Sign In".');
      if (!options.quiet) {
        void this.notifier.warning(message, OPEN_SETTING).then((choice) => {
          if (choice === OPEN_SETTING) void vscode.commands.executeCommand('workbench.action.openSettings', 'quotaState.api.baseUrl');
        });
      }
      return { ok: false, message, shown: !options.quiet };
    }
    const token = await this.session.token(settings.baseUrl);
    if (options.requireToken && !token) {
      const message = vscode.l10n.t('You are not signed in to {0}. Run "Quota: Sign In" with a token for that server.', settings.baseUrl);
      if (!options.quiet) this.offerSignIn(message);
      return { ok: false, message, shown: !options.quiet };
    }
    const client = new QuotaApiClient({ baseUrl: settings.baseUrl, token, timeoutMs: settings.timeoutMs });
    return { ok: true, value: { client, baseUrl: settings.baseUrl } };
  }

  /**
   * Runs `work` under a cancellable progress notification titled `title`. Shows the failure
   * (unless `quiet`) and returns it, so the caller can offer a retry with the same input.
   */
  async run<T>(
    title: string,
    work: (client: QuotaApiClient, signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
    options: { requireToken?: boolean; quiet?: boolean } = {},
  ): Promise<Outcome<T>> {
    const connection = await this.connect({ requireToken: options.requireToken ?? true });
    if (!connection.ok) return connection;
    const { client } = connection.value;
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, cancellation): Promise<Outcome<T>> => {
      const controller = new AbortController();
      const subscription = cancellation.onCancellationRequested(() => controller.abort());
      try {
        const value = await work(client, controller.signal, progress);
        return { ok: true, value };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof QuotaApiError && error.kind === 'cancelled') {
          this.log.info(`${title}: cancelled`);
        } else if (!options.quiet) {
          if (error instanceof QuotaApiError && error.needsSignIn) this.offerSignIn(message);
          else void this.notifier.error(message);
        } else {
          this.log.warn(message);
        }
        if (!(error instanceof QuotaApiError)) this.log.error(error instanceof Error ? (error.stack ?? message) : message);
        return { ok: false, message, error };
      } finally {
        subscription.dispose();
      }
    });
  }

  private offerSignIn(message: string): void {
    void this.notifier.error(message, SIGN_IN).then((choice) => {
      if (choice === SIGN_IN) void vscode.commands.executeCommand('quotaState.signIn');
    });
  }
}
