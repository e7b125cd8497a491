/**
 * The language server process in Node: runs over IPC, stdio or a socket (chosen by
 * vscode-languageserver from the command line: --node-ipc, --stdio, --socket=N). Large state
 * documents are analysed on a worker thread; app.ini's quota file and `.quota-state.json` are read from disk.
 */
import { readFileSync } from 'node:fs';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { diskLookupIo } from '../shared/node/diskLookup';
import { diskConfigLookup } from './projectFiles';
import { startServer } from './serverMain';
import { registerAnalyzeFromDisk } from './state/fromDisk';
import { StateAnalyzer } from './state/stateAnalyzer';
import { WorkerGraphRunner } from './state/graphWorkerRunner';
import { uriToPath } from './workspace';

const findConfig = diskConfigLookup();
const workspace = startServer(createConnection(ProposedFeatures.all), {
  projectConfig: () => ({ find: findConfig }),
  // An open editor's unsaved text counts as the file's content.
  appIniLookup: (openText) => {
    const io = diskLookupIo((path) => openText(path) ?? readFileSync(path, 'utf8'));
    return (uri) => (uri.startsWith('file:') ? { path: uriToPath(uri), io } : undefined);
  },
  stateAnalyzer: (edits, log) => new StateAnalyzer(edits, log),
  graphRunner: (log) => new WorkerGraphRunner(log),
  register: (workspace, analyzer) => registerAnalyzeFromDisk(workspace, analyzer as StateAnalyzer),
});

// A bug must never take the server down: log it and keep answering.
process.on('uncaughtException', (error) => workspace.logError(`Uncaught error: ${error.stack ?? error.message}`));
process.on('unhandledRejection', (reason) => workspace.logError(`Unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));
