/**
 * Keeps the language server told about the signed-in user's live usage (GET /user/quota), so
 * quota previews can show "you" next to the file's scenarios; sends `null` after sign-out.
 * For a site admin it also sends the server's group names (app.ini's DEFAULT_GROUPS are checked
 * against them). Also keeps the `quotaState.apiConfigured` and `quotaState.signedIn` context keys
 * that choose the view's welcome content.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { QuotaApiClient } from '../shared/api/client';
import { toWire } from '../shared/api/json';
import { LiveGroupsNotification, LiveUsageNotification, type LiveGroupsParams, type LiveUsageParams } from '../shared/protocol';
import type { Session } from './session';
import { readApiSettings } from './settings';

export class LiveUsage implements vscode.Disposable {
  private last: LiveUsageParams | null = null;
  private lastGroups: LiveGroupsParams | null = null;
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<LiveUsageParams | null>();
  /** Fires after each refresh with the account's usage, or null when signed out, unconfigured or unreachable. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly languageClient: LanguageClient,
    private readonly session: Session,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  current(): LiveUsageParams | null {
    return this.last;
  }

  /** The live group names last sent to the language server (site admins only). */
  currentGroups(): LiveGroupsParams | null {
    return this.lastGroups;
  }

  /** Re-reads the usage quietly: a failure is logged, never shown (previews just lack "you"). */
  async refresh(): Promise<LiveUsageParams | null> {
    const generation = ++this.generation;
    const settings = readApiSettings();
    const token = settings.baseUrl ? await this.session.token(settings.baseUrl) : undefined;
    await vscode.commands.executeCommand('setContext', 'quotaState.apiConfigured', Boolean(settings.baseUrl));
    await vscode.commands.executeCommand('setContext', 'quotaState.signedIn', Boolean(token));
    let live: LiveUsageParams | null = null;
    let groups: LiveGroupsParams | null = null;
    if (settings.baseUrl && token) {
      const client = new QuotaApiClient({ baseUrl: settings.baseUrl, token, timeoutMs: settings.timeoutMs });
      try {
        // The version decides which Forgejo rules the previews follow; a server that does not say keeps the default.
        const [user, quota, version] = await Promise.all([
          client.currentUser(),
          client.myQuota(),
          client.serverVersion().catch((error: unknown) => {
            this.log.warn(`The server's version is not available: ${error instanceof Error ? error.message : String(error)}`);
            return undefined;
          }),
        ]);
        // The protocol is plain JSON: limits beyond 2^53 (bigints here) travel as numbers.
        live = { account: user.login, server: settings.baseUrl, quota: toWire(quota), ...(version ? { version } : {}) };
        // Only a site admin may list the groups; app.ini's DEFAULT_GROUPS are checked against them.
        if (user.is_admin) groups = { server: settings.baseUrl, groups: (await client.listGroups()).flatMap((group) => (group.name ? [group.name] : [])) };
      } catch (error) {
        this.log.warn(`Live usage for previews is not available: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (generation !== this.generation) return this.last; // a newer refresh won
    this.last = live;
    this.lastGroups = groups;
    try {
      await this.languageClient.sendNotification(LiveGroupsNotification, groups);
    } catch (error) {
      this.log.warn(`Could not send the server's groups to the language server: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.changed.fire(live);
    try {
      await this.languageClient.sendNotification(LiveUsageNotification, live);
      if (live) this.log.info(`Sent the live usage of ${live.account} on ${live.server} to the language server.`);
    } catch (error) {
      this.log.warn(`Could not send the live usage to the language server: ${error instanceof Error ? error.message : String(error)}`);
    }
    return live;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
