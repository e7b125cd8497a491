/**
 * What a DIY backend is read through: a folder on disk (the CLI's `file://`), and later a bucket
 * (`s3://`) or the editor's file system. The model (backend.ts) does no I/O of its own; a store lists
 * object names and reads bytes. Names are relative to the backend's root and `/`-separated, as
 * gocloud's blob keys are (`.pulumi/stacks/app/dev.json`).
 */
import * as l10n from '@vscode/l10n';

export interface StoreObject {
  /** Relative to the backend root, `/`-separated. */
  name: string;
  size: number;
  /** Last modified, in milliseconds since the epoch. */
  modifiedMs: number;
}

export interface BackendStore {
  /** The backend as the user named it (`file:///srv/state`), for messages. */
  readonly url: string;
  /** Every object whose name starts with `prefix`, at any depth; [] when there is none. */
  list(prefix: string): Promise<StoreObject[]>;
  /** An object's bytes; rejects with a StoreError naming it when it cannot be read. */
  read(name: string): Promise<Uint8Array>;
  /** Its first `length` bytes (magic bytes), where the store can read less than the whole object. */
  readStart?(name: string, length: number): Promise<Uint8Array>;
}

/**
 * How messages name an object: a URL with the object's name (`.pulumi/stacks/app/dev.json`) joined to
 * the backend URL's path and the backend URL's query after it, as a URL is read:
 * `s3://bucket/prefix?region=x` and `.pulumi/x.json` give `s3://bucket/prefix/.pulumi/x.json?region=x`,
 * never `s3://bucket/prefix?region=x/.pulumi/x.json`. Every message that names an object builds it here.
 */
export function objectUrl(backendUrl: string, name: string): string {
  const queryAt = backendUrl.search(/[?#]/);
  const [base, query] = queryAt === -1 ? [backendUrl, ''] : [backendUrl.slice(0, queryAt), backendUrl.slice(queryAt)];
  return `${base}${base.endsWith('/') ? '' : '/'}${name}${query}`;
}

/** An object that cannot be listed or read; the message names it. */
export class StoreError extends Error {}

/**
 * A store that can also be written: what restore, prune and upgrade need. A file system implements
 * it with a temporary file and a rename, a bucket with one PUT: a reader sees the old bytes or the
 * new, never a mix.
 */
export interface WritableBackendStore extends BackendStore {
  /**
   * Creates or replaces an object whole. With `ifMatch` (a `version` read earlier), refused with a
   * StoreConflict when the object changed since; with `ifMatch: null`, when it exists.
   */
  write(name: string, bytes: Uint8Array, options?: { ifMatch?: string | null }): Promise<void>;
  /** Removes an object; one already gone is no error. */
  remove(name: string): Promise<void>;
  /** Moves an object, replacing what is at `to` (a rename on disk; a copy and a delete in a bucket). */
  move(from: string, to: string): Promise<void>;
  /** The object's version (an ETag; size and mtime on disk), undefined when it does not exist. */
  version(name: string): Promise<string | undefined>;
}

/** A conditional write found the object changed (another writer came between the read and the write). */
export class StoreConflict extends StoreError {}

/** Why a backend's folder (`shown`) cannot hold a backend, in the words the Backends view and the CLI share. */
export function backendFolderProblem(shown: string, problem: 'missing' | 'file'): string {
  return problem === 'missing' ? l10n.t('{0} is missing.', shown) : l10n.t('{0} is a file, not a folder holding a Pulumi DIY backend.', shown);
}
