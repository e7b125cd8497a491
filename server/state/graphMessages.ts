/** Messages between the server and its resource graph worker (graphWorker.ts). */
import type { Diagnostic } from '../../shared/diagnostics';
import type { GraphViewRequest } from '../../shared/state';
import type { ResourceGraphResult } from '../../shared/protocol';

/** Where the state to draw comes from: an open document at a version (its text sent when the worker lacks it), or a file on disk. */
export type GraphSource =
  | { kind: 'document'; version: number; text?: string }
  /** `stamp`: the file's size and modification time, so a changed file is read again. */
  | { kind: 'file'; path: string; stamp: string };

export interface GraphJob {
  uri: string;
  source: GraphSource;
  /** The checker's findings on the document (marks on the nodes); none for a file read from disk. */
  diagnostics: Diagnostic[];
  request: GraphViewRequest;
  /** Also answer the whole graph as DOT. */
  dot: boolean;
}

export type GraphWorkerRequest = ({ id: number; kind: 'graph' } & GraphJob) | { id?: undefined; kind: 'forget'; uri: string };

export type GraphAnswer =
  | { view: ResourceGraphResult | null }
  /** The job was cancelled before its layout began: the state it read and built is kept for the next. */
  | { cancelled: true }
  /** The worker does not hold this version of the document: send its text. */
  | { resync: true }
  /** `unreadable`: the file could not be read. */
  | { error: string; unreadable?: boolean };

/** The answer, or (`layingOut`) word that the job's layout began: from here only ending the worker stops it. */
export type GraphWorkerResponse = { id: number } & (GraphAnswer | { layingOut: true });
