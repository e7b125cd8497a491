/**
 * The language server in a browser's web worker (vscode.dev, github.dev): the same server as in
 * Node, over the worker's messages. No worker threads (every document is analysed and every graph drawn here) and no
 * disk: `.quota-state.json` and an app.ini's quota file come through the client's
 * `vscode.workspace.fs` (./projectFiles.ts), and a state file VS Code does not hand over (over
 * 50 MB) is reported as unavailable rather than read from disk.
 */
import * as l10n from '@vscode/l10n';
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { AnalyzeFromDiskNotification, DocumentStatusNotification, ReadWorkspaceFileRequest } from '../../shared/protocol';
import { startServer } from '../serverMain';
import { MainThreadAnalyzer } from '../state/documentAnalyzer';
import { InThreadGraphRunner } from '../state/graphRunner';
import type { ServerWorkspace } from '../workspace';
import { ClientFiles, clientAppIniLookup, findClientConfig } from './projectFiles';

/** The worker's global scope (the project compiles without the DOM library). */
declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const tooLargeInBrowser = () =>
  l10n.t('VS Code does not hand this file to extensions (over 50 MB), and in the browser the language server cannot read it from disk; check it with `quota-state check` instead.');

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
// startServer asks for the project configuration first, then for the app.ini lookup: both share the client's files.
let files: ClientFiles | undefined;
let workspace: ServerWorkspace | undefined;
startServer(connection, {
  projectConfig: (connection, changed) => {
    files = new ClientFiles(connection, changed);
    const known = files;
    return { find: (uri) => findClientConfig(known, uri), forget: () => known.forget() };
  },
  appIniLookup: () => clientAppIniLookup(files!, (uri) => workspace?.documents.get(uri)?.getText()),
  stateAnalyzer: (edits) => new MainThreadAnalyzer(edits),
  // A state file no editor holds is drawn from the client's files (an editor refuses one over 50 MB: the graph is its only view).
  graphRunner: () => new InThreadGraphRunner((uri) => connection.sendRequest(ReadWorkspaceFileRequest, { uri })),
  register: (registered) => {
    workspace = registered;
    connection.onNotification(AnalyzeFromDiskNotification, async ({ uri }) => {
      if (registered.documents.get(uri)) return;
      await connection.sendNotification(DocumentStatusNotification, { uri, kind: 'state', fromDisk: true, unavailable: [{ feature: 'diagnostics', reason: tooLargeInBrowser() }] });
    });
  },
});
