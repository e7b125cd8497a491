/**
 * The language server process: wires the connection, documents, settings and one language
 * mode per document kind to the feature modules. Runs over IPC, stdio or a socket (chosen
 * by vscode-languageserver from the command line: --node-ipc, --stdio, --socket=N).
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { registerDependents } from './features/dependents';
import { registerLiveGroups } from './features/liveGroups';
import { registerQuotaPreview } from './features/quotaPreview';
import { registerRequests } from './features/requests';
import { registerSurgery } from './features/surgery';
import { Validation } from './features/validation';
import { createIniMode } from './modes/iniMode';
import { createQuotaMode } from './modes/quotaMode';
import { createStateMode } from './modes/stateMode';
import { EditLog } from './state/editLog';
import { registerAnalyzeFromDisk } from './state/fromDisk';
import { StateAnalyzer } from './state/stateAnalyzer';
import { ServerWorkspace } from './workspace';

const connection = createConnection(ProposedFeatures.all);
// The edit log doubles as the documents' update function, recording edits for the analysis worker.
const editLog = new EditLog();
const documents = new TextDocuments<TextDocument>(editLog);
const workspace = new ServerWorkspace(connection, documents);
const stateAnalyzer = new StateAnalyzer(editLog, (message) => workspace.log(message));
const quotaMode = createQuotaMode(workspace);
const stateMode = createStateMode(workspace, stateAnalyzer);
workspace.addMode(stateMode);
workspace.addMode(quotaMode);
workspace.addMode(createIniMode(workspace));

const validation = new Validation(workspace);
registerRequests(workspace);
registerAnalyzeFromDisk(workspace, stateAnalyzer);
registerDependents(workspace, stateMode);
registerSurgery(workspace, stateMode);

const refreshViews = () => {
  validation.revalidateAll();
  if (workspace.supportsInlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
  if (workspace.supportsCodeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
};
registerQuotaPreview(workspace, quotaMode, refreshViews);
registerLiveGroups(workspace, () => validation.revalidateAll());

connection.onInitialize((params): InitializeResult => {
  const capabilities = params.capabilities;
  workspace.supportsConfiguration = capabilities.workspace?.configuration === true;
  workspace.supportsInlayHintRefresh = capabilities.workspace?.inlayHint?.refreshSupport === true;
  workspace.supportsCodeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
  workspace.supportsCodeActionResolve = capabilities.textDocument?.codeAction?.resolveSupport?.properties?.includes('edit') === true;
  const initial = params.initializationOptions as { settings?: typeof workspace.settings } | undefined;
  if (initial?.settings) workspace.settings = initial.settings;
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
  // The worker starts now, beside the first small documents (analysed on this thread), so a large one opened later finds it ready.
  setImmediate(() => stateAnalyzer.warmUp());
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
  workspace.projectConfigChanged();
  validation.revalidateAll();
});

// A bug must never take the server down: log it and keep answering.
process.on('uncaughtException', (error) => workspace.logError(`Uncaught error: ${error.stack ?? error.message}`));
process.on('unhandledRejection', (reason) => workspace.logError(`Unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));

documents.listen(connection);
connection.listen();
