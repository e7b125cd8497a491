/**
 * Custom protocol for quota previews: the evaluation report request (the exact
 * `quota-state evaluate` JSON), the quota file summary Push reads, the one account explained for the
 * dashboard, the status bar, the Quota view and the commands (the engine runs here only), and the
 * client's live-usage notification. Limits and usage cross exactly (`toWire`/`fromWire`).
 */
import { EvaluationPreviewRequest, ExplainAccountRequest, LiveUsageNotification, QuotaFileRequest, type ExplainAccountParams, type ExplainAccountResult } from '../../shared/protocol';
import { quotaFileSummaryForWire, createQuotaService } from '../../shared/quota';
import { fromWire, toWire } from '../../shared/api/json';
import { ErrorCodes, ResponseError } from '../lsp';
import type { QuotaMode } from '../modes/quotaMode';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

const { analyze: analyzeQuotaConfig, explainAccount } = createQuotaService();

export function registerQuotaPreview(workspace: ServerWorkspace, quotaMode: QuotaMode, onLiveUsageChanged: () => void): void {
  const { connection } = workspace;
  connection.onRequest(EvaluationPreviewRequest, (params, token) =>
    runSafe(workspace, 'Evaluation preview', token, null, () => {
      const document = workspace.documents.get(params.uri);
      if (!document || workspace.kindOf(document) !== 'quota') return null;
      return toWire(quotaMode.evaluationReport(document, { account: params.account, subject: params.subject }));
    }),
  );
  connection.onRequest(QuotaFileRequest, (params, token) =>
    runSafe(workspace, 'Quota file', token, null, () => {
      if (typeof params?.uri !== 'string' || typeof params.text !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'quotaState/quotaFile needs a uri and a text');
      // The open document's analysis is cached per version; other text is analysed once here.
      const document = workspace.documents.get(params.uri);
      const analysis = document && document.getText() === params.text ? quotaMode.analysis(document) : analyzeQuotaConfig(params.text);
      return quotaFileSummaryForWire(analysis);
    }),
  );
  connection.onRequest(ExplainAccountRequest, (params, token) => runSafe(workspace, 'Explain account', token, null, () => explained(workspace, quotaMode, params)));
  connection.onNotification(LiveUsageNotification, (params) => {
    workspace.setLiveUsage(params ? fromWire(params) : null);
    onLiveUsageChanged();
  });
}

/** One account through the engine: a server's answer for it, or its verdicts in a quota file. */
function explained(workspace: ServerWorkspace, quotaMode: QuotaMode, params: ExplainAccountParams): ExplainAccountResult {
  const subjectsOk = Array.isArray(params?.subjects) && params.subjects.every((s) => typeof s === 'string');
  if (typeof params?.account !== 'string' || !subjectsOk) throw new ResponseError(ErrorCodes.InvalidParams, 'quotaState/explainAccount needs an account and subjects');
  const options = { subjects: params.subjects };
  if (params.file && typeof params.file.uri === 'string' && typeof params.file.text === 'string') {
    const document = workspace.documents.get(params.file.uri);
    const analysis = document && document.getText() === params.file.text ? quotaMode.analysis(document) : analyzeQuotaConfig(params.file.text);
    if (analysis.diagnostics.some((d) => d.severity === 'error')) return { refused: 'errors' };
    const profile = quotaMode.forgejoFor(analysis).profile;
    return { explanation: toWire(explainAccount(params.account, { model: analysis.model, usage: analysis.usage.get(params.account) }, { ...options, profile })) };
  }
  if (params.quota && typeof params.quota === 'object') {
    const serverVersion = typeof params.serverVersion === 'string' ? params.serverVersion : undefined;
    const profile = quotaMode.forgejoFor(undefined, { version: serverVersion }).profile;
    return { explanation: toWire(explainAccount(params.account, { quota: fromWire(params.quota) }, { ...options, profile })) };
  }
  throw new ResponseError(ErrorCodes.InvalidParams, 'quotaState/explainAccount needs a quota or a file');
}
