/**
 * The dependents code lens's request: where the records depending on a urn refer to it. The
 * lens carries only the urn; the locations are found when the user clicks it.
 */
import { DependentsRequest } from '../../shared/protocol';
import type { StateMode } from '../modes/stateMode';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

export function registerDependents(workspace: ServerWorkspace, stateMode: StateMode): void {
  workspace.connection.onRequest(DependentsRequest, (params, token) =>
    runSafe(workspace, 'Dependents', token, [], () => {
      const document = workspace.documents.get(params.uri);
      if (!document || workspace.kindOf(document) !== 'state') return [];
      return stateMode.dependents(document, params.urn);
    }),
  );
}
