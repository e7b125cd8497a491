/**
 * What the state mode needs from an analyzer: Node's server uses StateAnalyzer (a worker thread
 * for large documents); the browser's uses MainThreadAnalyzer (no worker threads there).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { StateSchemaMode, StateSnapshot } from '../../shared/state';
import { AnalysisHost } from './analysisHost';
import type { EditLog } from './editLog';
import type { WorkerAnalysis } from './workerMessages';

export interface DocumentAnalyzer {
  /** Readies whatever analyses large documents, ahead of the first one. */
  warmUp(): void;
  analyzeDocument(document: TextDocument, schema: StateSchemaMode): Promise<WorkerAnalysis>;
  forget(uri: string): void;
  /** The parsed snapshot of `text` when this thread analysed exactly that text (small documents, the browser build). */
  snapshotOf(uri: string, text: string): StateSnapshot | undefined;
}

/** Analyses every document on the server's own thread (the browser build: a web worker already). */
export class MainThreadAnalyzer implements DocumentAnalyzer {
  private readonly host = new AnalysisHost();

  constructor(private readonly edits: EditLog) {}

  warmUp(): void {}

  async analyzeDocument(document: TextDocument, schema: StateSchemaMode): Promise<WorkerAnalysis> {
    const uri = document.uri;
    this.edits.take(uri); // the whole text is analysed; the host re-uses what it can of the previous analysis
    const text = document.getText();
    const response = this.host.handle({ id: 0, kind: 'document', uri, text, expectedLength: text.length, stateSchema: schema });
    if (!response || !('analysis' in response)) throw new Error(response && 'error' in response ? response.error : `The analysis of ${uri} failed`);
    return response.analysis;
  }

  forget(uri: string): void {
    this.edits.forget(uri);
    this.host.handle({ kind: 'forget', uri });
  }

  snapshotOf(uri: string, text: string): StateSnapshot | undefined {
    return this.host.snapshotOf(uri, text);
  }
}
