/**
 * Worker thread that validates state files off the server's main thread, so hover, completion
 * and every other request are answered while a large file is being analysed. It keeps each
 * open document's last analysis and text, and re-analyses from the edits it is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readRegularFile } from '../../shared/node/regularFiles';
import { AnalysisHost } from './analysisHost';
import { useL10nBundle } from '../../shared/l10n';
import type { WorkerData, WorkerRequest } from './workerMessages';

// The server's language (absent in English): the worker's diagnostics are the ones the editor shows.
useL10nBundle((workerData as WorkerData | undefined)?.l10nBundle);

const host = new AnalysisHost(readRegularFile);

parentPort!.on('message', (request: WorkerRequest) => {
  try {
    const response = host.handle(request);
    if (response) parentPort!.postMessage(response);
  } catch (error) {
    if (request.id !== undefined) parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
