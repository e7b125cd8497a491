/** The Forgejo version the extension's own verdicts follow (dashboard, status bar) where no quota file decides. */
import * as vscode from 'vscode';
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
