/**
 * Per-document results keyed by uri and version: each mode analyses a document version once
 * and every feature reads the same entry. Entries may carry lazily filled fields. The entry of
 * the previous version is handed to `compute`, so a mode can derive the new one from it.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';

export class DocumentCache<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  constructor(private readonly compute: (document: TextDocument, previous: T | undefined) => T) {}

  get(document: TextDocument): T {
    const hit = this.entries.get(document.uri);
    if (hit && hit.version === document.version) return hit.value;
    const value = this.compute(document, hit?.value);
    this.entries.set(document.uri, { version: document.version, value });
    return value;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}
