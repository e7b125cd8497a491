/**
 * Worker thread that validates state files off the server's main thread, so hover, completion
 * and every other request are answered while a large file is being analysed. It keeps each
 * open document's last analysis and text, and re-analyses from the edits it is sent.
 */
import { parentPort } from 'node:worker_threads';
import { readRegularFile } from '../regularFiles';
import { AnalysisHost } from './analysisHost';
import type { WorkerRequest } from './workerMessages';

const host = new AnalysisHost(readRegularFile);

parentPort!.on('message', (request: WorkerRequest) => {
  try {
    const response = host.handle(request);
    if (response) parentPort!.postMessage(response);
  } catch (error) {
    if (request.id !== undefined) parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
