/**
 * Tables of translated words. A module's constants are built when it loads, before the language
 * server has its l10n bundle; a table built here computes each value when it is read instead, so
 * it speaks the language configured by then, while looking up keys exactly as a plain object does.
 */
export function lazyTable<K extends string>(entries: Record<K, () => string>): Readonly<Record<K, string>> {
  const table = {} as Record<K, string>;
  for (const [key, read] of Object.entries(entries) as Array<[K, () => string]>) Object.defineProperty(table, key, { get: read, enumerable: true });
  return Object.freeze(table);
}
