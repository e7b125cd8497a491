/**
 * State files the editor cannot hand over (over VS Code's 50 MB sync limit, or an
 * open editor whose document never arrived). The client sends `quotaState/analyzeFromDisk`;
 * the server reads the file, publishes its diagnostics for the URI (exactly what the CLI
 * reports) and tells the language status which features are unavailable and why.
 */
import * as l10n from '@vscode/l10n';
import { applySeverityOverrides } from '../../shared/diagnostics';
import { AnalyzeFromDiskNotification, DocumentStatusNotification, type DocumentStatusParams } from '../../shared/protocol';
import { toLspDiagnostic } from '../convert';
import { uriToPath, type ServerWorkspace } from '../workspace';
import { FileReadError, type StateAnalyzer } from './stateAnalyzer';

/** What is unavailable for a file analysed from disk (a function: the translation is configured at initialize). */
const fromDiskUnavailable = (): DocumentStatusParams['unavailable'] =>
  ['hover', 'definition', 'references', 'rename', 'completion', 'quick fixes', 'document symbols'].map((feature) => ({
    feature,
    reason: l10n.t('VS Code does not hand this file to extensions (over 50 MB), so it was analysed from disk; editor features need the open document.'),
  }));

export function registerAnalyzeFromDisk(workspace: ServerWorkspace, analyzer: StateAnalyzer): void {
  const { connection } = workspace;
  connection.onNotification(AnalyzeFromDiskNotification, async ({ uri }) => {
    // The editor synced it after all: normal validation owns it.
    if (workspace.documents.get(uri)) return;
    try {
      // The worker reads and analyses the file: a 100 MB text never crosses threads or blocks requests.
      const analysis = await analyzer.analyzeFile(uriToPath(uri), workspace.stateSchemaFor(uri));
      if (workspace.documents.get(uri)) return;
      const shown = applySeverityOverrides(analysis.diagnostics, workspace.severityFor(uri));
      await connection.sendDiagnostics({ uri, diagnostics: shown.map((d) => toLspDiagnostic(d, uri)) });
      await connection.sendNotification(DocumentStatusNotification, {
        uri,
        kind: 'state',
        shape: analysis.shape,
        schema: analysis.stateSchema,
        fromDisk: true,
        unavailable: fromDiskUnavailable(),
        diagnosticCount: shown.length,
      });
    } catch (error) {
      if (error instanceof FileReadError) {
        const reason = l10n.t('Could not read the file from disk: {0}', error.message);
        workspace.log(reason);
        await connection.sendNotification(DocumentStatusNotification, { uri, kind: 'state', fromDisk: true, unavailable: [{ feature: 'diagnostics', reason }] });
        return;
      }
      workspace.logError(`Analysis of ${uri} from disk failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  });
}
