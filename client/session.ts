/**
 * The token of each quota API server, kept in VS Code's SecretStorage under a key naming the
 * server (never in settings, logs or messages). One token per base URL, so switching the
 * setting between servers never sends one server's token to another.
 */
import * as vscode from 'vscode';

const KEY_PREFIX = 'quotaState.token:';

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the base URL whose token was stored or removed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith(KEY_PREFIX)) this.changed.fire(event.key.slice(KEY_PREFIX.length));
    });
  }

  token(baseUrl: string): Thenable<string | undefined> {
    return this.secrets.get(KEY_PREFIX + baseUrl);
  }

  async store(baseUrl: string, token: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + baseUrl, token);
  }

  async forget(baseUrl: string): Promise<void> {
    await this.secrets.delete(KEY_PREFIX + baseUrl);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
