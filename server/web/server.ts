/**
 * The language server in a browser's web worker (vscode.dev, github.dev): the same server as in
 * Node, over the worker's messages. No worker threads (every document is analysed here) and no
 * disk: `.quota-state.json` comes through the client's `vscode.workspace.fs`, an app.ini's quota
 * file counts only when it is open, and a state file VS Code does not hand over (over 50 MB) is
 * reported as unavailable rather than read from disk.
 */
import * as l10n from '@vscode/l10n';
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import type { LookupIo } from '../../shared/ini/quotaFileLookup';
import { AnalyzeFromDiskNotification, DocumentStatusNotification } from '../../shared/protocol';
import { startServer } from '../serverMain';
import { MainThreadAnalyzer } from '../state/documentAnalyzer';
import { ClientConfigLookup } from './projectFiles';

/** The worker's global scope (the project compiles without the DOM library). */
declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const tooLargeInBrowser = () =>
  l10n.t('VS Code does not hand this file to extensions (over 50 MB), and in the browser the language server cannot read it from disk; check it with `quota-state check` instead.');

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
startServer(connection, {
  projectConfig: (connection, changed) => new ClientConfigLookup(connection, changed),
  lookupIo: (openText): LookupIo => ({ readDir: () => undefined, readFile: (path) => openText(path) }),
  stateAnalyzer: (edits) => new MainThreadAnalyzer(edits),
  register: (workspace) =>
    connection.onNotification(AnalyzeFromDiskNotification, async ({ uri }) => {
      if (workspace.documents.get(uri)) return;
      await connection.sendNotification(DocumentStatusNotification, { uri, kind: 'state', fromDisk: true, unavailable: [{ feature: 'diagnostics', reason: tooLargeInBrowser() }] });
    }),
});
