/**
 * The language server, whatever runs it: wires the connection, documents, settings and one
 * language mode per document kind to the feature modules. The platform (Node in server/server.ts,
 * a browser worker in server/web/server.ts) supplies the connection and everything that reads files.
 */
import type { Connection, InitializeResult } from 'vscode-languageserver';
import { CodeActionKind, DidChangeConfigurationNotification, TextDocuments, TextDocumentSyncKind } from './lsp';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { registerDependents } from './features/dependents';
import { registerRestorePlan } from './features/restorePlan';
import { registerLiveGroups } from './features/liveGroups';
import { registerQuotaPreview } from './features/quotaPreview';
import { registerRequests } from './features/requests';
import { registerSecrets } from './features/secrets';
import { registerSurgery } from './features/surgery';
import { Validation } from './features/validation';
import { createIniMode } from './modes/iniMode';
import { createQuotaMode } from './modes/quotaMode';
import { createStateMode } from './modes/stateMode';
import type { LookupIo } from '../shared/ini';
import type { ProjectConfig } from '../shared/projectConfig';
import type { DocumentAnalyzer } from './state/documentAnalyzer';
import type { GraphRunner } from './state/graphRunner';
import { EditLog } from './state/editLog';
import { useL10nBundle, type L10nBundle } from '../shared/l10n';
import { ServerWorkspace } from './workspace';

/** What differs between Node and the browser. */
export interface ServerPlatform {
  /**
   * Finds the `.quota-state.json` that applies to a document; `forget` drops what was read when
   * one changes. `changed` re-checks the open documents (for lookups that complete later).
   */
  projectConfig(connection: Connection, changed: () => void): { find(uri: string): ProjectConfig | undefined; forget?(): void };
  /** Where an app.ini's quota file is looked for (createIniMode); `openText` answers for open documents by path. */
  appIniLookup(openText: (path: string) => string | undefined): (uri: string) => { path: string; io: LookupIo } | undefined;
  stateAnalyzer(edits: EditLog, log: (message: string) => void): DocumentAnalyzer;
  /** Who draws the resource graph (Node: a worker); on this thread when absent. */
  graphRunner?(log: (message: string) => void): GraphRunner;
  /** Registers the platform's own handlers (Node: state files analysed from disk). */
  register?(workspace: ServerWorkspace, analyzer: DocumentAnalyzer): void;
}

/** Re-checks the open documents and asks the client to refresh inlay hints and lenses (settings or a preview changed). */
function viewsRefresher(workspace: ServerWorkspace, validation: Validation): () => void {
  const { connection } = workspace;
  return () => {
    validation.revalidateAll();
    if (workspace.supportsInlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (workspace.supportsCodeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  };
}

export function startServer(connection: Connection, platform: ServerPlatform): ServerWorkspace {
  // The edit log doubles as the documents' update function, recording edits for the analysis worker.
  const editLog = new EditLog();
  const documents = new TextDocuments<TextDocument>(editLog);
  // Lookups that complete later (the browser's) re-check the open documents.
  const projectConfig = platform.projectConfig(connection, () => {
    workspace.projectConfigChanged();
    validation.revalidateAll();
  });
  const workspace = new ServerWorkspace(connection, documents, (uri) => projectConfig.find(uri));
  const log = (message: string) => workspace.log(message);
  const stateAnalyzer = platform.stateAnalyzer(editLog, log);
  const quotaMode = createQuotaMode(workspace);
  const stateMode = createStateMode(workspace, stateAnalyzer, platform.graphRunner?.(log));
  workspace.addMode(stateMode);
  workspace.addMode(quotaMode);
  workspace.addMode(
    createIniMode(
      workspace,
      platform.appIniLookup((path) => workspace.openDocumentText(path)),
    ),
  );

  const validation = new Validation(workspace);
  stateMode.useSecrets(registerSecrets(workspace, stateMode, (uri) => validation.revalidate(uri)));
  registerRequests(workspace);
  platform.register?.(workspace, stateAnalyzer);
  registerDependents(workspace, stateMode);
  registerRestorePlan(workspace);
  registerSurgery(workspace, stateMode);

  const refreshViews = viewsRefresher(workspace, validation);
  registerQuotaPreview(workspace, quotaMode, refreshViews);
  registerLiveGroups(workspace, () => validation.revalidateAll());

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    workspace.supportsConfiguration = capabilities.workspace?.configuration === true;
    workspace.supportsInlayHintRefresh = capabilities.workspace?.inlayHint?.refreshSupport === true;
    workspace.supportsCodeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
    workspace.supportsCodeActionResolve = capabilities.textDocument?.codeAction?.resolveSupport?.properties?.includes('edit') === true;
    const initial = params.initializationOptions as { settings?: typeof workspace.settings; l10nBundle?: L10nBundle } | undefined;
    if (initial?.settings) workspace.settings = initial.settings;
    // The client's bundle (vscode.l10n.bundle; absent in English): the server's messages in the editor's language, on every thread.
    useL10nBundle(initial?.l10nBundle);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: ['"', ':'] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source, CodeActionKind.Refactor, CodeActionKind.RefactorRewrite], resolveProvider: true },
        codeLensProvider: { resolveProvider: false },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        inlayHintProvider: true,
      },
      serverInfo: { name: 'quota-state-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    // The worker starts now, beside the first small documents (analysed on this thread), so a large one opened at once
    // (an editor restored with it) finds it booted while its text is still arriving.
    setTimeout(() => stateAnalyzer.warmUp(), 0);
    if (workspace.supportsConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'quotaState' }).catch(() => undefined);
      void workspace.refreshSettings().then(() => validation.revalidateAll());
    }
  });

  connection.onDidChangeConfiguration(async (change) => {
    if (workspace.supportsConfiguration) await workspace.refreshSettings();
    else workspace.settings = (change.settings as { quotaState?: typeof workspace.settings })?.quotaState ?? {};
    refreshViews();
  });

  // The client watches `.quota-state.json`: a changed project configuration re-checks open documents.
  connection.onDidChangeWatchedFiles(() => {
    projectConfig.forget?.();
    workspace.projectConfigChanged();
    validation.revalidateAll();
  });

  documents.listen(connection);
  connection.listen();
  return workspace;
}
