/**
 * The standard LSP requests, each a thin dispatch to the mode of the document it names.
 * A document that is not ours (or a mode without the feature) gets the empty answer.
 */
import { ErrorCodes, ResponseError } from '../lsp';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

const isNumber = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isPosition = (value: unknown) => typeof value === 'object' && value !== null && isNumber((value as { line?: unknown }).line) && isNumber((value as { character?: unknown }).character);
const isRange = (value: unknown) => typeof value === 'object' && value !== null && isPosition((value as { start?: unknown }).start) && isPosition((value as { end?: unknown }).end);

/**
 * Requests are checked for the fields the handlers read before they run: a malformed one is
 * answered with InvalidParams (as JSON-RPC asks), never a TypeError inside a handler.
 */
function validParams(params: unknown, fields: { position?: boolean; range?: boolean; diagnostics?: boolean; newName?: boolean }): void {
  const p = params as Record<string, unknown> | null;
  const uri = (p?.textDocument as { uri?: unknown } | undefined)?.uri;
  const ok =
    typeof p === 'object' &&
    p !== null &&
    typeof uri === 'string' &&
    (!fields.position || isPosition(p.position)) &&
    (!fields.range || isRange(p.range)) &&
    (!fields.newName || typeof p.newName === 'string') &&
    (!fields.diagnostics ||
      (Array.isArray((p.context as { diagnostics?: unknown } | undefined)?.diagnostics) &&
        (p.context as { diagnostics: unknown[] }).diagnostics.every((d) => typeof d === 'object' && d !== null && isRange((d as { range?: unknown }).range))));
  if (!ok) throw new ResponseError(ErrorCodes.InvalidParams, 'Malformed request parameters');
}

export function registerRequests(workspace: ServerWorkspace): void {
  const { connection } = workspace;
  const withMode = <T>(uri: string, what: string, token: Parameters<typeof runSafe>[2], fallback: T, call: (m: NonNullable<ReturnType<ServerWorkspace['modeOf']>>) => T | undefined) =>
    runSafe(workspace, what, token, fallback, () => {
      const target = workspace.modeOf(uri);
      return target ? (call(target) ?? fallback) : fallback;
    });

  connection.onHover((p, token) => (validParams(p, { position: true }), withMode(p.textDocument.uri, 'Hover', token, null, ({ mode, document }) => mode.hover?.(document, p.position, token))));
  connection.onDefinition((p, token) => {
    validParams(p, { position: true });
    return withMode(p.textDocument.uri, 'Definition', token, null, ({ mode, document }) => mode.definition?.(document, p.position, token));
  });
  connection.onReferences((p, token) => {
    validParams(p, { position: true });
    return withMode(p.textDocument.uri, 'References', token, null, ({ mode, document }) => mode.references?.(document, p.position, p.context?.includeDeclaration === true, token));
  });
  connection.onPrepareRename((p, token) => {
    validParams(p, { position: true });
    return withMode(p.textDocument.uri, 'Prepare rename', token, null, ({ mode, document }) => mode.prepareRename?.(document, p.position, token));
  });
  connection.onRenameRequest((p, token) => {
    validParams(p, { position: true, newName: true });
    return withMode(p.textDocument.uri, 'Rename', token, null, ({ mode, document }) => mode.rename?.(document, p.position, p.newName, token));
  });
  connection.onCompletion((p, token) => {
    validParams(p, { position: true });
    return withMode(p.textDocument.uri, 'Completion', token, null, ({ mode, document }) => mode.completion?.(document, p.position, token));
  });
  connection.onCodeAction((p, token) => {
    validParams(p, { range: true, diagnostics: true });
    return withMode(p.textDocument.uri, 'Code actions', token, [], ({ mode, document }) => {
      const diagnostics = workspace.currentDiagnostics(p.textDocument.uri, p.context.diagnostics);
      return mode.codeActions?.(document, p.range, { ...p.context, diagnostics }, token);
    });
  });
  connection.onCodeLens((p, token) => (validParams(p, {}), withMode(p.textDocument.uri, 'Code lens', token, [], ({ mode, document }) => mode.codeLenses?.(document, token))));
  connection.onDocumentSymbol((p, token) => {
    validParams(p, {});
    return withMode(p.textDocument.uri, 'Document symbols', token, [], ({ mode, document }) => mode.documentSymbols?.(document, token));
  });
  connection.languages.inlayHint.on((p, token) => {
    validParams(p, { range: true });
    return withMode(p.textDocument.uri, 'Inlay hints', token, [], ({ mode, document }) => mode.inlayHints?.(document, p.range, token));
  });
  connection.onWorkspaceSymbol((p, token) =>
    runSafe(workspace, 'Workspace symbols', token, [], () => {
      const documents = workspace.documents.all();
      const results = [];
      for (const mode of workspace.modes.values()) {
        if (!mode.workspaceSymbols) continue;
        const own = documents.filter((d) => workspace.kindOf(d) === mode.kind);
        results.push(...mode.workspaceSymbols(p.query, own, token));
      }
      return results;
    }),
  );
}
