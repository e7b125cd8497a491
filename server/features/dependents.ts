/**
 * The dependents code lens's request: where the records depending on a urn refer to it. The
 * lens carries only the urn; the locations are found when the user clicks it. And the resource
 * graph's: its picture, laid out here, off the editor's UI thread.
 */
import { DependentsRequest, ResourceGraphRequest } from '../../shared/protocol';
import type { GraphViewRequest } from '../../shared/state';
import { GRAPH_EDGE_KINDS, GRAPH_GROUP_BYS, type GraphGroupBy } from '../../shared/state/vocabulary';
import type { StateMode } from '../modes/stateMode';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';
import { ErrorCodes, ResponseError } from '../lsp';
import { GraphFileError } from '../state/graphRunner';

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
  if (GRAPH_GROUP_BYS.includes(params.groupBy as GraphGroupBy)) request.groupBy = params.groupBy as GraphGroupBy;
  if (Array.isArray(params.expand)) request.expand = (params.expand as unknown[]).filter((id): id is string => typeof id === 'string').slice(0, 100);
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
    runSafe(workspace, 'Resource graph', token, null, async () => {
      if (typeof params?.uri !== 'string') return null;
      const document = workspace.documents.get(params.uri);
      if (document && workspace.kindOf(document) !== 'state') return null;
      // A file no editor holds (closed since, or never handed over) is drawn from disk.
      const request = { uri: params.uri, dot: params.dot === true, ...graphRequestOf(params as unknown as Record<string, unknown>) };
      try {
        return await stateMode.resourceGraph(params.uri, document, request, token);
      } catch (error) {
        if (error instanceof GraphFileError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
        throw error;
      }
    }),
  );
}
