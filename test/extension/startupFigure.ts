/**
 * The startup figure for `npm run bench`, measured the same way in both extension hosts:
 * activation → language server ready, then a small state file's open → first diagnostics.
 * Each suite runs it first, before any test opens a document; the figures go back to the runner
 * with the suite's results (test/extension/index.ts, test/extension/webIndex.ts).
 */
import * as vscode from 'vscode';
import { activeExtension, diagnosticsWith, revertAndCloseAll, workspaceUri } from './common';

export function figures(): Record<string, number> {
  return ((globalThis as { quotaStateFigures?: Record<string, number> }).quotaStateFigures ??= {});
}

export function describeStartupFigure(host: 'node' | 'browser'): void {
  describe(`startup (${host} extension host)`, () => {
    after(revertAndCloseAll);

    it("activates, starts the language server and publishes a small state file's first diagnostics", async () => {
      const { hooks } = await activeExtension();
      const uri = workspaceUri('stack.state.json');
      const opened = Date.now();
      await vscode.window.showTextDocument(uri);
      await diagnosticsWith(uri, ['missing-reference']);
      const openToDiagnostics = Date.now() - opened;
      const activationToServer = hooks.startup.serverReadyAt - hooks.startup.activatedAt;
      if (!(activationToServer >= 0 && openToDiagnostics >= 0)) throw new Error(`odd timings: ${activationToServer}, ${openToDiagnostics}`);
      Object.assign(figures(), {
        [`${host}.activationToServerReadyMs`]: activationToServer,
        [`${host}.openToFirstDiagnosticsMs`]: openToDiagnostics,
        [`${host}.activationToFirstDiagnosticsMs`]: activationToServer + openToDiagnostics,
      });
    });
  });
}
