/**
 * Worker thread that lays out the resource graph's pictures off the server's main thread: a whole
 * graph of thousands of resources costs seconds, and hover, completion and diagnostics must never
 * wait for it. The server sends one job at a time, and ends the worker when a job is cancelled or
 * runs past its time (graphRunner.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeFile } from '../../shared/text/inflate';
import { useL10nBundle } from '../../shared/l10n';
import { readRegularBytes } from '../../shared/node/regularFiles';
import { GraphHost } from './graphHost';
import type { GraphWorkerRequest, GraphWorkerResponse } from './graphMessages';
import type { WorkerData } from './workerMessages';

const data = workerData as WorkerData | undefined;
useL10nBundle(data?.l10nBundle);
/** The job the server cancelled: read between the steps of a job, since a busy thread reads no message. */
const cancelledJob = data?.cancelledJob ? new Int32Array(data.cancelledJob) : undefined;

// A state file not open in an editor is read from disk, compressed or not, within the shared size limit.
const host = new GraphHost((path) => decodeFile(readRegularBytes(path), { name: path }).text);

parentPort!.on('message', (request: GraphWorkerRequest) => {
  if (request.kind === 'forget') {
    host.forget(request.uri);
    return;
  }
  let response: GraphWorkerResponse;
  try {
    const beforeLayout = () => {
      if (cancelledJob && Atomics.load(cancelledJob, 0) === request.id) return false;
      parentPort!.postMessage({ id: request.id, layingOut: true } satisfies GraphWorkerResponse);
      return true;
    };
    response = { id: request.id, ...host.answer(request, beforeLayout) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(response);
});
