/**
 * The server's side of the state analysis worker: sends each open document's edits (or whole
 * text when the worker has none to build on) and the paths of files analysed from disk, and
 * resolves with the worker's diagnostics. A worker that dies is replaced on the next request,
 * which then sends whole texts again; requests in flight fail with a clear error. Small documents
 * are analysed on the server's own thread: that takes less than a message round trip, and the
 * first diagnostics after start need no worker at all.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { StateSchemaMode, StateSnapshot } from '../../shared/state';
import { AnalysisHost } from './analysisHost';
import type { DocumentAnalyzer } from './documentAnalyzer';
import type { EditLog } from './editLog';
import { l10nBundle } from '../../shared/l10n';
import type { WorkerAnalysis, WorkerData, WorkerRequest, WorkerResponse } from './workerMessages';

type Pending = { resolve: (response: WorkerResponse) => void; reject: (error: Error) => void };
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * Documents up to this many characters are analysed on the server's thread: a few milliseconds of
 * work, which never holds other requests up noticeably.
 */
const MAIN_THREAD_LIMIT = 256 * 1024;

/** The file to analyse from disk could not be read. */
export class FileReadError extends Error {}

export class StateAnalyzer implements DocumentAnalyzer {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Pending>();
  /** Documents whose text the current worker holds. */
  private readonly synced = new Set<string>();
  /** Analyses of the small documents, kept on this thread. */
  private readonly local = new AnalysisHost();

  constructor(
    private readonly edits: EditLog,
    private readonly log: (message: string) => void,
    private readonly script = join(__dirname, 'stateWorker.js'),
    private readonly mainThreadLimit = MAIN_THREAD_LIMIT,
    /** The l10n bundle each worker starts with: the one the client gave at initialize. */
    private readonly bundle: () => WorkerData['l10nBundle'] = l10nBundle,
  ) {}

  /** Starts the worker ahead of the first large document, so its open does not pay the worker's start. */
  warmUp(): void {
    if (!this.worker) this.start();
  }

  async analyzeDocument(document: TextDocument, schema: StateSchemaMode): Promise<WorkerAnalysis> {
    const uri = document.uri;
    const edits = this.edits.take(uri);
    const expectedLength = document.getText().length;
    if (expectedLength <= this.mainThreadLimit) return this.analyzeHere(document, schema);
    this.local.handle({ kind: 'forget', uri });
    const first = edits && this.synced.has(uri) ? { kind: 'document' as const, uri, edits, expectedLength, stateSchema: schema } : this.wholeText(document, schema);
    this.synced.add(uri);
    let response = await this.send(first);
    if ('resync' in response) {
      this.edits.take(uri); // the whole text includes them
      response = await this.send(this.wholeText(document, schema));
    }
    if ('error' in response) throw new Error(response.error);
    if ('resync' in response) throw new Error(`The analysis worker could not take the text of ${uri}`);
    return response.analysis;
  }

  /** The whole text, from the previous analysis of this thread (the edit log is not needed here). */
  private analyzeHere(document: TextDocument, schema: StateSchemaMode): WorkerAnalysis {
    const uri = document.uri;
    if (this.synced.delete(uri)) this.worker?.postMessage({ kind: 'forget', uri } satisfies WorkerRequest);
    const text = document.getText();
    const response = this.local.handle({ id: 0, kind: 'document', uri, text, expectedLength: text.length, stateSchema: schema });
    if (!response || !('analysis' in response)) throw new Error(response && 'error' in response ? response.error : `The analysis of ${uri} failed`);
    return response.analysis;
  }

  async analyzeFile(path: string, schema: StateSchemaMode): Promise<WorkerAnalysis> {
    const response = await this.send({ kind: 'file', path, stateSchema: schema });
    if ('error' in response) throw response.unreadable ? new FileReadError(response.error) : new Error(response.error);
    if ('resync' in response) throw new Error('unexpected resync');
    return response.analysis;
  }

  forget(uri: string): void {
    this.edits.forget(uri);
    this.local.handle({ kind: 'forget', uri });
    if (this.synced.delete(uri)) this.worker?.postMessage({ kind: 'forget', uri } satisfies WorkerRequest);
  }

  /** Only what this thread analysed: the worker's snapshots stay in the worker. */
  snapshotOf(uri: string, text: string): StateSnapshot | undefined {
    return this.local.snapshotOf(uri, text);
  }

  private wholeText(document: TextDocument, schema: StateSchemaMode) {
    const text = document.getText();
    return { kind: 'document' as const, uri: document.uri, text, expectedLength: text.length, stateSchema: schema };
  }

  private send(request: WithoutId<WorkerRequest>): Promise<WorkerResponse> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<WorkerResponse>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  private start(): Worker {
    const worker = new Worker(this.script, { workerData: { l10nBundle: this.bundle() } satisfies WorkerData });
    worker.on('message', (response: WorkerResponse) => {
      const pending = this.waiting.get(response.id);
      this.waiting.delete(response.id);
      pending?.resolve(response);
    });
    const fail = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.synced.clear();
      this.log(`State analysis worker stopped: ${reason}`);
      for (const pending of this.waiting.values()) pending.reject(new Error(`The state analysis worker stopped: ${reason}`));
      this.waiting.clear();
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    // Never keeps the process alive on its own; after the listeners, since a 'message' listener refs the port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
