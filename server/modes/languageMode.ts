/**
 * One LanguageMode per document kind (state, quota). The server's feature modules find the
 * mode of a document and call it; a mode adapts the editor-independent analysis in shared/
 * to LSP shapes. Every method is optional except validation.
 */
import type {
  CancellationToken,
  CodeAction,
  CodeActionContext,
  CodeLens,
  CompletionItem,
  CompletionList,
  Definition,
  DocumentSymbol,
  Hover,
  InlayHint,
  Location,
  LocationLink,
  Position,
  Range,
  SymbolInformation,
  WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../shared/diagnostics';
import type { DocumentKind } from '../../shared/documentKind';
import type { DocumentStatusParams, LiveGroupsParams, LiveUsageParams, ServerSettings } from '../../shared/protocol';
import type { StateSchemaMode } from '../../shared/state';

export interface ModeContext {
  /** The client resolves code actions' edits lazily: heavy edits are computed on codeAction/resolve. */
  readonly supportsCodeActionResolve?: boolean;
  /** Writes to the client's output channel (never secrets). */
  log(message: string): void;
  /** Logs an unexpected failure at error level. */
  logError(message: string): void;
  /** The signed-in user's live usage, when the client sent one. */
  liveUsage(): LiveUsageParams | null;
  /** Group names of the live server, when the client is signed in as a site admin. */
  liveGroups(): LiveGroupsParams | null;
  /** Schema mode of a state document (the project file, else the setting). */
  stateSchemaFor(uri: string): StateSchemaMode;
  /** The current settings (read, never written). */
  readonly settings: ServerSettings;
  /** The text of an open document with this file path, so unsaved edits count. */
  openDocumentText?(path: string): string | undefined;
}

export interface LanguageMode {
  readonly kind: DocumentKind;
  /** Diagnostics in the shared model; the shell applies severity overrides and converts them. */
  validate(document: TextDocument, token: CancellationToken): Diagnostic[] | Promise<Diagnostic[]>;
  /** Shape and unavailable features for the language status item. */
  status?(document: TextDocument): Omit<DocumentStatusParams, 'uri' | 'kind'>;
  hover?(document: TextDocument, position: Position, token: CancellationToken): Hover | null;
  definition?(document: TextDocument, position: Position, token: CancellationToken): Definition | LocationLink[] | null;
  references?(document: TextDocument, position: Position, includeDeclaration: boolean, token: CancellationToken): Location[] | null;
  prepareRename?(document: TextDocument, position: Position, token: CancellationToken): { range: Range; placeholder: string } | null;
  rename?(document: TextDocument, position: Position, newName: string, token: CancellationToken): WorkspaceEdit | null;
  completion?(document: TextDocument, position: Position, token: CancellationToken): CompletionList | CompletionItem[] | null;
  codeActions?(document: TextDocument, range: Range, context: CodeActionContext, token: CancellationToken): CodeAction[];
  codeLenses?(document: TextDocument, token: CancellationToken): CodeLens[];
  documentSymbols?(document: TextDocument, token: CancellationToken): DocumentSymbol[];
  inlayHints?(document: TextDocument, range: Range, token: CancellationToken): InlayHint[];
  workspaceSymbols?(query: string, documents: TextDocument[], token: CancellationToken): SymbolInformation[];
  /** Drop caches for a closed document. */
  forget?(uri: string): void;
}
