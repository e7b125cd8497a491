/** Starts the bundled language server (dist/server/server.js) over IPC and connects it to VS Code. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { SECRETS_COMMANDS, SETTINGS_SECTION } from '../shared/protocol';
import { REMOTE_URI_SCHEMES } from './backends/remoteUris';

/**
 * JSON and JSONC documents on disk or untitled: the server recognises state and quota files by
 * name first, then by content (an exported stack is often just `stack.json`), and ignores the rest.
 */
export const DOCUMENT_SELECTOR: Array<{ scheme: string; language: string }> = [
  { scheme: 'file', language: 'json' },
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'untitled', language: 'json' },
  { scheme: 'untitled', language: 'jsonc' },
  // Compressed DIY stack files, opened decompressed (client/compressedState.ts).
  { scheme: 'pulumi-gz', language: 'json' },
  // A DIY backend's files shown read-only by the Pulumi Backends view (client/backends/documents.ts).
  { scheme: 'pulumi-backend', language: 'json' },
  // A stack object of a remote backend, opened editable (client/backends/bucketFileSystem.ts).
  ...REMOTE_URI_SCHEMES.map((scheme) => ({ scheme, language: 'json' })),
  // Forgejo's app.ini (and files matched by `quotaState.files.appIni`); other INI files are ignored by the server.
  { scheme: 'file', language: 'ini' },
];

/**
 * `isQuotaDocument` tells quota files apart (the server's document status): VS Code's JSON
 * extension already gives them document symbols, and two providers made the breadcrumb flip
 * between two trees as the cursor moved, so ours are left out there. Rules, groups and
 * accounts stay reachable through workspace symbols, code lenses and the dashboard.
 */
export function createLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, isQuotaDocument: (document: vscode.TextDocument) => boolean = () => false): LanguageClient {
  const serverModule = context.asAbsolutePath('dist/server/server.js');
  // The server's compiled code is cached in the extension's own storage (server/codeCache.ts).
  const env = { ...process.env, QUOTA_STATE_CODE_CACHE_DIR: path.join(context.globalStorageUri.fsPath, 'code-cache') };
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { env } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { env, execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: log,
    // The server pulls `quotaState` through workspace/configuration; this also sends it at start.
    initializationOptions: { settings: vscode.workspace.getConfiguration(SETTINGS_SECTION), l10nBundle: vscode.l10n.bundle },
    // The project configuration (shared/projectConfig.ts) changes what the server reports.
    synchronize: { configurationSection: SETTINGS_SECTION, fileEvents: vscode.workspace.createFileSystemWatcher('**/.quota-state.json') },
    middleware: {
      provideDocumentSymbols: (document, token, next) => (isQuotaDocument(document) ? [] : next(document, token)),
    },
    // A hover's Reveal link (a secret in a state file) is the one command the server's Markdown may run.
    markdown: { isTrusted: { enabledCommands: [SECRETS_COMMANDS.reveal] } },
  };
  // The id makes the client honour the `quotaState.trace.server` setting.
  return new LanguageClient('quotaState', 'Quota & State Language Server', serverOptions, clientOptions);
}
