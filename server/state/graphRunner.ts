/**
 * Who draws the resource graph's pictures, as the state mode sees it. Node's server draws in a worker
 * (graphWorkerRunner.ts); the browser's has no worker threads and draws on its own thread
 * (`InThreadGraphRunner`), within the same caps on what is laid out.
 */
import type { CancellationToken } from 'vscode-languageserver';
import type { ResourceGraphResult } from '../../shared/protocol';
import { GraphHost } from './graphHost';
import type { GraphAnswer, GraphJob } from './graphMessages';

/** A job with its document's text given lazily: it crosses to the worker only when the worker lacks that version. */
export interface GraphRun extends Omit<GraphJob, 'source'> {
  /** An open document, or (`disk`) the file the uri names, read from disk by whoever draws. */
  source: { kind: 'document'; version: number; text: () => string } | { kind: 'disk' };
}

/** What the state mode asks of whoever draws. `null`: the request was superseded or cancelled. */
export interface GraphRunner {
  run(job: GraphRun, token?: CancellationToken): Promise<ResourceGraphResult | null>;
  forget(uri: string): void;
}

/** The file could not be read from disk (its message names it). */
export class GraphFileError extends Error {}

export function settle(answer: GraphAnswer): ResourceGraphResult | null {
  if ('error' in answer) throw answer.unreadable ? new GraphFileError(answer.error) : new Error(answer.error);
  if ('resync' in answer) throw new Error('The graph worker lost the text it was sent');
  return answer.view;
}

/** Draws on the calling thread (the browser's server). */
export class InThreadGraphRunner implements GraphRunner {
  private readonly host = new GraphHost();

  async run(job: GraphRun, token?: CancellationToken): Promise<ResourceGraphResult | null> {
    if (token?.isCancellationRequested) return null;
    // No disk here: a file that is not open has no picture.
    if (job.source.kind === 'disk') return null;
    return settle(this.host.answer({ ...job, source: { ...job.source, text: job.source.text() } }));
  }

  forget(uri: string): void {
    this.host.forget(uri);
  }
}
