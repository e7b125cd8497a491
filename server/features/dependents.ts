/**
 * The dependents code lens's request: where the records depending on a urn refer to it. The
 * lens carries only the urn; the locations are found when the user clicks it. And the resource
 * graph's: its picture, laid out here, off the editor's UI thread.
 */
import { DependentsRequest, ResourceGraphRequest } from '../../shared/protocol';
import type { GraphViewRequest } from '../../shared/state';
import { GRAPH_EDGE_KINDS } from '../../shared/state/vocabulary';
import type { StateMode } from '../modes/stateMode';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

/** The fields of a graph request that are what they claim to be; anything else is left out. */
function graphRequestOf(params: Record<string, unknown>): GraphViewRequest {
  const request: GraphViewRequest = {};
  const text = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : undefined);
  if (text('focus')) request.focus = text('focus');
  if (Number.isInteger(params.offset) && (params.offset as number) >= 0) request.offset = params.offset as number;
  if (params.depth === 'all' || (Number.isInteger(params.depth) && (params.depth as number) >= 0)) request.depth = params.depth as number | 'all';
  if (Array.isArray(params.edgeKinds)) request.edgeKinds = GRAPH_EDGE_KINDS.filter((kind) => (params.edgeKinds as unknown[]).includes(kind));
  if (text('type')) request.type = text('type');
  if (text('provider')) request.provider = text('provider');
  if (text('search')) request.search = text('search');
  return request;
}

export function registerDependents(workspace: ServerWorkspace, stateMode: StateMode): void {
  workspace.connection.onRequest(DependentsRequest, (params, token) =>
    runSafe(workspace, 'Dependents', token, [], () => {
      const document = workspace.documents.get(params.uri);
      if (!document || workspace.kindOf(document) !== 'state') return [];
      return stateMode.dependents(document, params.urn);
    }),
  );
  workspace.connection.onRequest(ResourceGraphRequest, (params, token) =>
    runSafe(workspace, 'Resource graph', token, null, () => {
      const document = typeof params?.uri === 'string' ? workspace.documents.get(params.uri) : undefined;
      if (!document || workspace.kindOf(document) !== 'state') return null;
      return stateMode.resourceGraph(document, { uri: params.uri, dot: params.dot === true, ...graphRequestOf(params as unknown as Record<string, unknown>) });
    }),
  );
}
