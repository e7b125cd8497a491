/**
 * The Pulumi Backends view (Explorer): the backends discovery.ts finds appear by themselves, others
 * are added with Add Backend… and remembered per workspace. The tree runs backend → stack → History and Backups; a stack shows its last update's
 * result and its lock holders, a history entry its kind, result, time, message and change counts.
 * Open shows a file read-only (documents.ts); Compare opens VS Code's diff editor on two of them.
 * The model and its words (describe.ts) are the CLI's, shared/backend's, read through
 * `vscode.workspace.fs` (store.ts).
 */
import * as vscode from 'vscode';
import { BackendError, describeEntry, findStack, lastUpdateText, parseS3BackendUrl, readBackend, readHistory, type Backend, type BackendStack } from '../../shared/backend/vocabulary';
import type { Notifier } from '../notifier';
import { SHOW_RESOURCE_GRAPH_COMMAND } from '../../shared/protocol';
import type { BackendActions } from './actions';
import { bucketsSupported } from './bucketAccess';
import { BUCKET_SCHEME, bucketPartsOf, bucketRootUri } from './bucketFileSystem';
import { BackendDiscovery, rootProblem } from './discovery';
import { backendDocumentUri } from './documents';
import { judgeStackLock } from './lockDialog';
import { backupOf, fileOf, nodeLabel, relativeTime, type BackendTreeNode, type ProblemNode } from './nodes';
import { stackFileLocation } from './stackFiles';
import type { StateDiffView } from './stateDiff';
import { workspaceBackendStore } from './store';

const PAGE = 50;

export class BackendsView implements vscode.TreeDataProvider<BackendTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BackendTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly backends = new Map<string, Backend>();
  private readonly pages = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private watchers = new Map<string, vscode.Disposable>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  readonly view: vscode.TreeView<BackendTreeNode>;
  readonly discovery: BackendDiscovery;

  constructor(
    state: vscode.Memento,
    private readonly notifier: Notifier,
    private readonly stateDiff: StateDiffView,
    readonly actions: BackendActions,
  ) {
    this.discovery = new BackendDiscovery(state);
    this.view = vscode.window.createTreeView('quotaState.backends', { treeDataProvider: this, canSelectMany: true, showCollapseAll: true });
    this.disposables.push(
      this.view,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
    );
  }

  register(): vscode.Disposable[] {
    const node = (given: unknown): BackendTreeNode | undefined => (typeof given === 'object' && given !== null && 'kind' in given ? (given as BackendTreeNode) : this.view.selection[0]);
    return [
      vscode.commands.registerCommand('quotaState.backends.add', () => this.add()),
      vscode.commands.registerCommand('quotaState.backends.refresh', () => this.refresh()),
      vscode.commands.registerCommand('quotaState.backends.open', (given?: unknown) => this.open(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareWithPrevious', (given?: unknown) => this.compareWithPrevious(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareWithCurrent', (given?: unknown) => this.compareWithCurrent(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareSelected', (_given?: unknown, all?: unknown) =>
        this.compareSelected(Array.isArray(all) ? (all as BackendTreeNode[]) : this.view.selection),
      ),
      vscode.commands.registerCommand('quotaState.backends.more', (given?: unknown) => this.more(node(given))),
      vscode.commands.registerCommand('quotaState.backends.restore', (given?: unknown) => this.restore(node(given))),
      vscode.commands.registerCommand('quotaState.backends.prune', (given?: unknown) => this.prune(node(given))),
      vscode.commands.registerCommand('quotaState.backends.upgrade', (given?: unknown) => this.upgrade(node(given))),
      vscode.commands.registerCommand('quotaState.backends.showGraph', (given?: unknown) => this.showGraph(node(given))),
      vscode.commands.registerCommand('quotaState.showHistory', (given?: unknown) => this.showHistory(given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri)),
      vscode.commands.registerCommand('quotaState.compareWithPrevious', (given?: unknown) =>
        this.compareFileWithPrevious(given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri),
      ),
      this,
    ];
  }

  private async add(): Promise<void> {
    const folder = vscode.l10n.t('A folder…');
    const bucket = vscode.l10n.t('A bucket URL (s3://…)…');
    const kind = bucketsSupported ? await vscode.window.showQuickPick([folder, bucket], { title: vscode.l10n.t('Add Backend: where is it?') }) : folder;
    if (kind === bucket) {
      const url = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Backend: the bucket, as `pulumi login` takes it'),
        placeHolder: 's3://my-state-bucket?region=eu-west-1',
        prompt: vscode.l10n.t('Credentials come from the AWS SDK chain of this editor: AWS_* variables, ~/.aws, or profile= in the URL.'),
        validateInput: (text) => {
          try {
            parseS3BackendUrl(text.trim());
            return undefined;
          } catch (error) {
            return error instanceof Error ? error.message : String(error);
          }
        },
      });
      if (url) await this.addRoot(bucketRootUri(url.trim()));
      return;
    }
    if (kind !== folder) return;
    const [picked] =
      (await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: vscode.l10n.t('Add Backend'),
        title: vscode.l10n.t('A folder holding a Pulumi DIY backend (.pulumi)'),
      })) ?? [];
    if (!picked) return;
    await this.addRoot(picked);
  }

  /** Remembers `root` for this workspace and shows it; says so when it holds no backend. */
  async addRoot(root: vscode.Uri): Promise<boolean> {
    const problem = await this.discovery.remember(root);
    if (problem) {
      void this.notifier.error(problem);
      return false;
    }
    this.refresh();
    return true;
  }

  refresh(): void {
    this.backends.clear();
    this.changed.fire(undefined);
  }

  /** Follows the files under each backend's `.pulumi/`, a burst of writes making one refresh. */
  private watch(root: vscode.Uri): void {
    // A bucket sends no change events: Refresh reads it again.
    if (this.watchers.has(root.toString()) || root.scheme === BUCKET_SCHEME) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '.pulumi/**'));
    const later = () => {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => this.refresh(), 300);
    };
    watcher.onDidCreate(later);
    watcher.onDidChange(later);
    watcher.onDidDelete(later);
    this.watchers.set(root.toString(), watcher);
  }

  private async backend(root: vscode.Uri): Promise<Backend> {
    let backend = this.backends.get(root.toString());
    if (!backend) this.backends.set(root.toString(), (backend = await readBackend(workspaceBackendStore(root))));
    return backend;
  }

  async getChildren(node?: BackendTreeNode): Promise<BackendTreeNode[]> {
    if (!node) {
      // Read now (it is expanded at once): a legacy layout offers Upgrade Backend Layout….
      const roots = await this.discovery.roots();
      const layouts = await Promise.all(
        roots.map((root) =>
          this.backend(root).then(
            (b) => b.layout === 'legacy' && b.stacks.length > 0,
            () => false,
          ),
        ),
      );
      return roots.map((root, index) => ({ kind: 'backend', root, legacy: layouts[index] }));
    }
    if (node.kind === 'backend') {
      this.watch(node.root);
      let backend: Backend;
      try {
        backend = await this.backend(node.root);
      } catch (error) {
        return [{ kind: 'problem', message: (await rootProblem(node.root)) ?? (error instanceof BackendError ? error.message : String(error)) }];
      }
      const store = workspaceBackendStore(node.root);
      return Promise.all(backend.stacks.map(async (stack) => ({ kind: 'stack' as const, root: node.root, stack, last: (await readHistory(store, stack, { limit: 1 })).entries[0] })));
    }
    if (node.kind === 'stack')
      return [
        { kind: 'history', root: node.root, stack: node.stack },
        { kind: 'backups', root: node.root, stack: node.stack },
      ];
    if (node.kind === 'history') {
      const key = `${node.root.toString()}|${node.stack.ref}`;
      const shown = this.pages.get(key) ?? PAGE;
      const { entries, problems } = await readHistory(workspaceBackendStore(node.root), node.stack, { limit: shown + 1 });
      const children: BackendTreeNode[] = entries.slice(0, shown).map((entry, index) => ({ kind: 'entry', root: node.root, stack: node.stack, entry, previous: entries[index + 1] }));
      if (node.stack.historyIds.length > shown) children.push({ kind: 'more', root: node.root, stack: node.stack, shown });
      return [...children, ...problems.map((p): ProblemNode => ({ kind: 'problem', message: `${p.file}: ${p.message}` }))];
    }
    if (node.kind === 'backups') return [...node.stack.backups].reverse().map((name) => ({ kind: 'backup', root: node.root, stack: node.stack, name }));
    return [];
  }

  getTreeItem(node: BackendTreeNode): vscode.TreeItem {
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.kind) {
      case 'backend': {
        const bucket = node.root.scheme === BUCKET_SCHEME ? bucketPartsOf(node.root).url : undefined;
        const item = new vscode.TreeItem(bucket ? bucket.replace(/\?.*$/, '') : (node.root.path.split('/').filter(Boolean).pop() ?? node.root.toString()), vscode.TreeItemCollapsibleState.Expanded);
        const where = bucket ?? (node.root.scheme === 'file' ? node.root.fsPath : node.root.toString());
        item.description = node.legacy ? vscode.l10n.t('legacy layout · {0}', where) : where;
        item.iconPath = node.legacy ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon(bucket ? 'cloud' : 'database');
        item.contextValue = node.legacy ? 'backendLegacy' : 'backend';
        if (node.legacy) item.tooltip = vscode.l10n.t('The legacy layout: Pulumi refuses it since v3.257. Upgrade Backend Layout… moves it.');
        return item;
      }
      case 'stack': {
        const item = new vscode.TreeItem(node.stack.ref, collapsed);
        const now = Date.now();
        // Each lock as `backend ls` names it, a stale one marked (`user@host (pid N, stale)`); the tooltip says why.
        const locks = node.stack.locks.map((lock) => judgeStackLock(lock, now));
        const allStale = locks.length > 0 && locks.every((lock) => lock.stale);
        const last = node.last;
        item.description = [lastUpdateText(last, relativeTime), locks.length ? vscode.l10n.t('locked by {0}', locks.map((lock) => lock.marked).join(', ')) : ''].filter(Boolean).join(' · ');
        if (locks.length) item.tooltip = locks.map((lock) => lock.line).join('\n');
        item.iconPath = allStale
          ? new vscode.ThemeIcon('unlock', new vscode.ThemeColor('disabledForeground'))
          : locks.length
            ? new vscode.ThemeIcon('lock', new vscode.ThemeColor('charts.yellow'))
            : last?.result === 'failed'
              ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
              : last?.result === 'in-progress'
                ? new vscode.ThemeIcon('sync')
                : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
        item.contextValue = 'stack';
        item.command = { command: 'quotaState.backends.open', title: vscode.l10n.t('Open'), arguments: [node] };
        return item;
      }
      case 'history':
        return Object.assign(new vscode.TreeItem(vscode.l10n.t('History'), collapsed), { description: String(node.stack.historyIds.length), iconPath: new vscode.ThemeIcon('history') });
      case 'backups':
        return Object.assign(new vscode.TreeItem(vscode.l10n.t('Backups'), collapsed), { description: String(node.stack.backups.length), iconPath: new vscode.ThemeIcon('archive') });
      case 'entry': {
        const { entry } = node;
        const described = describeEntry(entry, relativeTime);
        const item = new vscode.TreeItem(described.title, vscode.TreeItemCollapsibleState.None);
        item.description = [described.details, described.checkpoint, described.message].filter(Boolean).join(' · ');
        item.tooltip = new vscode.MarkdownString().appendCodeblock(JSON.stringify(entry, null, 2), 'json');
        item.iconPath = new vscode.ThemeIcon(entry.result === 'failed' ? 'error' : entry.checkpoint ? 'git-commit' : 'warning');
        item.contextValue = entry.checkpoint ? 'historyEntry' : 'historyEntryWithoutCheckpoint';
        if (entry.checkpoint) item.command = { command: 'quotaState.backends.open', title: vscode.l10n.t('Open'), arguments: [node] };
        return item;
      }
      case 'backup': {
        const backup = backupOf(node.stack, node.name);
        const item = new vscode.TreeItem(backup.time ?? node.name.slice(node.name.lastIndexOf('/') + 1), vscode.TreeItemCollapsibleState.None);
        item.description = [backup.version && vscode.l10n.t('version {0}', backup.version), backup.iso && relativeTime(backup.iso)].filter(Boolean).join(' · ');
        item.tooltip = node.name;
        item.iconPath = new vscode.ThemeIcon('file-binary');
        item.contextValue = 'backup';
        item.command = { command: 'quotaState.backends.open', title: vscode.l10n.t('Open'), arguments: [node] };
        return item;
      }
      case 'more':
        return Object.assign(new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None), {
          command: { command: 'quotaState.backends.more', title: vscode.l10n.t('Load more…'), arguments: [node] },
        });
      case 'problem':
        return Object.assign(new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None), { iconPath: new vscode.ThemeIcon('warning') });
    }
  }

  private async open(node: BackendTreeNode | undefined): Promise<void> {
    const file = fileOf(node);
    if (!file) return;
    // A bucket's plain stack object opens editable: saving writes it back under the locks (bucketFileSystem.ts).
    if (node?.kind === 'stack' && file.scheme === BUCKET_SCHEME && !node.stack.file?.compression) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
      return;
    }
    await vscode.window.showTextDocument(backendDocumentUri(file), { preview: true });
  }

  /** The State Diff view of the two, and VS Code's diff editor on them (Open Text Diff opens it again). */
  private async diff(left: vscode.Uri, right: vscode.Uri, title: string): Promise<void> {
    try {
      await this.stateDiff.show(left, right, title);
    } catch (error) {
      void this.notifier.error(vscode.l10n.t('Could not compare {0}: {1}', title, error instanceof Error ? error.message : String(error)));
    }
    await vscode.commands.executeCommand('vscode.diff', backendDocumentUri(left), backendDocumentUri(right), title);
  }

  private async compareWithPrevious(node: BackendTreeNode | undefined): Promise<void> {
    if (node?.kind !== 'entry' || !node.entry.checkpoint) return;
    if (!node.previous?.checkpoint) {
      void this.notifier.info(vscode.l10n.t('Version {0} of {1} is the oldest with a checkpoint: there is nothing before it to compare with.', node.entry.version, node.stack.ref));
      return;
    }
    const file = (name: string) => vscode.Uri.joinPath(node.root, ...name.split('/'));
    await this.diff(file(node.previous.checkpoint), file(node.entry.checkpoint), vscode.l10n.t('{0}: version {1} ↔ {2}', node.stack.ref, node.previous.version, node.entry.version));
  }

  private async compareWithCurrent(node: BackendTreeNode | undefined): Promise<void> {
    const file = fileOf(node);
    if (!file || !node || !('stack' in node) || !node.stack.file) return;
    const current = vscode.Uri.joinPath(node.root, ...node.stack.file.name.split('/'));
    await this.diff(file, current, vscode.l10n.t('{0}: {1} ↔ current', node.stack.ref, nodeLabel(node)));
  }

  private async compareSelected(nodes: readonly BackendTreeNode[]): Promise<void> {
    const files = nodes.map((n) => fileOf(n)).filter((f): f is vscode.Uri => f !== undefined);
    if (files.length !== 2) {
      void this.notifier.info(vscode.l10n.t('Select two versions, backups or stacks to compare.'));
      return;
    }
    const [a, b] = nodes.filter((n) => fileOf(n) !== undefined) as Array<Extract<BackendTreeNode, { stack: BackendStack }>>;
    const title =
      a.stack.ref === b.stack.ref && a.root.toString() === b.root.toString()
        ? vscode.l10n.t('{0}: {1} ↔ {2}', a.stack.ref, nodeLabel(a), nodeLabel(b))
        : vscode.l10n.t('{0} ↔ {1}', `${a.stack.ref} ${nodeLabel(a)}`, `${b.stack.ref} ${nodeLabel(b)}`);
    await this.diff(files[0], files[1], title);
  }

  private async restore(node: BackendTreeNode | undefined): Promise<void> {
    const file = fileOf(node);
    if (!file || (node?.kind !== 'entry' && node?.kind !== 'backup')) return;
    await this.actions.restore({ root: node.root, stack: node.stack, file, label: nodeLabel(node) });
  }

  private async prune(node: BackendTreeNode | undefined): Promise<void> {
    if (node?.kind === 'backend') await this.actions.prune(node.root);
    else if (node?.kind === 'stack') await this.actions.prune(node.root, node.stack);
  }

  private async upgrade(node: BackendTreeNode | undefined): Promise<void> {
    if (node?.kind === 'backend') await this.actions.upgrade(node.root);
  }

  /** The resource graph of a stack's current state, a checkpoint or a backup (its read-only document). */
  private async showGraph(node: BackendTreeNode | undefined): Promise<void> {
    const file = fileOf(node);
    if (!file) return;
    const document = backendDocumentUri(file);
    await vscode.window.showTextDocument(document, { preview: true });
    await vscode.commands.executeCommand(SHOW_RESOURCE_GRAPH_COMMAND, document);
  }

  private more(node: BackendTreeNode | undefined): void {
    if (node?.kind !== 'more') return;
    this.pages.set(`${node.root.toString()}|${node.stack.ref}`, node.shown + PAGE);
    this.changed.fire(undefined);
  }

  /** For a stack file however it was opened (stackFiles.ts): its backend root and its stack, when it is one. */
  async stackOfFile(given: vscode.Uri): Promise<{ root: vscode.Uri; stack: BackendStack } | undefined> {
    const location = stackFileLocation(given);
    if (!location) return undefined;
    try {
      const backend = await this.backend(location.root);
      const stack = findStack(backend, location.ref, undefined);
      return stack && { root: location.root, stack };
    } catch {
      return undefined;
    }
  }

  private async stackOrSay(uri: vscode.Uri | undefined) {
    const found = uri && (await this.stackOfFile(uri));
    if (!found) void this.notifier.error(vscode.l10n.t('This is no stack file of a Pulumi DIY backend (…/.pulumi/stacks/…).'));
    return found;
  }

  /** The stack's history in a quick pick, newest first; the version picked is compared with the current state. */
  async showHistory(uri: vscode.Uri | undefined): Promise<void> {
    const found = await this.stackOrSay(uri);
    if (!found) return;
    const { entries } = await readHistory(workspaceBackendStore(found.root), found.stack);
    const picked = await vscode.window.showQuickPick(
      entries.map((entry) => {
        const described = describeEntry(entry, relativeTime);
        return { label: described.title, description: described.details, detail: described.message, entry };
      }),
      { title: vscode.l10n.t('History of {0}: pick a version to compare with the current state', found.stack.ref), matchOnDescription: true, matchOnDetail: true },
    );
    if (picked) await this.compareWithCurrent({ kind: 'entry', root: found.root, stack: found.stack, entry: picked.entry });
  }

  /** The stack file against its newest history checkpoint: what changed since the last update was recorded. */
  async compareFileWithPrevious(uri: vscode.Uri | undefined): Promise<void> {
    const found = await this.stackOrSay(uri);
    if (!found) return;
    const [newest] = (await readHistory(workspaceBackendStore(found.root), found.stack, { limit: 1 })).entries;
    if (!newest?.checkpoint) {
      void this.notifier.info(vscode.l10n.t('{0} has no history checkpoint to compare with.', found.stack.ref));
      return;
    }
    await this.compareWithCurrent({ kind: 'entry', root: found.root, stack: found.stack, entry: newest });
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const watcher of this.watchers.values()) watcher.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
