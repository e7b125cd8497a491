/**
 * Server state passed explicitly to every feature: the connection, open documents, settings,
 * the mode of each document kind, and the client's live usage. No globals.
 */
import { fileURLToPath } from 'node:url';
import type { Connection, Diagnostic as LspDiagnostic, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SeverityOverrides } from '../shared/diagnostics';
import { DEFAULT_FILE_PATTERNS, kindFromContent, kindFromFileName, type DocumentKind, type FilePatterns } from '../shared/documentKind';
import { kindFromConfiguredName, mergeSeverity, resolveStateSchema, type ProjectConfig } from '../shared/projectConfig';
import { SETTINGS_SECTION, type LiveGroupsParams, type LiveUsageParams, type ServerSettings } from '../shared/protocol';
import type { StateSchemaMode } from '../shared/state';
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

function diagnosticKey(d: LspDiagnostic): string {
  const { start, end } = d.range;
  return JSON.stringify([d.code, start.line, start.character, end.line, end.character, d.message]);
}

export class ServerWorkspace implements ModeContext {
  settings: ServerSettings = {};
  supportsConfiguration = false;
  supportsInlayHintRefresh = false;
  supportsCodeLensRefresh = false;
  /** The client resolves code actions' edits lazily (codeAction/resolve with `edit`). */
  supportsCodeActionResolve = false;
  private live: LiveUsageParams | null = null;
  private groups: LiveGroupsParams | null = null;
  private readonly kindCache = new Map<string, { version: number; kind: DocumentKind | undefined }>();
  /** What was published for each open document's current version, so quick-fix requests can tell stale diagnostics. */
  private readonly published = new Map<string, { version: number; keys: Set<string> }>();
  readonly modes = new Map<DocumentKind, LanguageMode>();

  /**
   * `findConfig` finds the `.quota-state.json` that applies to a document (undefined when none
   * does; throws on a broken one): on disk in Node (server/projectFiles.ts), through the client's
   * `vscode.workspace.fs` in the browser (server/web/projectFiles.ts).
   */
  constructor(
    readonly connection: Connection,
    readonly documents: TextDocuments<TextDocument>,
    private readonly findConfig: (uri: string) => ProjectConfig | undefined,
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

  liveGroups(): LiveGroupsParams | null {
    return this.groups;
  }

  setLiveGroups(groups: LiveGroupsParams | null): void {
    this.groups = groups;
  }

  openDocumentText(path: string): string | undefined {
    return this.documents
      .all()
      .find((document) => uriToPath(document.uri) === path)
      ?.getText();
  }

  get patterns(): FilePatterns {
    return {
      state: this.settings.files?.state?.length ? this.settings.files.state : DEFAULT_FILE_PATTERNS.state,
      quota: this.settings.files?.quota?.length ? this.settings.files.quota : DEFAULT_FILE_PATTERNS.quota,
      appIni: this.settings.files?.appIni?.length ? this.settings.files.appIni : DEFAULT_FILE_PATTERNS.appIni,
    };
  }

  /**
   * The `.quota-state.json` nearest above a document. A broken one is logged once and ignored, so
   * the settings apply.
   */
  projectConfigFor(uri: string): ProjectConfig | undefined {
    try {
      return this.findConfig(uri);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!this.reportedConfigErrors.has(message)) {
        this.reportedConfigErrors.add(message);
        this.log(`Ignoring the project configuration: ${message}`);
      }
      return undefined;
    }
  }

  private readonly reportedConfigErrors = new Set<string>();

  /** Severity overrides for a document: the project file wins over the setting, code by code. */
  severityFor(uri: string): SeverityOverrides {
    return mergeSeverity(this.settings.diagnostics?.severity, this.projectConfigFor(uri)?.severity);
  }

  /** Schema mode of a state document: the project file wins over the setting. */
  stateSchemaFor(uri: string): StateSchemaMode {
    return resolveStateSchema({ projectConfig: this.projectConfigFor(uri), setting: this.settings.state?.schema });
  }

  /** Forget cached kinds (a project configuration or the settings changed). */
  projectConfigChanged(): void {
    this.kindCache.clear();
  }

  kindOf(document: TextDocument): DocumentKind | undefined {
    const cached = this.kindCache.get(document.uri);
    if (cached && cached.version === document.version) return cached.kind;
    const path = uriToPath(document.uri);
    // An INI document is an app.ini by its name or nothing: content detection is for JSON.
    const kind =
      document.languageId === 'ini'
        ? kindFromFileName(path, this.patterns) === 'appIni'
          ? 'appIni'
          : undefined
        : (kindFromConfiguredName(path, this.projectConfigFor(document.uri), this.patterns) ?? kindFromContent(document.getText()));
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

  /**
   * Remembers what was published. A version can be published more than once (a settings change, a
   * project config read through the client): the client may still ask with the earlier set, whose
   * fixes fit the same text, so every set published for the current version counts.
   */
  recordPublished(uri: string, version: number, diagnostics: readonly LspDiagnostic[]): void {
    const previous = this.published.get(uri);
    const keys = previous?.version === version ? previous.keys : new Set<string>();
    for (const diagnostic of diagnostics) keys.add(diagnosticKey(diagnostic));
    this.published.set(uri, { version, keys });
  }

  /**
   * The diagnostics of a code-action request that the server published for the document's
   * current version. Others come from before the latest edit (their ranges and data no longer
   * fit the text), so no fix is offered for them.
   */
  currentDiagnostics<T extends LspDiagnostic>(uri: string, diagnostics: readonly T[]): T[] {
    const published = this.published.get(uri);
    const document = this.documents.get(uri);
    if (!published || !document || published.version !== document.version) return [];
    return diagnostics.filter((d) => published.keys.has(diagnosticKey(d)));
  }

  forget(uri: string): void {
    this.published.delete(uri);
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
