/**
 * Custom protocol for quota previews: the evaluation report request (the exact
 * `quota-state evaluate` JSON), the quota file summary Push and the dashboard read, and the
 * client's live-usage notification.
 */
import { EvaluationPreviewRequest, LiveUsageNotification, QuotaFileRequest } from '../../shared/protocol';
import { analyzeQuotaConfig } from '../../shared/quota/config';
import { quotaFileSummaryForWire } from '../../shared/quota/fileSummary';
import { withPlainNumbers } from '../../shared/api/json';
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
      // The protocol is plain JSON: a limit beyond 2^53 travels as the nearest number (`quota-state evaluate` keeps its digits).
      return withPlainNumbers(quotaMode.evaluationReport(document, { account: params.account, subject: params.subject }));
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
  connection.onNotification(LiveUsageNotification, (params) => {
    workspace.setLiveUsage(params ?? null);
    onLiveUsageChanged();
  });
}
