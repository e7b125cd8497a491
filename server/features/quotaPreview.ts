/**
 * Custom protocol for quota previews: the evaluation report request (the exact
 * `quota-state evaluate` JSON), the quota file summary Push and the dashboard read, and the
 * client's live-usage notification.
 */
import { EvaluationPreviewRequest, LiveUsageNotification, QuotaFileRequest } from '../../shared/protocol';
import { analyzeQuotaConfig } from '../../shared/quota/config';
import { quotaFileSummary } from '../../shared/quota/fileSummary';
import { ErrorCodes, ResponseError } from 'vscode-languageserver';
import type { QuotaMode } from '../modes/quotaMode';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

export function registerQuotaPreview(workspace: ServerWorkspace, quotaMode: QuotaMode, onLiveUsageChanged: () => void): void {
  const { connection } = workspace;
  connection.onRequest(EvaluationPreviewRequest, (params, token) =>
    runSafe(workspace, 'Evaluation preview', token, null, () => {
      const document = workspace.documents.get(params.uri);
      if (!document || workspace.kindOf(document) !== 'quota') return null;
      return quotaMode.evaluationReport(document, { account: params.account, subject: params.subject });
    }),
  );
  connection.onRequest(QuotaFileRequest, (params, token) =>
    runSafe(workspace, 'Quota file', token, null, () => {
      if (typeof params?.uri !== 'string' || typeof params.text !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'quotaState/quotaFile needs a uri and a text');
      // The open document's analysis is cached per version; other text is analysed once here.
      const document = workspace.documents.get(params.uri);
      const analysis = document && document.getText() === params.text ? quotaMode.analysis(document) : analyzeQuotaConfig(params.text);
      return quotaFileSummary(analysis);
    }),
  );
  connection.onNotification(LiveUsageNotification, (params) => {
    workspace.setLiveUsage(params ?? null);
    onLiveUsageChanged();
  });
}
