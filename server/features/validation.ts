/**
 * Push diagnostics: immediately on open, debounced on change. Each run is cancelled by the
 * next change of the same document, and results for an older version are never published.
 */
import type { TextDocumentChangeEvent } from 'vscode-languageserver';
import { CancellationTokenSource } from '../lsp';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { applySeverityOverrides } from '../../shared/diagnostics';
import { DocumentStatusNotification } from '../../shared/protocol';
import { toLspDiagnostic } from '../convert';
import type { ServerWorkspace } from '../workspace';

const CHANGE_DEBOUNCE_MS = 150;

export class Validation {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; source: CancellationTokenSource }>();
  private readonly validated = new Set<string>();
  /** When each document's newest version arrived, until its diagnostics are published. */
  private readonly arrived = new Map<string, number>();
  /** Documents whose last published result was ours: only they need clearing when they stop being ours. */
  private readonly recognised = new Set<string>();

  constructor(private readonly workspace: ServerWorkspace) {
    const { documents } = workspace;
    documents.onDidChangeContent((event: TextDocumentChangeEvent<TextDocument>) => {
      const uri = event.document.uri;
      this.arrived.set(uri, performance.now());
      this.schedule(uri, this.validated.has(uri) ? CHANGE_DEBOUNCE_MS : 0);
    });
    documents.onDidClose((event) => {
      const uri = event.document.uri;
      this.cancel(uri);
      this.validated.delete(uri);
      this.arrived.delete(uri);
      workspace.forget(uri);
      if (this.recognised.delete(uri)) void workspace.connection.sendDiagnostics({ uri, diagnostics: [] });
    });
  }

  /** Re-validates every open document (settings or live usage changed). */
  revalidateAll(): void {
    for (const document of this.workspace.documents.all()) this.schedule(document.uri, 0);
  }

  /** Re-validates one open document now (its analysis is cached: what changed is what it publishes). */
  revalidate(uri: string): void {
    if (this.workspace.documents.get(uri)) this.schedule(uri, 0);
  }

  private cancel(uri: string): void {
    const pending = this.pending.get(uri);
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.source.cancel();
    this.pending.delete(uri);
  }

  private schedule(uri: string, delay: number): void {
    this.cancel(uri);
    const source = new CancellationTokenSource();
    const timer = setTimeout(() => void this.validate(uri, source), delay);
    this.pending.set(uri, { timer, source });
  }

  private async validate(uri: string, source: CancellationTokenSource): Promise<void> {
    const { workspace } = this;
    const document = workspace.documents.get(uri);
    if (!document) return;
    const version = document.version;
    const kind = workspace.kindOf(document);
    const mode = kind ? workspace.modes.get(kind) : undefined;
    // The extension runs for every JSON document: one that is not ours (and never was) costs the
    // sniff in kindOf and nothing else, no empty diagnostics and no status message.
    if (!mode && !this.recognised.has(uri)) {
      this.validated.add(uri);
      if (this.pending.get(uri)?.source === source) this.pending.delete(uri);
      return;
    }
    try {
      const diagnostics = mode ? await mode.validate(document, source.token) : [];
      // A newer change superseded this run: its own run publishes.
      if (source.token.isCancellationRequested || workspace.documents.get(uri)?.version !== version) return;
      const shown = applySeverityOverrides(diagnostics, workspace.severityFor(uri));
      const published = shown.map((d) => toLspDiagnostic(d, uri));
      workspace.recordPublished(uri, version, published);
      await workspace.connection.sendDiagnostics({ uri, version, diagnostics: published });
      const arrived = this.arrived.get(uri);
      const validationMs = arrived === undefined ? undefined : performance.now() - arrived;
      this.arrived.delete(uri); // a revalidation (settings) has no arrival to measure from
      this.validated.add(uri);
      if (mode) this.recognised.add(uri);
      else this.recognised.delete(uri);
      await workspace.connection.sendNotification(DocumentStatusNotification, {
        uri,
        kind: kind ?? null,
        ...(mode?.status?.(document) ?? {}),
        diagnosticCount: shown.length,
        ...(validationMs === undefined ? {} : { validationMs }),
      });
    } catch (error) {
      workspace.logError(`Validation of ${uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      if (this.pending.get(uri)?.source === source) this.pending.delete(uri);
    }
  }
}
