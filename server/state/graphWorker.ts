/**
 * Worker thread that lays out the resource graph's pictures off the server's main thread: a whole
 * graph of thousands of resources costs seconds, and hover, completion and diagnostics must never
 * wait for it. The server sends one job at a time, and ends the worker when a job is cancelled or
 * runs past its time (graphRunner.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeFile } from '../../shared/text/inflate';
import { useL10nBundle } from '../../shared/l10n';
import { readRegularBytes } from '../regularFiles';
import { GraphHost } from './graphHost';
import type { GraphWorkerRequest, GraphWorkerResponse } from './graphMessages';
import type { WorkerData } from './workerMessages';

useL10nBundle((workerData as WorkerData | undefined)?.l10nBundle);

// A state file not open in an editor is read from disk, compressed or not, within the shared size limit.
const host = new GraphHost((path) => decodeFile(readRegularBytes(path), { name: path }).text);

parentPort!.on('message', (request: GraphWorkerRequest) => {
  if (request.kind === 'forget') {
    host.forget(request.uri);
    return;
  }
  let response: GraphWorkerResponse;
  try {
    response = { id: request.id, ...host.answer(request) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(response);
});
