/**
 * Who draws the resource graph's pictures, as the state mode sees it. Node's server draws in a worker
 * (graphWorkerRunner.ts); the browser's has no worker threads and draws on its own thread
 * (`InThreadGraphRunner`), within the same caps on what is laid out.
 */
import * as l10n from '@vscode/l10n';
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
  if ('cancelled' in answer) return null;
  if ('error' in answer) throw answer.unreadable ? new GraphFileError(answer.error) : new Error(answer.error);
  if ('resync' in answer) throw new Error('The graph worker lost the text it was sent');
  return answer.view;
}

/**
 * Draws on the calling thread (the browser's server). A file no editor holds is read with `readText`
 * (the client's `vscode.workspace.fs`: the browser's server has no disk), each time it is drawn, and
 * parsed again only when its text changed; without `readText` such a file has no picture.
 */
export class InThreadGraphRunner implements GraphRunner {
  /** The text last read for each file, and a stamp that changes with it. */
  private readonly read = new Map<string, { text: string; stamp: string }>();
  private stamps = 0;
  private readonly host = new GraphHost((uri) => this.read.get(uri)?.text ?? '');

  constructor(private readonly readText?: (uri: string) => Promise<string | null>) {}

  async run(job: GraphRun, token?: CancellationToken): Promise<ResourceGraphResult | null> {
    if (token?.isCancellationRequested) return null;
    if (job.source.kind === 'document') return settle(this.host.answer({ ...job, source: { ...job.source, text: job.source.text() } }));
    if (!this.readText) return null;
    const text = await this.readText(job.uri);
    if (text === null) throw new GraphFileError(l10n.t('Could not read {0}', job.uri));
    if (token?.isCancellationRequested) return null;
    const last = this.read.get(job.uri);
    const stamp = last?.text === text ? last.stamp : `read ${++this.stamps}`;
    this.read.set(job.uri, { text, stamp });
    return settle(this.host.answer({ ...job, source: { kind: 'file', path: job.uri, stamp } }));
  }

  forget(uri: string): void {
    this.read.delete(uri);
    this.host.forget(uri);
  }
}
