/** Messages between the server and its state analysis worker (analysisWorker.ts). */
import type { Diagnostic } from '../../shared/diagnostics';
import type { StateSchemaMode, StateShape } from '../../shared/state';
import type { TextEdit } from '../../shared/edits';
import type { L10nBundle } from '../../shared/l10n';

/** What the worker is started with: the server's l10n bundle, so its diagnostics speak the editor's language. */
export interface WorkerData {
  l10nBundle?: L10nBundle;
  /** The graph worker's: the id of the job the server cancelled (an Int32Array over it), read between its steps. */
  cancelledJob?: SharedArrayBuffer;
}

export type WorkerRequest =
  /** An open document: its whole text, or the edits since the version the worker last saw. */
  | { id: number; kind: 'document'; uri: string; text?: string; edits?: TextEdit[]; expectedLength: number; stateSchema: StateSchemaMode }
  /** A file the editor does not sync: the worker reads it itself (no 100 MB message). */
  | { id: number; kind: 'file'; path: string; stateSchema: StateSchemaMode }
  | { id?: undefined; kind: 'forget'; uri: string };

export interface WorkerAnalysis {
  diagnostics: Diagnostic[];
  shape: StateShape;
  parsedWith: 'json' | 'tolerant';
  /** The schema mode the analysis ran in. */
  stateSchema: StateSchemaMode;
}

export type WorkerResponse =
  | { id: number; analysis: WorkerAnalysis }
  /** The worker had no base text for the edits (or they did not add up): send the whole text. */
  | { id: number; resync: true }
  /** `unreadable`: the file could not be read (as opposed to a failed analysis). */
  | { id: number; error: string; unreadable?: boolean };
