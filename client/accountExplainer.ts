/**
 * The quota engine's verdicts, asked of the language server: the engine runs there only. The
 * dashboard, the status bar, the Quota view and the commands explain an account through here, in
 * one request each; limits and usage cross exactly (shared/api/json.ts's `toWire`/`fromWire`).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { fromWire, toWire } from '../shared/api/json';
import type { QuotaInfo } from '../shared/api/types';
import { ExplainAccountRequest } from '../shared/protocol';
import type { AccountExplanation } from '../shared/quota/vocabulary';

export interface AccountExplainer {
  /** An account as a quota API answered for it, under the version in force (the setting, else the server's, else the default). */
  server(account: string, quota: QuotaInfo, serverVersion: string | undefined, subjects: readonly string[]): Promise<AccountExplanation>;
  /** An account of a quota file (unsaved edits included), under the file's version; a string says why it cannot be. */
  file(uri: vscode.Uri, account: string, subjects: readonly string[]): Promise<AccountExplanation | string>;
}

export function accountExplainer(client: Pick<BaseLanguageClient, 'sendRequest'>): AccountExplainer {
  return {
    async server(account, quota, serverVersion, subjects) {
      const result = await client.sendRequest(ExplainAccountRequest, { account, subjects: [...subjects], quota: toWire(quota), ...(serverVersion ? { serverVersion } : {}) });
      if (!result || !('explanation' in result)) throw new Error(vscode.l10n.t('The language server could not explain the quota of {0} (see the Quota & State output).', account));
      return fromWire(result.explanation);
    },
    async file(uri, account, subjects) {
      const document = await vscode.workspace.openTextDocument(uri);
      const name = vscode.workspace.asRelativePath(uri);
      const result = await client.sendRequest(ExplainAccountRequest, { account, subjects: [...subjects], file: { uri: document.uri.toString(), text: document.getText() } });
      if (!result) return vscode.l10n.t('Could not show {0}: the language server could not read it (see the Quota & State output).', name);
      if ('refused' in result) return vscode.l10n.t('Could not show {0}: it has errors that stop evaluation (see the Problems view).', name);
      return fromWire(result.explanation);
    },
  };
}
