/**
 * The browser build's language client (vscode.dev, github.dev): starts the bundled server
 * (dist/web/server.js) in a web worker. esbuild.mjs swaps this module in for ../languageClient.ts.
 */
import * as vscode from 'vscode';
import { BrowserMessageReader, BrowserMessageWriter, LanguageClient, type LanguageClientOptions, type MessageTransports } from 'vscode-languageclient/browser';
import { ReadWorkspaceDirectoryRequest, ReadWorkspaceFileRequest, SECRETS_COMMANDS, SETTINGS_SECTION } from '../../shared/protocol';

/** JSON, JSONC and INI documents on any file system: in the browser they are rarely `file:`. */
export const DOCUMENT_SELECTOR: Array<{ language: string }> = [{ language: 'json' }, { language: 'jsonc' }, { language: 'ini' }];

// The browser globals this module uses (the project compiles without the DOM library).
type WorkerLike = ConstructorParameters<typeof BrowserMessageReader>[0];
declare const Worker: new (url: string) => WorkerLike;
declare const Blob: new (parts: Uint8Array[], options: { type: string }) => unknown;
declare const URL: { createObjectURL(blob: unknown): string };

/**
 * The server's worker. On vscode.dev and github.dev the extension is served over https and the
 * worker loads from its URL. When the extension's files live on a remote (a VS Code server whose
 * web workbench runs the extension in the browser), VS Code refuses workers from `vscode-remote:`
 * URLs, so the script is read through the file system API and started from a blob URL.
 */
async function startServerWorker(context: vscode.ExtensionContext): Promise<WorkerLike> {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist/web/server.js');
  if (script.scheme === 'https' || script.scheme === 'http') return new Worker(script.toString(true));
  const bytes = await vscode.workspace.fs.readFile(script);
  return new Worker(URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' })));
}

export function createLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, isQuotaDocument: (document: vscode.TextDocument) => boolean = () => false): LanguageClient {
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: log,
    // Plain data: a worker's postMessage cannot clone the configuration object's methods (IPC drops them as JSON).
    initializationOptions: { settings: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SETTINGS_SECTION))), l10nBundle: vscode.l10n.bundle },
    // The server keeps what it read through the client until one of these changes (quota files: an app.ini's groups).
    synchronize: {
      configurationSection: SETTINGS_SECTION,
      fileEvents: [vscode.workspace.createFileSystemWatcher('**/.quota-state.json'), vscode.workspace.createFileSystemWatcher('**/{quota.jsonc,*.quota.json,*.quota.jsonc}')],
    },
    middleware: {
      provideDocumentSymbols: (document, token, next) => (isQuotaDocument(document) ? [] : next(document, token)),
    },
    // A hover's Reveal link (a secret in a state file) is the one command the server's Markdown may run.
    markdown: { isTrusted: { enabledCommands: [SECRETS_COMMANDS.reveal] } },
  };
  // Transports rather than the worker: VS Code wraps the global Worker, so the client's `instanceof Worker` would fail.
  const serverOptions = async (): Promise<MessageTransports> => {
    const worker = await startServerWorker(context);
    return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) };
  };
  const client = new LanguageClient('quotaState', 'Quota & State Language Server', serverOptions, clientOptions);
  // The server has no file system here: it reads `.quota-state.json` and an app.ini's quota file through this one.
  client.onRequest(ReadWorkspaceFileRequest, async ({ uri }) => {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri, true)));
    } catch {
      return null;
    }
  });
  client.onRequest(ReadWorkspaceDirectoryRequest, async ({ uri }) => {
    try {
      const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.parse(uri, true));
      return entries.filter(([, type]) => (type & vscode.FileType.File) !== 0).map(([name]) => name);
    } catch {
      return null;
    }
  });
  return client;
}
