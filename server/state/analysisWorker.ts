/**
 * Worker thread that validates state files off the server's main thread (issue 7), so hover,
 * completion and every other request are answered while a large file is being analysed. It
 * keeps each open document's last analysis and text, and re-analyses from the edits it is sent.
 */
import { parentPort } from 'node:worker_threads';
import { readRegularFile } from '../cli/files';
import { analyzeState, reanalyzeState, type StateAnalysis } from '../../shared/state/analyze';
import { applyEdits } from './editLog';
import type { WorkerAnalysis, WorkerRequest, WorkerResponse } from './workerMessages';

const documents = new Map<string, StateAnalysis>();

const summary = (analysis: StateAnalysis): WorkerAnalysis => ({ diagnostics: analysis.diagnostics, shape: analysis.shape, parsedWith: analysis.parsedWith, mode: analysis.mode });

async function handle(request: WorkerRequest): Promise<WorkerResponse | undefined> {
  switch (request.kind) {
    case 'forget':
      documents.delete(request.uri);
      return undefined;
    case 'file': {
      let text: string;
      try {
        // Type and size are checked before reading: a FIFO or device never holds the worker up.
        text = readRegularFile(request.path);
      } catch (error) {
        return { id: request.id, error: error instanceof Error ? error.message : String(error), unreadable: true };
      }
      return { id: request.id, analysis: summary(analyzeState(text, { schema: request.schema })) };
    }
    case 'document': {
      const previous = documents.get(request.uri);
      let text = request.text;
      if (text === undefined) {
        if (!previous || !request.edits) return { id: request.id, resync: true };
        text = applyEdits(previous.text, request.edits);
      }
      if (text.length !== request.expectedLength) {
        documents.delete(request.uri);
        return { id: request.id, resync: true };
      }
      // A changed schema mode makes reanalyzeState start afresh.
      const analysis = previous ? reanalyzeState(previous, text, { schema: request.schema }) : analyzeState(text, { schema: request.schema });
      documents.set(request.uri, analysis);
      return { id: request.id, analysis: summary(analysis) };
    }
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (response) => response && parentPort!.postMessage(response),
    (error: unknown) => request.id !== undefined && parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
