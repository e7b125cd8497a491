/** The client's live group names (for app.ini's DEFAULT_GROUPS check): stored, then every open file is re-validated. */
import { LiveGroupsNotification } from '../../shared/protocol';
import type { ServerWorkspace } from '../workspace';

export function registerLiveGroups(workspace: ServerWorkspace, onChanged: () => void): void {
  workspace.connection.onNotification(LiveGroupsNotification, (params) => {
    workspace.setLiveGroups(params && Array.isArray(params.groups) ? { server: String(params.server), groups: params.groups.filter((g) => typeof g === 'string') } : null);
    onChanged();
  });
}
