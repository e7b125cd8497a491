/** What every command module gets: explicit dependencies, no globals. */
import type { AccountExplainer } from '../accountExplainer';
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ApiAccess } from '../apiAccess';
import type { Notifier } from '../notifier';

export interface CommandContext {
  api: ApiAccess;
  notifier: Notifier;
  log: vscode.LogOutputChannel;
  languageClient: LanguageClient;
  /** The quota engine's verdicts, from the language server. */
  explainer: AccountExplainer;
  /** Called after a command changed rules, groups or memberships on the server (refreshes the view). */
  serverChanged(): void;
}

/** Arguments arrive from tests, keybindings and the tree view; this narrows them without trusting them. */
export function argumentsOf<T extends object>(value: unknown): Partial<T> | undefined {
  return typeof value === 'object' && value !== null ? (value as Partial<T>) : undefined;
}

export function stringArgument(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
