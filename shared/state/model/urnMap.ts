/**
 * A map keyed by urns (and provider references) that hashes only a key's length and its last
 * characters. Urns share long prefixes (`urn:pulumi:<stack>::<project>::`), and every reference
 * in a state file is a fresh string from `JSON.parse`, so a `Map` hashes each one in full: on a
 * 10,000-resource export its 66,000 reference lookups cost more than the rest of the integrity
 * index. The end of a urn, its name, is what tells urns apart. Equal keys always share a bucket
 * and `===` decides within it, so it answers exactly as a `Map` would, in insertion order.
 */
export class UrnMap<V> implements ReadonlyMap<string, V> {
  private readonly buckets = new Map<number, UrnEntry<V>>();
  private readonly entriesInOrder: UrnEntry<V>[] = [];

  get size(): number {
    return this.entriesInOrder.length;
  }

  get(key: string): V | undefined {
    return this.entry(key, suffixHash(key))?.value;
  }

  has(key: string): boolean {
    return this.entry(key, suffixHash(key)) !== undefined;
  }

  set(key: string, value: V): this {
    const hash = suffixHash(key);
    const existing = this.entry(key, hash);
    if (existing) existing.value = value;
    else {
      const entry: UrnEntry<V> = { key, value, next: this.buckets.get(hash) };
      this.buckets.set(hash, entry);
      this.entriesInOrder.push(entry);
    }
    return this;
  }

  clear(): void {
    this.buckets.clear();
    this.entriesInOrder.length = 0;
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const entry of this.entriesInOrder) callback.call(thisArg, entry.value, entry.key, this);
  }

  *entries(): MapIterator<[string, V]> {
    for (const entry of this.entriesInOrder) yield [entry.key, entry.value];
  }

  *keys(): MapIterator<string> {
    for (const entry of this.entriesInOrder) yield entry.key;
  }

  *values(): MapIterator<V> {
    for (const entry of this.entriesInOrder) yield entry.value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  private entry(key: string, hash: number): UrnEntry<V> | undefined {
    for (let entry = this.buckets.get(hash); entry !== undefined; entry = entry.next) if (entry.key === key) return entry;
    return undefined;
  }
}

interface UrnEntry<V> {
  readonly key: string;
  value: V;
  readonly next: UrnEntry<V> | undefined;
}

/** How many characters at the end of a key its hash reads. */
const HASHED_SUFFIX_LENGTH = 16;

function suffixHash(key: string): number {
  const length = key.length;
  const stop = length > HASHED_SUFFIX_LENGTH ? length - HASHED_SUFFIX_LENGTH : 0;
  let hash = length;
  for (let i = length - 1; i >= stop; i--) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return hash;
}
