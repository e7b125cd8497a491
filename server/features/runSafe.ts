/**
 * Every request handler runs through here: an unexpected error is logged and answered with the
 * fallback, so no input a person can type takes the server down.
 */
import type { CancellationToken } from 'vscode-languageserver';
import { ResponseError } from '../lsp';
import type { ServerWorkspace } from '../workspace';

export async function runSafe<T>(workspace: ServerWorkspace, what: string, token: CancellationToken | undefined, fallback: T, handler: () => T | Promise<T>): Promise<T> {
  if (token?.isCancellationRequested) return fallback;
  try {
    const result = await handler();
    return token?.isCancellationRequested ? fallback : result;
  } catch (error) {
    // Deliberate answers (e.g. "that name is taken" for a rename) go back to the client as errors.
    if (error instanceof ResponseError) throw error;
    workspace.logError(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return fallback;
  }
}
