/**
 * The server's language: the client's l10n bundle (`vscode.l10n.bundle`, absent in English), given
 * at initialize. Every thread that writes messages configures `@vscode/l10n` with it: the server's
 * own (serverMain.ts) and the state analysis worker (stateAnalyzer.ts passes it as workerData). The
 * CLI never configures it, so it speaks English.
 */
import * as l10n from '@vscode/l10n';

export type L10nBundle = l10n.l10nJsonFormat;

let configured: L10nBundle | undefined;

/** Translates this thread's messages with `bundle`; nothing changes without one (English). */
export function useL10nBundle(bundle: L10nBundle | undefined): void {
  if (!bundle) return;
  configured = bundle;
  l10n.config({ contents: bundle });
}

/** The bundle this thread was given, for the threads it starts. */
export function l10nBundle(): L10nBundle | undefined {
  return configured;
}
