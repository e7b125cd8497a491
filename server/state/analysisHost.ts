/**
 * Holds each open document's last state analysis and re-analyses from its new text or from the
 * edits since: the analysis worker runs one, and the server runs one on its own thread for small
 * documents, whose analysis costs less than starting a worker.
 */
import { createStateService, type StateAnalysis, type StateSnapshot } from '../../shared/state';
import { applyEditsInSequence } from '../../shared/edits';
import type { WorkerAnalysis, WorkerRequest, WorkerResponse } from './workerMessages';

const { analyze: analyzeState, reanalyze: reanalyzeState } = createStateService();

const summary = (analysis: StateAnalysis): WorkerAnalysis => ({ diagnostics: analysis.diagnostics, shape: analysis.shape, parsedWith: analysis.parsedWith, stateSchema: analysis.stateSchema });

export class AnalysisHost {
  private readonly documents = new Map<string, StateAnalysis>();

  /** `readFile` answers `file` requests (the worker reads from disk); without it they fail as unreadable. */
  constructor(private readonly readFile?: (path: string) => string) {}

  /** The snapshot of this document's last analysis when it was of exactly `text`: what navigation reuses instead of parsing again. */
  snapshotOf(uri: string, text: string): StateSnapshot | undefined {
    const analysis = this.documents.get(uri);
    return analysis && analysis.text === text ? analysis : undefined;
  }

  /** Answers one request; `forget` has no answer. */
  handle(request: WorkerRequest): WorkerResponse | undefined {
    switch (request.kind) {
      case 'forget':
        this.documents.delete(request.uri);
        return undefined;
      case 'file': {
        let text: string;
        try {
          // Type and size are checked before reading: a FIFO or device never holds the analysis up.
          if (!this.readFile) throw new Error('files cannot be read here');
          text = this.readFile(request.path);
        } catch (error) {
          return { id: request.id, error: error instanceof Error ? error.message : String(error), unreadable: true };
        }
        return { id: request.id, analysis: summary(analyzeState(text, { stateSchema: request.stateSchema })) };
      }
      case 'document': {
        const previous = this.documents.get(request.uri);
        let text = request.text;
        if (text === undefined) {
          if (!previous || !request.edits) return { id: request.id, resync: true };
          text = applyEditsInSequence(previous.text, request.edits);
        }
        if (text.length !== request.expectedLength) {
          this.documents.delete(request.uri);
          return { id: request.id, resync: true };
        }
        // A changed schema mode makes reanalyzeState start afresh.
        const analysis = previous ? reanalyzeState(previous, text, { stateSchema: request.stateSchema }) : analyzeState(text, { stateSchema: request.stateSchema });
        this.documents.set(request.uri, analysis);
        return { id: request.id, analysis: summary(analysis) };
      }
    }
  }
}
