/**
 * The one in-memory store of the tests: a bucket-like WritableBackendStore over a Map, each write a
 * new version (a counter, as a bucket's generation). Hooks let a test interleave another writer or
 * fail a call: `before` runs before every call with its name and the object's name (and a write's
 * bytes), and may throw or wait; `pageSize` pages listings as a bucket does.
 */
import { StoreConflict, StoreMissing, type StoreObject, type WritableBackendStore } from '../../shared/backend';

export type StoreCall = 'listPage' | 'read' | 'write' | 'delete';

export interface MemoryStoreOptions {
  url?: string;
  /** Objects per listing page (all in one page by default). */
  pageSize?: number;
  /** Runs before each call (a listing's name is its prefix; a write's bytes come third): may wait (to interleave another writer) or throw (a fault). */
  before?(call: StoreCall, name: string, bytes?: Uint8Array): void | Promise<void>;
}

export interface MemoryObject {
  bytes: Uint8Array;
  version: number;
  modifiedMs: number;
}

export type MemoryStore = WritableBackendStore & { files: Map<string, MemoryObject>; text(name: string): string | undefined };

type FileValue = string | Uint8Array | { body: string | Uint8Array; modifiedMs: number };

const encoder = new TextEncoder();

/** A store holding `files` (name → text or bytes, with an optional modification time). */
export function memoryStore(files: Record<string, FileValue> = {}, options: MemoryStoreOptions = {}): MemoryStore {
  let versions = 0;
  const objectOf = (value: FileValue): MemoryObject => {
    const { body, modifiedMs } = typeof value === 'object' && 'body' in value ? value : { body: value, modifiedMs: undefined };
    const version = ++versions;
    return { bytes: typeof body === 'string' ? encoder.encode(body) : body, version, modifiedMs: modifiedMs ?? version };
  };
  const map = new Map<string, MemoryObject>(Object.entries(files).map(([name, value]) => [name, objectOf(value)]));
  return {
    url: options.url ?? 'memory://test',
    files: map,
    text: (name) => (map.has(name) ? new TextDecoder().decode(map.get(name)!.bytes) : undefined),
    async listPage(prefix, cursor) {
      await options.before?.('listPage', prefix);
      const names = [...map.keys()].filter((name) => name.startsWith(prefix) && (cursor === undefined || name > cursor)).sort();
      const page = options.pageSize ? names.slice(0, options.pageSize) : names;
      const objects: StoreObject[] = page.map((name) => ({ name, size: map.get(name)!.bytes.length, modifiedMs: map.get(name)!.modifiedMs }));
      return page.length < names.length ? { objects, next: page[page.length - 1] } : { objects };
    },
    async read(name, readOptions) {
      await options.before?.('read', name);
      const entry = map.get(name);
      if (!entry) throw new StoreMissing(`${name}: not found`);
      return { bytes: readOptions?.length === undefined ? entry.bytes : entry.bytes.subarray(0, readOptions.length), version: String(entry.version) };
    },
    async write(name, bytes, writeOptions = {}) {
      await options.before?.('write', name, bytes);
      if (writeOptions.ifVersion === null && map.has(name)) throw new StoreConflict(`${name} exists`);
      if (typeof writeOptions.ifVersion === 'string' && String(map.get(name)?.version) !== writeOptions.ifVersion) throw new StoreConflict(`${name} changed`);
      map.set(name, objectOf(bytes.slice()));
    },
    async delete(name) {
      await options.before?.('delete', name);
      map.delete(name);
    },
  };
}
