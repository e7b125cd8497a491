/** Preview Evaluation: the language server's evaluation report as a readable table. */
import * as vscode from 'vscode';
import type { EvaluationReport } from '../../shared/quota/vocabulary';
import { fromWire } from '../../shared/api/json';
import { EvaluationPreviewRequest } from '../../shared/protocol';
import { formatEvaluationReport } from '../previewTable';
import { argumentsOf, stringArgument, type CommandContext } from './context';

export class PreviewCommands {
  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [vscode.commands.registerCommand('quotaState.previewEvaluation', (args?: unknown) => this.preview(args))];
  }

  async preview(args?: unknown): Promise<{ report: EvaluationReport; text: string } | undefined> {
    const given = argumentsOf<{ uri: string; account: string; subject: string; show: boolean }>(args);
    const uri = stringArgument(given?.uri) ? vscode.Uri.parse(given!.uri!) : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void this.context.notifier.error(vscode.l10n.t('Open a quota file to preview its evaluation.'));
      return undefined;
    }
    // The server answers for open documents only.
    await vscode.workspace.openTextDocument(uri);
    const sent = await this.context.languageClient.sendRequest(EvaluationPreviewRequest, {
      uri: uri.toString(),
      account: stringArgument(given?.account),
      subject: stringArgument(given?.subject),
    });
    // Limits and usage beyond 2^53 crossed exactly (`toWire`): back to bigints.
    const report = sent && fromWire(sent);
    const name = vscode.workspace.asRelativePath(uri);
    if (!report) {
      void this.context.notifier.error(vscode.l10n.t('Could not preview {0}: it is not a quota config file, or it has errors that stop evaluation.', name));
      return undefined;
    }
    const text = formatEvaluationReport(report, name);
    if (given?.show !== false) {
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }
    return { report, text };
  }
}
