/** The Forgejo version the extension's own verdicts follow (dashboard, status bar, Quota view, usage report) where no quota file decides. */
import * as vscode from 'vscode';
import type { QuotaInfo } from '../shared/api/types';
import { explainAccount, type AccountExplanation } from '../shared/quota/explain';
import { resolveForgejoProfile, type ResolvedForgejoProfile } from '../shared/quota/forgejoVersion';

/** `quotaState.forgejoVersion`, when set. */
function configuredForgejoVersion(): string | undefined {
  return vscode.workspace.getConfiguration('quotaState').get<string>('forgejoVersion') || undefined;
}

/**
 * The order the language server uses, without the file: the setting, then the version the server
 * reports (`GET /version`), else the default.
 */
export function forgejoProfileFor(options: { file?: string; server?: string } = {}): ResolvedForgejoProfile {
  return resolveForgejoProfile([
    { source: 'file', version: options.file },
    { source: 'setting', version: configuredForgejoVersion() },
    { source: 'server', version: options.server },
  ]);
}

/**
 * An account as the quota API answers for it (`GET /user/quota`, or the admin view), explained
 * under the version in force: the setting, else the server's (`GET /version`), else the default.
 * The dashboard, the status bar, the Quota view, the usage report and Check Quota all start here.
 */
export function explainServerAccount(account: string, quota: QuotaInfo, serverVersion: string | undefined, subjects?: readonly string[]): AccountExplanation {
  return explainAccount(account, { quota }, { profile: forgejoProfileFor({ server: serverVersion }).profile, subjects });
}
