/**
 * Custom protocol for quota previews: the evaluation report request (the exact
 * `quota-state evaluate` JSON) and the client's live-usage notification.
 */
import { EvaluationPreviewRequest, LiveUsageNotification } from '../../shared/protocol';
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
  connection.onNotification(LiveUsageNotification, (params) => {
    workspace.setLiveUsage(params ?? null);
    onLiveUsageChanged();
  });
}
