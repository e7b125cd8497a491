/**
 * The server's side of the resource graph in Node: every picture is drawn in a worker (graphWorker.ts),
 * so no request ever waits for a layout, one job at a time:
 *
 * - a newer request for the same file supersedes the older, queued or running;
 * - a cancelled request ($/cancelRequest) is dropped; a running one stops before its layout (the state
 *   it read and built is kept for the next picture), and one whose layout began is stopped by ending
 *   the worker, since a layout cannot be interrupted from outside;
 * - a job that runs past its time ends the worker too, and is answered with the same picture placed in
 *   rows (no layered layout), which says so: never a hang.
 *
 * An ended worker is replaced by the next job, which then sends the text again.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CancellationToken } from 'vscode-languageserver';
import type { ResourceGraphResult } from '../../shared/protocol';
import { l10nBundle } from '../../shared/l10n';
import { uriToPath } from '../workspace';
import type { GraphSource, GraphWorkerRequest, GraphWorkerResponse } from './graphMessages';
import { settle, type GraphRun, type GraphRunner } from './graphRunner';
import type { WorkerData } from './workerMessages';

/** How long one picture may take before the worker is ended and the picture placed in rows instead. */
const GRAPH_BUDGET_MS = 20_000;
/** How long a cancelled layout may still run before the worker is ended for it. */
const STOP_AFTER_MS = 250;

interface Queued {
  id: number;
  job: GraphRun;
  resolve: (view: ResourceGraphResult | null) => void;
  reject: (error: Error) => void;
  cancelled: boolean;
  /** Set once a worker ended on this job: it is retried in rows. */
  retried: boolean;
}

export class WorkerGraphRunner implements GraphRunner {
  private worker: Worker | undefined;
  /** The document version (or file stamp) the current worker holds, per uri. */
  private readonly holds = new Map<string, string>();
  private readonly queue: Queued[] = [];
  private running: { entry: Queued; timer: ReturnType<typeof setTimeout>; layingOut?: boolean } | undefined;
  /** The id of the job cancelled while running, which the worker reads between its steps. */
  private readonly cancelledJob = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;

  constructor(
    private readonly log: (message: string) => void,
    private readonly script = join(__dirname, 'graphWorker.js'),
    private readonly budgetMs = GRAPH_BUDGET_MS,
  ) {}

  run(job: GraphRun, token?: CancellationToken): Promise<ResourceGraphResult | null> {
    if (job.source.kind === 'disk' && !job.uri.startsWith('file:')) return Promise.resolve(null);
    // A newer picture of the same file supersedes the older ones.
    for (const entry of this.queue) if (entry.job.uri === job.uri) this.cancel(entry);
    if (this.running?.entry.job.uri === job.uri) this.cancel(this.running.entry);
    return new Promise((resolve, reject) => {
      const entry: Queued = { id: this.nextId++, job, resolve, reject, cancelled: false, retried: false };
      token?.onCancellationRequested(() => this.cancel(entry));
      this.queue.push(entry);
      this.pump();
    });
  }

  forget(uri: string): void {
    this.holds.delete(uri);
    this.worker?.postMessage({ kind: 'forget', uri } satisfies GraphWorkerRequest);
  }

  private cancel(entry: Queued): void {
    if (entry.cancelled) return;
    entry.cancelled = true;
    entry.resolve(null);
    const index = this.queue.indexOf(entry);
    if (index >= 0) this.queue.splice(index, 1);
    if (this.running?.entry !== entry) return;
    Atomics.store(this.cancelledJob, 0, entry.id);
    if (this.running.layingOut) this.stopSoon(entry);
  }

  /** A cancelled layout still running after STOP_AFTER_MS ends the worker; a shorter one is let finish (a new worker reads the state again). */
  private stopSoon(entry: Queued): void {
    setTimeout(() => {
      if (this.running?.entry === entry) this.endWorker('a cancelled picture was still being laid out');
    }, STOP_AFTER_MS).unref();
  }

  private pump(): void {
    if (this.running) return;
    const entry = this.queue.shift();
    if (!entry) return;
    const worker = this.worker ?? this.start();
    const { job } = entry;
    let source: GraphSource;
    if (job.source.kind === 'document') {
      const held = this.holds.get(job.uri) === String(job.source.version);
      source = { kind: 'document', version: job.source.version, ...(held ? {} : { text: job.source.text() }) };
    } else {
      // The file's size and time tell a changed file: the worker reads it again.
      const path = uriToPath(job.uri);
      let stamp = 'unreadable';
      try {
        const stats = statSync(path);
        stamp = `${stats.size}:${stats.mtimeMs}`;
      } catch {
        // The worker's read names the problem.
      }
      source = { kind: 'file', path, stamp };
    }
    const stamp = source.kind === 'document' ? String(source.version) : source.stamp;
    const request = entry.retried ? { ...job.request, layout: 'grid' as const } : job.request;
    const timer = setTimeout(() => {
      if (this.running?.entry !== entry) return;
      if (entry.retried) {
        entry.reject(new Error(`The resource graph of ${job.uri} could not be drawn in ${this.budgetMs} ms, even placed in rows`));
        this.endWorker('a picture ran past its time twice');
        return;
      }
      this.log(`The resource graph of ${job.uri} ran past ${this.budgetMs} ms; it is placed in rows instead`);
      entry.retried = true;
      this.queue.unshift(entry);
      this.endWorker('a picture ran past its time');
    }, this.budgetMs);
    this.running = { entry, timer };
    this.holds.set(job.uri, stamp);
    worker.postMessage({ id: entry.id, kind: 'graph', ...job, source, request } satisfies GraphWorkerRequest);
  }

  private finish(response: GraphWorkerResponse): void {
    const running = this.running;
    if (!running || running.entry.id !== response.id) return;
    if ('layingOut' in response) {
      running.layingOut = true;
      if (running.entry.cancelled) this.stopSoon(running.entry);
      return;
    }
    clearTimeout(running.timer);
    this.running = undefined;
    const { entry } = running;
    if ('resync' in response) {
      // The worker was replaced since: send the text.
      this.holds.delete(entry.job.uri);
      this.queue.unshift(entry);
    } else if (!entry.cancelled) {
      try {
        entry.resolve(settle(response));
      } catch (error) {
        entry.reject(error as Error);
      }
    }
    this.pump();
  }

  private start(): Worker {
    const worker = new Worker(this.script, { workerData: { l10nBundle: l10nBundle(), cancelledJob: this.cancelledJob.buffer as SharedArrayBuffer } satisfies WorkerData });
    worker.on('message', (response: GraphWorkerResponse) => {
      if (this.worker === worker) this.finish(response);
    });
    const stopped = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.holds.clear();
      this.log(`Resource graph worker stopped: ${reason}`);
      const running = this.running;
      this.running = undefined;
      if (running) {
        clearTimeout(running.timer);
        // A worker that dies on a job (out of memory, say) does not get it again: the picture fails, named.
        if (!running.entry.cancelled) running.entry.reject(new Error(`The resource graph worker stopped: ${reason}`));
      }
      this.pump();
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends the worker on purpose: the job it ran is cancelled or queued again already. */
  private endWorker(reason: string): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.holds.clear();
    if (this.running) clearTimeout(this.running.timer);
    this.running = undefined;
    this.log(`Resource graph worker ended: ${reason}`);
    void worker.terminate();
    this.pump();
  }
}
