/**
 * Per-document results keyed by uri and version: each mode analyses a document version once
 * and every feature reads the same entry. Entries may carry lazily filled fields.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';

export class DocumentCache<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  constructor(private readonly compute: (document: TextDocument) => T) {}

  get(document: TextDocument): T {
    const hit = this.entries.get(document.uri);
    if (hit && hit.version === document.version) return hit.value;
    const value = this.compute(document);
    this.entries.set(document.uri, { version: document.version, value });
    return value;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}
