/**
 * The standard LSP requests, each a thin dispatch to the mode of the document it names.
 * A document that is not ours (or a mode without the feature) gets the empty answer.
 */
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

export function registerRequests(workspace: ServerWorkspace): void {
  const { connection } = workspace;
  const withMode = <T>(uri: string, what: string, token: Parameters<typeof runSafe>[2], fallback: T, call: (m: NonNullable<ReturnType<ServerWorkspace['modeOf']>>) => T | undefined) =>
    runSafe(workspace, what, token, fallback, () => {
      const target = workspace.modeOf(uri);
      return target ? call(target) ?? fallback : fallback;
    });

  connection.onHover((p, token) => withMode(p.textDocument.uri, 'Hover', token, null, ({ mode, document }) => mode.hover?.(document, p.position, token)));
  connection.onDefinition((p, token) =>
    withMode(p.textDocument.uri, 'Definition', token, null, ({ mode, document }) => mode.definition?.(document, p.position, token)),
  );
  connection.onReferences((p, token) =>
    withMode(p.textDocument.uri, 'References', token, null, ({ mode, document }) =>
      mode.references?.(document, p.position, p.context.includeDeclaration, token),
    ),
  );
  connection.onPrepareRename((p, token) =>
    withMode(p.textDocument.uri, 'Prepare rename', token, null, ({ mode, document }) => mode.prepareRename?.(document, p.position, token)),
  );
  connection.onRenameRequest((p, token) =>
    withMode(p.textDocument.uri, 'Rename', token, null, ({ mode, document }) => mode.rename?.(document, p.position, p.newName, token)),
  );
  connection.onCompletion((p, token) =>
    withMode(p.textDocument.uri, 'Completion', token, null, ({ mode, document }) => mode.completion?.(document, p.position, token)),
  );
  connection.onCodeAction((p, token) =>
    withMode(p.textDocument.uri, 'Code actions', token, [], ({ mode, document }) => mode.codeActions?.(document, p.range, p.context, token)),
  );
  connection.onCodeLens((p, token) => withMode(p.textDocument.uri, 'Code lens', token, [], ({ mode, document }) => mode.codeLenses?.(document, token)));
  connection.onDocumentSymbol((p, token) =>
    withMode(p.textDocument.uri, 'Document symbols', token, [], ({ mode, document }) => mode.documentSymbols?.(document, token)),
  );
  connection.languages.inlayHint.on((p, token) =>
    withMode(p.textDocument.uri, 'Inlay hints', token, [], ({ mode, document }) => mode.inlayHints?.(document, p.range, token)),
  );
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
