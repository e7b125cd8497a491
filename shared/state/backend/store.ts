/**
 * What a DIY backend is read through: a folder on disk (the CLI's `file://`), and later a bucket
 * (`s3://`) or the editor's file system. The model (backend.ts) does no I/O of its own; a store lists
 * object names and reads bytes. Names are relative to the backend's root and `/`-separated, as
 * gocloud's blob keys are (`.pulumi/stacks/app/dev.json`).
 */
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

/** An object that cannot be listed or read; the message names it. */
export class StoreError extends Error {}
