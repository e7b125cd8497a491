/**
 * The language of the messages: `@vscode/l10n` translates every `l10n.t` of the core once it has a
 * bundle. The language server gives it the client's (`vscode.l10n.bundle`, absent in English) on
 * every thread that writes messages: its own (serverMain.ts) and the state analysis worker's
 * (stateAnalyzer.ts passes it on). The CLI gives it none, so it speaks English.
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

/**
 * `compute` with English messages, whatever the bundle: for code that compares messages by their
 * words (surgery's before/after error budget), not for showing them. Synchronous, so nothing else
 * runs in between.
 */
export function inEnglish<T>(compute: () => T): T {
  const bundle = configured;
  if (!bundle) return compute();
  l10n.config({ contents: {} });
  try {
    return compute();
  } finally {
    l10n.config({ contents: bundle });
  }
}
