/**
 * The one store interface every DIY backend is read and written through. The model (backend.ts) does
 * no I/O of its own; a store lists object names a page at a time, reads bytes with their version,
 * writes if the version still matches, and deletes. Names are relative to the backend's root and
 * `/`-separated, as gocloud's blob keys are (`.pulumi/stacks/app/dev.json`).
 */
import * as l10n from '@vscode/l10n';

export interface StoreObject {
  /** Relative to the backend root, `/`-separated. */
  name: string;
  size: number;
  /** Last modified, in milliseconds since the epoch. */
  modifiedMs: number;
}

/** One page of a listing: its objects in name order, and where the next page starts (absent on the last). */
interface StorePage {
  objects: StoreObject[];
  next?: string;
}

/** An object's bytes and the version they are (an ETag, a generation; size, mtime and inode on disk). */
export interface StoredObject {
  bytes: Uint8Array;
  version: string;
}

/**
 * What every backend is read through: a folder (shared/node/fileStore.ts), a bucket
 * (shared/node/s3Store.ts), the editor's file system (client/backends/store.ts), a test's memory.
 * Three calls and nothing else; the model and the writer (stackWrite.ts) do the rest.
 */
export interface BackendStore {
  /** The backend as the user named it (`file:///srv/state`), for messages. */
  readonly url: string;
  /**
   * One page of the objects whose names start with `prefix`, at any depth, in name order; `cursor` is
   * the previous page's `next`. A prefix that holds nothing gives an empty page.
   */
  listPage(prefix: string, cursor?: string): Promise<StorePage>;
  /**
   * An object's bytes and their version; with `length`, at least its first `length` bytes where the
   * store can read less (magic bytes). Rejects with StoreMissing when there is no such object, and
   * with a StoreError naming it when it cannot be read.
   */
  read(name: string, options?: { length?: number }): Promise<StoredObject>;
}

/**
 * A store that can also be written. A file system writes a temporary file and renames it, a bucket
 * sends one PUT: a reader sees the old bytes or the new, never a mix.
 */
export interface WritableBackendStore extends BackendStore {
  /**
   * Creates or replaces an object whole. With `ifVersion` (a version read earlier), refused with a
   * StoreConflict when the object is no longer that version; with `ifVersion: null`, when it exists.
   */
  write(name: string, bytes: Uint8Array, options?: { ifVersion?: string | null }): Promise<void>;
  /** Removes an object; one already gone is no error. */
  delete(name: string): Promise<void>;
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

/**
 * The store errors carry a brand under a global symbol, so that `instanceof` holds across bundles that
 * each hold a copy of this module (a lazily loaded store's bundle and its caller's).
 */
const BRANDS = Symbol.for('quota-state.store-error-brands');
type Branded = { [BRANDS]?: readonly string[] };

function branded(value: unknown, brand: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const brands = (value as Branded)[BRANDS];
  return Array.isArray(brands) && brands.includes(brand);
}

/** An object that cannot be listed or read; the message names it. */
export class StoreError extends Error {
  static readonly brand: string = 'StoreError';
  declare readonly [BRANDS]: readonly string[];
  constructor(message: string) {
    super(message);
    const brands: string[] = [];
    for (let type = new.target as unknown as { brand?: string } | null; type && typeof type.brand === 'string'; type = Object.getPrototypeOf(type) as { brand?: string } | null) {
      if (Object.prototype.hasOwnProperty.call(type, 'brand')) brands.push(type.brand);
    }
    Object.defineProperty(this, BRANDS, { value: brands, enumerable: false });
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, this.brand);
  }
}

/** A conditional write found the object changed (another writer came between the read and the write). */
export class StoreConflict extends StoreError {
  static override readonly brand: string = 'StoreConflict';
}

/** A conditional write could not be made because another writer holds the object's write lock; the message names the lock. */
export class StoreBusy extends StoreConflict {
  static override readonly brand: string = 'StoreBusy';
}

/** There is no object of that name. */
export class StoreMissing extends StoreError {
  static override readonly brand: string = 'StoreMissing';
}

/** Every object under `prefix`, page after page. */
export async function listAll(store: BackendStore, prefix: string): Promise<StoreObject[]> {
  const objects: StoreObject[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listPage(prefix, cursor);
    for (const object of page.objects) objects.push(object);
    cursor = page.next;
  } while (cursor !== undefined);
  return objects;
}

/** An object's bytes and version, or undefined when there is none. */
export async function readIfPresent(store: BackendStore, name: string, options?: { length?: number }): Promise<StoredObject | undefined> {
  try {
    return await store.read(name, options);
  } catch (error) {
    if (error instanceof StoreMissing) return undefined;
    throw error;
  }
}

/** An object's bytes. */
export async function readBytes(store: BackendStore, name: string, options?: { length?: number }): Promise<Uint8Array> {
  return (await store.read(name, options)).bytes;
}

/** Whether an object of that name exists (a store reads one byte of it where it can, not the whole). */
export async function objectExists(store: BackendStore, name: string): Promise<boolean> {
  return (await readIfPresent(store, name, { length: 1 })) !== undefined;
}

/** Copies an object under another name (replacing what is there) and removes the original. */
export async function moveObject(store: WritableBackendStore, from: string, to: string): Promise<void> {
  const { bytes } = await store.read(from);
  await store.write(to, bytes);
  await store.delete(from);
}

/** Why a backend's folder (`shown`) cannot hold a backend, in the words the Backends view and the CLI share. */
export function backendFolderProblem(shown: string, problem: 'missing' | 'file'): string {
  return problem === 'missing' ? l10n.t('{0} is missing.', shown) : l10n.t('{0} is a file, not a folder holding a Pulumi DIY backend.', shown);
}

/** Whether two byte arrays hold the same bytes. */
export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);

/** Writes `bytes` as `name` unless the object is there with the same bytes (a resumed copy's writes cost only reads); answers whether it wrote. */
export async function writeUnlessSame(store: WritableBackendStore, name: string, bytes: Uint8Array): Promise<boolean> {
  const there = await readIfPresent(store, name);
  if (there && sameBytes(there.bytes, bytes)) return false;
  await store.write(name, bytes);
  return true;
}
