/**
 * The Backends view's Restore This Version…: the document to restore is judged here, as `pulumi
 * stack import` would judge it (its integrity errors, resources of another stack, pending
 * operations dropped), with the same analysis as the editor's diagnostics. The client writes it.
 */
import { RestorePlanRequest, type RestorePlanResult } from '../../shared/protocol';
import { createStateService } from '../../shared/state';
import { createBackendService, RestoreError } from '../../shared/backend';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

export function registerRestorePlan(workspace: ServerWorkspace): void {
  const state = createStateService();
  const backends = createBackendService();
  workspace.connection.onRequest(RestorePlanRequest, (params, token) =>
    runSafe<RestorePlanResult>(workspace, 'Restore plan', token, { error: 'the restore could not be planned (see the log)' }, () => {
      if (typeof params?.text !== 'string' || typeof params.name !== 'string') return { error: 'a restore plan needs the document text and the stack name' };
      const display = typeof params.display === 'string' ? params.display : 'the document';
      const snapshot = state.parse(params.text);
      if (snapshot.parsedWith !== 'json') return { error: `${display} is not valid JSON; open it to see where` };
      try {
        const plan = backends.planRestore(snapshot, { project: typeof params.project === 'string' ? params.project : undefined, name: params.name }, display);
        return { checkpoint: plan.text ?? JSON.stringify(plan.checkpoint), problems: plan.problems, droppedPendingOperations: plan.droppedPendingOperations };
      } catch (error) {
        if (error instanceof RestoreError) return { error: error.message };
        throw error;
      }
    }),
  );
}
