/**
 * Records each document's content changes as offset edits, as they arrive, so the analysis
 * worker can be sent a few bytes per keystroke instead of the whole (possibly 50 MB) text.
 * Plugged into TextDocuments as its update function; costs one offset conversion per change.
 */
import type { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from '../../shared/edits';

/**
 * Past this many edits since the last `take`, the log gives up and the whole text is sent:
 * documents nobody takes edits for (quota files) must not grow a log for as long as they are open.
 */
const MAX_PENDING_EDITS = 512;

export class EditLog implements TextDocumentsConfiguration<TextDocument> {
  /** Edits since the last `take`, or null when a change replaced the whole text. */
  private readonly pending = new Map<string, TextEdit[] | null>();

  create(uri: string, languageId: string, version: number, content: string): TextDocument {
    this.pending.set(uri, null);
    return TextDocument.create(uri, languageId, version, content);
  }

  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    let edits = this.pending.get(document.uri);
    for (const change of changes) {
      if ('range' in change) {
        const offset = document.offsetAt(change.range.start);
        edits?.push({ offset, length: document.offsetAt(change.range.end) - offset, newText: change.text });
      } else {
        edits = null;
      }
      // One change at a time: each range refers to the text after the previous change.
      TextDocument.update(document, [change], version);
    }
    this.pending.set(document.uri, edits === undefined || (edits && edits.length > MAX_PENDING_EDITS) ? null : edits);
    return document;
  }

  /** The edits since the last call (null: send the whole text); starts a new log for `uri`. */
  take(uri: string): TextEdit[] | null {
    const edits = this.pending.get(uri) ?? null;
    this.pending.set(uri, []);
    return edits;
  }

  forget(uri: string): void {
    this.pending.delete(uri);
  }
}
