/**
 * A minimal LSP client for tests: starts the real built server (`dist/server/server.js --stdio`)
 * as a child process and speaks JSON-RPC to it, the way an editor does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  MessageType,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type NotificationType,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type RequestType,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { DocumentStatusNotification } from '../../shared/protocol';
import { distPath } from './processes';

export interface LspClientOptions {
  capabilities?: ClientCapabilities;
  /** Another build of the server, e.g. the one unpacked from the .vsix; dist/server/server.js by default. */
  serverModule?: string;
  /**
   * Without an `l10nBundle` (the client's `vscode.l10n.bundle`) the server speaks English, as the CLI
   * always does: the editor–CLI parity tests compare messages word for word and rely on it.
   */
  initializationOptions?: unknown;
  /** The server's environment; the test runner's by default. */
  env?: NodeJS.ProcessEnv;
}

export class LspTestClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  private readonly versions = new Map<string, number>();
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private readonly waiters: Array<{ uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  /** Messages the server logged at error level: each one is an exception a handler caught. */
  readonly loggedErrors: string[] = [];
  private readonly notificationWaiters: Array<{ method: string; matches: (params: unknown) => boolean; resolve: (params: unknown) => void }> = [];
  stderr = '';

  private constructor(serverModule = distPath('server/server.js'), env: NodeJS.ProcessEnv = process.env) {
    this.process = spawn(process.execPath, [serverModule, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.process.stderr!.on('data', (chunk) => (this.stderr += chunk));
    this.connection = createProtocolConnection(new StreamMessageReader(this.process.stdout!), new StreamMessageWriter(this.process.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.latest.set(params.uri, params);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        if (waiter.uri === params.uri && (waiter.version === undefined || params.version === waiter.version)) {
          this.waiters.splice(i, 1);
          waiter.resolve(params);
        }
      }
    });
    this.connection.onNotification(DocumentStatusNotification.method, (params: unknown) => {
      this.notifications.push({ method: DocumentStatusNotification.method, params });
      for (let i = this.notificationWaiters.length - 1; i >= 0; i--) {
        const waiter = this.notificationWaiters[i];
        if (waiter.method === DocumentStatusNotification.method && waiter.matches(params)) {
          this.notificationWaiters.splice(i, 1);
          waiter.resolve(params);
        }
      }
    });
    this.connection.onNotification(LogMessageNotification.type, (params) => {
      if (params.type === MessageType.Error) this.loggedErrors.push(params.message);
    });
    this.connection.onRequest('workspace/configuration', () => [null]);
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('workspace/inlayHint/refresh', () => null);
    this.connection.onRequest('workspace/codeLens/refresh', () => null);
    this.connection.listen();
  }

  static async start(options: LspClientOptions = {}): Promise<LspTestClient> {
    const client = new LspTestClient(options.serverModule, options.env);
    await client.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: options.capabilities ?? {},
      initializationOptions: options.initializationOptions,
    });
    await client.connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Opens a document and resolves with its first published diagnostics. */
  async open(uri: string, text: string, languageId = 'json'): Promise<Diagnostic[]> {
    this.versions.set(uri, 1);
    const published = this.waitForDiagnostics(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return (await published).diagnostics;
  }

  /**
   * Opens a document the server should not take as one of its kinds. Such a document gets no
   * diagnostics at all, so this opens a small state file after it and waits for that one's: the
   * server handles documents in order, so anything it meant to publish for `uri` has arrived by then.
   * Resolves with what was published for `uri` (undefined when nothing was, as it should be).
   */
  async openUnrecognised(uri: string, text: string, languageId = 'json'): Promise<PublishDiagnosticsParams | undefined> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    const probe = `${uri}.probe-${++this.probes}.state.json`;
    await this.open(probe, '{ "urn": "urn:pulumi:dev::probe::pulumi:pulumi:Stack::probe-dev", "type": "pulumi:pulumi:Stack" }');
    await this.close(probe);
    return this.latest.get(uri);
  }
  private probes = 0;

  /** Sends changes (full text when a string) and resolves with the diagnostics of the new version. */
  async change(uri: string, change: string | TextDocumentContentChangeEvent[]): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const published = this.waitForDiagnostics(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: typeof change === 'string' ? [{ text: change }] : change,
    });
    return (await published).diagnostics;
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  waitForDiagnostics(uri: string, version?: number, timeoutMs = 20_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({ uri, version, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }

  /** Resolves with the first recorded or future documentStatus notification that `matches`. */
  waitForStatus<T>(matches: (params: T) => boolean, timeoutMs = 20_000): Promise<T> {
    const method = DocumentStatusNotification.method;
    const seen = this.notifications.find((n) => n.method === method && matches(n.params as T));
    if (seen) return Promise.resolve(seen.params as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching ${method} within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.notificationWaiters.push({ method, matches: (p) => matches(p as T), resolve: (p) => (clearTimeout(timer), resolve(p as T)) });
    });
  }

  lastDiagnostics(uri: string): PublishDiagnosticsParams | undefined {
    return this.latest.get(uri);
  }

  request<P, R>(type: RequestType<P, R, unknown> | string, params: P): Promise<R> {
    return this.connection.sendRequest(type as string, params) as Promise<R>;
  }

  notify<P>(type: NotificationType<P> | string, params: P): Promise<void> {
    return this.connection.sendNotification(type as string, params);
  }

  /** Fails when the server logged an exception since the last call (then forgets them). */
  assertNoLoggedErrors(): void {
    const errors = this.loggedErrors.splice(0);
    if (errors.length) throw new Error(`the server logged ${errors.length} error(s):\n${errors.slice(0, 5).join('\n---\n')}`);
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification(ExitNotification.type);
      // The server exits by itself on `exit`, writing what it writes at exit (V8 coverage under `npm run coverage`).
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    } catch {
      // The process may already be gone; kill below.
    }
    this.connection.dispose();
    if (this.alive) this.process.kill();
  }
}

/** The position of the `|` marker in a text, and the text without it. */
export function cursor(textWithMarker: string): { text: string; position: { line: number; character: number } } {
  const offset = textWithMarker.indexOf('|');
  if (offset === -1) throw new Error('no | cursor marker in the text');
  const text = textWithMarker.slice(0, offset) + textWithMarker.slice(offset + 1);
  return { text, position: positionAt(text, offset) };
}

/** The LSP position of `offset` in `text` (a test's own slow but obvious conversion). */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
}
