/**
 * Show Resource Graph: one webview panel beside the editor, drawing the graph of one state file
 * around a focus. The language server lays the picture out (ResourceGraphRequest); this side keeps
 * the user's choices (focus, depth, filters), follows the cursor and the edits of the file (both
 * debounced), reveals a clicked node's record, and saves the exports.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ResourceGraphRequest, SHOW_RESOURCE_GRAPH_COMMAND, type ResourceGraphParams, type ResourceGraphResult } from '../../shared/protocol';
import { GROUP_ID_PREFIX, type GraphEdgeKind, type GraphGroupBy } from '../../shared/state/vocabulary';
import type { Notifier } from '../notifier';
import { resourceGraphFrame } from './html';
import type { FromWebview, GraphWords, RenderedGraph, ToWebview } from './messages';

/** How long the cursor or the text must rest before the picture follows. */
const FOLLOW_DELAY_MS = 300;

/** The user's choices for one file's graph: kept per file, so another file opens focused at depth 1. */
interface Choices {
  focus?: string;
  depth: number | 'all';
  edgeKinds?: GraphEdgeKind[];
  type?: string;
  provider?: string;
  search?: string;
  groupBy?: GraphGroupBy;
  /** The overview's groups shown resource by resource. */
  expand?: string[];
}

const firstChoices = (): Choices => ({ depth: 1 });

function words(): GraphWords {
  const t = vscode.l10n.t;
  return {
    depth: t('Depth'),
    wholeGraph: t('whole graph'),
    search: t('Find a resource'),
    allTypes: t('All types'),
    allProviders: t('All providers'),
    exportSvg: t('Export SVG…'),
    exportDot: t('Export DOT…'),
    edgesOf: t('Edges of {0}'),
    noEdges: t('No edges'),
    legend: t('Edges:'),
    kinds: { parent: t('parent'), dependency: t('dependency'), provider: t('provider'), deletedWith: t('deleted with'), replaceWith: t('replace with') },
    relations: {
      parent: { out: t('child of {0}'), in: t('parent of {0}') },
      dependency: { out: t('needed by {0}'), in: t('depends on {0}') },
      provider: { out: t('provided by {0}'), in: t('provider of {0}') },
      deletedWith: { out: t('deleted with {0}'), in: t('deletes {0} with it') },
      replaceWith: { out: t('replaced with {0}'), in: t('replaces {0} with it') },
    },
    groupMembers: t('{0} resources'),
    overview: t('whole graph: {0} groups of {1} resources, grouped by {2}; click a group to show its resources'),
    groupBy: { parent: t('parent component'), type: t('type'), provider: t('provider') },
    edgesLeftOut: t('{0} of {1} edges drawn, the heaviest; narrow by depth, type, provider or search to see the rest'),
    grid: t('the layout took too long, so the resources are placed in rows; narrow by depth, type, provider or search for a layered picture'),
    edgeCount: t('{0} edges'),
    marks: {
      protect: t('protected'),
      taint: t('tainted'),
      delete: t('pending deletion'),
      pending: t('pending operation'),
      missing: t('not in the state'),
      errors: t('{0} errors'),
      warnings: t('{0} warnings'),
    },
    truncated: t('showing the nearest {0} of {1} resources within reach; focus one or find it to see the rest'),
    total: t('{0} resources and {1} edges in the file'),
    tooLarge: t('The whole graph is too large to lay out; focus a resource or export DOT'),
    empty: t('This file holds no resources.'),
    matches: t('{0} found'),
    noMatches: t('Nothing found'),
  };
}

export class ResourceGraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private uri: vscode.Uri | undefined;
  private choices: Choices = firstChoices();
  /** Each file's choices, by uri. */
  private readonly choicesByFile = new Map<string, Choices>();
  /** The request in flight: a newer one cancels it ($/cancelRequest), and the server stops its layout. */
  private inFlight: vscode.CancellationTokenSource | undefined;
  /** Follows a file that no editor holds (drawn from disk): its changes redraw the picture. */
  private fileWatcher: vscode.FileSystemWatcher | undefined;
  private view: ResourceGraphResult | null = null;
  private rendered: RenderedGraph | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<RenderedGraph>();
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where the graph last put the cursor when it revealed a node's record. */
  private revealedOffset: number | undefined;
  private requestCounter = 0;
  private lastExport: { kind: 'svg' | 'dot'; text: string } | undefined;
  private readonly disposables: vscode.Disposable[] = [this.renderedEmitter];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly client: LanguageClient,
    private readonly notifier: Notifier,
    /** Tests cannot answer a save dialog: the export is only recorded. */
    private readonly testing: boolean,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(SHOW_RESOURCE_GRAPH_COMMAND, (args?: unknown) => this.showFromCommand(args)),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (this.panel && this.uri && event.textEditor.document.uri.toString() === this.uri.toString() && event.kind !== undefined) {
          const offset = event.textEditor.document.offsetAt(event.selections[0].active);
          // The selection the graph itself made (a node revealed) is no cursor move to follow.
          if (offset === this.revealedOffset) return;
          this.follow(() => ({ offset }));
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.panel && this.uri && event.document.uri.toString() === this.uri.toString() && event.contentChanges.length) this.follow(() => ({}));
      }),
      this,
    ];
  }

  /** For tests: what the webview last drew, and each drawing as it comes. */
  readonly onDidRender = this.renderedEmitter.event;
  current(): { rendered: RenderedGraph | undefined; view: ResourceGraphResult | null; visible: boolean; lastExport?: { kind: 'svg' | 'dot'; text: string } } {
    return { rendered: this.rendered, view: this.view, visible: this.panel !== undefined, lastExport: this.lastExport };
  }
  /** For tests: drives the page as a user would (a click on a node, a search typed). */
  simulate(message: Extract<ToWebview, { type: 'simulate' }>): Thenable<boolean> {
    return this.panel ? this.panel.webview.postMessage(message) : Promise.resolve(false);
  }

  /** From the palette, the editor title, the explorer's context menu (a Uri) or a record's lens (`{ uri, urn }`). */
  private async showFromCommand(args: unknown): Promise<void> {
    let uri: vscode.Uri | undefined;
    let urn: string | undefined;
    if (args instanceof vscode.Uri) uri = args;
    else if (typeof args === 'object' && args !== null && typeof (args as { uri?: unknown }).uri === 'string') {
      uri = vscode.Uri.parse((args as { uri: string }).uri, true);
      const given = (args as { urn?: unknown }).urn;
      if (typeof given === 'string') urn = given;
    } else uri = vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void this.notifier.error(vscode.l10n.t('Show Resource Graph: open a Pulumi state file first.'));
      return;
    }
    await this.show(uri, urn);
  }

  async show(uri: vscode.Uri, urn?: string): Promise<void> {
    // A focus asked for now wins over a cursor move still waiting to be followed.
    clearTimeout(this.followTimer);
    if (this.uri) this.choicesByFile.set(this.uri.toString(), this.choices);
    if (this.uri?.toString() !== uri.toString()) this.watch(uri);
    this.uri = uri;
    // The file is not opened for the picture: the server reads it from disk when no editor holds it (a
    // file too large for an editor has the graph as its only view).
    this.choices = { ...(this.choicesByFile.get(uri.toString()) ?? firstChoices()), search: undefined };
    if (urn !== undefined) this.choices.focus = urn;
    this.ensurePanel();
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const offset = urn === undefined && editor ? editor.document.offsetAt(editor.selection.active) : undefined;
    await this.load(offset === undefined ? {} : { offset });
  }

  /** Redraws when the file changes on disk (an open editor's changes arrive as edits instead). */
  private watch(uri: vscode.Uri): void {
    this.fileWatcher?.dispose();
    this.fileWatcher = undefined;
    if (uri.scheme !== 'file') return;
    const folder = vscode.Uri.joinPath(uri, '..');
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, name), true, false, true);
    watcher.onDidChange(() => {
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
      if (!open && this.uri?.toString() === uri.toString()) this.follow(() => ({}));
    });
    this.fileWatcher = watcher;
  }

  private ensurePanel(): void {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const scripts = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      'quotaState.resourceGraph',
      vscode.l10n.t('Resource Graph'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [scripts],
        retainContextWhenHidden: true,
      },
    );
    this.panel = panel;
    panel.onDidDispose(
      () => {
        this.panel = undefined;
        this.rendered = undefined;
        this.inFlight?.cancel();
        this.fileWatcher?.dispose();
        this.fileWatcher = undefined;
        this.uri = undefined;
      },
      null,
      this.disposables,
    );
    panel.webview.onDidReceiveMessage((message: FromWebview) => void this.receive(message), null, this.disposables);
    const nonce = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
    panel.webview.html = resourceGraphFrame({
      cspSource: panel.webview.cspSource,
      nonce,
      script: panel.webview.asWebviewUri(vscode.Uri.joinPath(scripts, 'resourceGraph.js')).toString(),
      l10n: vscode.l10n,
    });
  }

  private follow(extra: () => Partial<ResourceGraphParams>): void {
    clearTimeout(this.followTimer);
    const request = extra();
    this.followTimer = setTimeout(() => {
      // The cursor names the focus anew; an edit keeps the one chosen.
      if (request.offset !== undefined) this.choices.focus = undefined;
      void this.load(request);
    }, FOLLOW_DELAY_MS);
  }

  private async load(extra: Partial<ResourceGraphParams> = {}): Promise<ResourceGraphResult | null> {
    if (!this.uri || !this.panel) return null;
    const ticket = ++this.requestCounter;
    const { focus, depth, edgeKinds, type, provider, search, groupBy, expand } = this.choices;
    const params: ResourceGraphParams = {
      uri: this.uri.toString(),
      depth,
      ...(focus ? { focus } : {}),
      ...(edgeKinds ? { edgeKinds } : {}),
      ...(type ? { type } : {}),
      ...(provider ? { provider } : {}),
      ...(search ? { search } : {}),
      ...(groupBy ? { groupBy } : {}),
      ...(expand?.length ? { expand } : {}),
      ...extra,
    };
    // A newer picture supersedes the one in flight: the server stops laying it out.
    this.inFlight?.cancel();
    this.inFlight?.dispose();
    const cancellation = (this.inFlight = new vscode.CancellationTokenSource());
    let view: ResourceGraphResult | null;
    try {
      view = await this.client.sendRequest(ResourceGraphRequest, params, cancellation.token);
    } catch (error) {
      if (ticket !== this.requestCounter || cancellation.token.isCancellationRequested) return null; // superseded
      void this.notifier.error(vscode.l10n.t('Could not draw the resource graph: {0}', error instanceof Error ? error.message : String(error)));
      return null;
    }
    if (ticket !== this.requestCounter) return view; // a newer request took over
    this.view = view;
    if (view?.focus && !view.focus.startsWith(GROUP_ID_PREFIX)) this.choices.focus = view.focus;
    this.panel.title = view?.focus ? vscode.l10n.t('Graph: {0}', view.nodes.find((n) => n.id === view.focus)?.name ?? view.focus) : vscode.l10n.t('Resource Graph');
    void this.panel.webview.postMessage({ type: 'view', view, words: words() } satisfies ToWebview);
    return view;
  }

  private async receive(message: FromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (this.view !== undefined) void this.panel?.webview.postMessage({ type: 'view', view: this.view, words: words() } satisfies ToWebview);
        return;
      case 'rendered':
        this.rendered = message.rendered;
        this.renderedEmitter.fire(message.rendered);
        return;
      case 'select':
        clearTimeout(this.followTimer);
        this.choices.focus = message.id;
        await this.reveal(message.id);
        await this.load();
        return;
      case 'depth':
        this.choices.depth = message.depth;
        if (message.depth !== 'all') this.choices.expand = undefined;
        await this.load();
        return;
      case 'toggleGroup': {
        const expanded = this.choices.expand ?? [];
        this.choices.expand = expanded.includes(message.id) ? expanded.filter((id) => id !== message.id) : [...expanded, message.id];
        await this.load();
        return;
      }
      case 'groupBy':
        this.choices = { ...this.choices, groupBy: message.by, expand: undefined };
        await this.load();
        return;
      case 'filters':
        this.choices = { ...this.choices, edgeKinds: message.edgeKinds, type: message.resourceType, provider: message.provider };
        await this.load();
        return;
      case 'search':
        this.choices.search = message.query.trim() || undefined;
        await this.load();
        return;
      case 'exportSvg':
        await this.save('svg', message.svg);
        return;
      case 'exportDot': {
        const answer = await this.load({ dot: true });
        if (answer?.dot) await this.save('dot', answer.dot);
        return;
      }
    }
  }

  /** Selects the node's record in its editor (beside the graph), without moving the keyboard focus off the graph. */
  private async reveal(id: string): Promise<void> {
    const span = this.view?.nodes.find((n) => n.id === id)?.span;
    if (!span || !this.uri) return;
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(this.uri);
    } catch {
      return; // too large for an editor (the browser refuses 17 MB): the graph stays the view of it
    }
    const existing = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri!.toString());
    const editor = await vscode.window.showTextDocument(document, { viewColumn: existing?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: true, preview: false });
    const start = document.positionAt(span.offset);
    this.revealedOffset = span.offset;
    editor.selection = new vscode.Selection(start, start);
    editor.revealRange(new vscode.Range(start, document.positionAt(span.offset + span.length)), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async save(kind: 'svg' | 'dot', text: string): Promise<void> {
    this.lastExport = { kind, text };
    if (this.testing || !this.uri) return;
    const base = this.uri.path.replace(/\.json(\.gz|\.zst)?$/, '');
    const target = await vscode.window.showSaveDialog({
      defaultUri: this.uri.with({ path: `${base}.graph.${kind}` }),
      filters: kind === 'svg' ? { SVG: ['svg'] } : { DOT: ['dot', 'gv'] },
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    void this.notifier.info(vscode.l10n.t('Saved the resource graph to {0}', vscode.workspace.asRelativePath(target)));
  }

  dispose(): void {
    clearTimeout(this.followTimer);
    this.inFlight?.dispose();
    this.fileWatcher?.dispose();
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
