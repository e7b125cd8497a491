/**
 * Server state passed explicitly to every feature: the connection, open documents, settings,
 * the mode of each document kind, and the client's live usage. No globals.
 */
import { fileURLToPath } from 'node:url';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { detectKind, DEFAULT_FILE_PATTERNS, type DocumentKind, type FilePatterns } from '../shared/documentKind';
import { SETTINGS_SECTION, type LiveUsageParams, type ServerSettings } from '../shared/protocol';
import type { LanguageMode, ModeContext } from './modes/languageMode';

export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return uri;
    }
  }
  // Untitled and virtual documents: the path part is still the best name we have.
  return decodeURIComponent(uri.replace(/^[a-z][a-z0-9+.-]*:\/*/i, '/'));
}

export class ServerWorkspace implements ModeContext {
  settings: ServerSettings = {};
  supportsConfiguration = false;
  supportsInlayHintRefresh = false;
  supportsCodeLensRefresh = false;
  private live: LiveUsageParams | null = null;
  private readonly kindCache = new Map<string, { version: number; kind: DocumentKind | undefined }>();
  readonly modes = new Map<DocumentKind, LanguageMode>();

  constructor(
    readonly connection: Connection,
    readonly documents: TextDocuments<TextDocument>,
  ) {}

  addMode(mode: LanguageMode): void {
    this.modes.set(mode.kind, mode);
  }

  log(message: string): void {
    this.connection.console.log(message);
  }

  /** An unexpected failure (a bug): logged at error level, so tests and users can tell it from routine notes. */
  logError(message: string): void {
    this.connection.console.error(message);
  }

  liveUsage(): LiveUsageParams | null {
    return this.live;
  }

  setLiveUsage(live: LiveUsageParams | null): void {
    this.live = live;
  }

  get patterns(): FilePatterns {
    return {
      state: this.settings.files?.state?.length ? this.settings.files.state : DEFAULT_FILE_PATTERNS.state,
      quota: this.settings.files?.quota?.length ? this.settings.files.quota : DEFAULT_FILE_PATTERNS.quota,
    };
  }

  kindOf(document: TextDocument): DocumentKind | undefined {
    const cached = this.kindCache.get(document.uri);
    if (cached && cached.version === document.version) return cached.kind;
    const kind = detectKind(uriToPath(document.uri), document.getText(), this.patterns);
    this.kindCache.set(document.uri, { version: document.version, kind });
    return kind;
  }

  /** The open document and its mode, when the document is one of ours. */
  modeOf(uri: string): { document: TextDocument; mode: LanguageMode } | undefined {
    const document = this.documents.get(uri);
    if (!document) return undefined;
    const kind = this.kindOf(document);
    const mode = kind ? this.modes.get(kind) : undefined;
    return mode ? { document, mode } : undefined;
  }

  forget(uri: string): void {
    this.kindCache.delete(uri);
    for (const mode of this.modes.values()) mode.forget?.(uri);
  }

  async refreshSettings(): Promise<void> {
    if (!this.supportsConfiguration) return;
    try {
      const settings = (await this.connection.workspace.getConfiguration(SETTINGS_SECTION)) as ServerSettings | null;
      this.settings = settings ?? {};
    } catch (error) {
      this.log(`Could not read settings: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.kindCache.clear();
  }
}
