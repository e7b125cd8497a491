/**
 * The Backends view's tree (Explorer): backend → stack → History and Backups, and backend → Deleted
 * (the removed stacks, each with Restore). A stack shows its last
 * update's result and its lock holders, a history entry its kind, result, time, message and change
 * counts, in the CLI's words (describe.ts). The backends are read once per refresh, through
 * `vscode.workspace.fs` (store.ts); the files under a folder's `.pulumi/` refresh it when they change.
 */
import * as vscode from 'vscode';
import { BackendError, describeEntry, lastUpdateText, listDeleted, readBackend, readHistory, sizeText, type Backend } from '../../shared/backend/vocabulary';
import { bucketPartsOf } from './bucketFileSystem';
import { isRemoteUri } from './remoteUris';
import { rootProblem, type BackendDiscovery } from './discovery';
import { judgeStackLock } from './lockDialog';
import { backupOf, relativeTime, type BackendTreeNode, type MoreNode, type ProblemNode } from './nodes';
import { workspaceBackendStore } from './store';

/** History entries shown at first, and added by each Load more…: a long history is read a page at a time. */
const PAGE = 50;

export class BackendsTree implements vscode.TreeDataProvider<BackendTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BackendTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly backends = new Map<string, Backend>();
  private readonly pages = new Map<string, number>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private watchers = new Map<string, vscode.Disposable>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  readonly view: vscode.TreeView<BackendTreeNode>;

  constructor(private readonly discovery: BackendDiscovery) {
    this.view = vscode.window.createTreeView('quotaState.backends', { treeDataProvider: this, canSelectMany: true, showCollapseAll: true });
    this.disposables.push(
      this.view,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
    );
  }

  refresh(): void {
    this.backends.clear();
    this.changed.fire(undefined);
  }

  /** Shows another page of a stack's history. */
  loadMore(node: MoreNode): void {
    this.pages.set(`${node.root.toString()}|${node.stack.ref}`, node.shown + PAGE);
    this.changed.fire(undefined);
  }

  /** Follows the files under each backend's `.pulumi/`, a burst of writes making one refresh. */
  private watch(root: vscode.Uri): void {
    // A bucket sends no change events: Refresh reads it again.
    if (this.watchers.has(root.toString()) || isRemoteUri(root)) return;
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

  /** The backend at `root` as the tree shows it: read once until the next refresh. */
  async backend(root: vscode.Uri): Promise<Backend> {
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
      const stacks: BackendTreeNode[] = await Promise.all(
        backend.stacks.map(async (stack) => ({ kind: 'stack' as const, root: node.root, stack, last: (await readHistory(store, stack, { limit: 1 })).entries[0] })),
      );
      // Removed stacks (Remove Stack…, a move, an overwrite), newest first: Restore brings each back.
      const deleted = (await listDeleted(store).catch(() => [])).reverse();
      return deleted.length ? [...stacks, { kind: 'deleted', root: node.root, entries: deleted }] : stacks;
    }
    if (node.kind === 'deleted') return node.entries.map((entry) => ({ kind: 'deletedStack', root: node.root, entry }));
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
        const bucket = isRemoteUri(node.root) ? bucketPartsOf(node.root).url : undefined;
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
      case 'deleted':
      case 'deletedStack':
        return deletedItem(node);
      case 'more':
        return Object.assign(new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None), {
          command: { command: 'quotaState.backends.more', title: vscode.l10n.t('Load more…'), arguments: [node] },
        });
      case 'problem':
        return Object.assign(new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None), { iconPath: new vscode.ThemeIcon('warning') });
    }
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const watcher of this.watchers.values()) watcher.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** The Deleted node and its removed stacks (each with Restore). */
function deletedItem(node: Extract<BackendTreeNode, { kind: 'deleted' | 'deletedStack' }>): vscode.TreeItem {
  if (node.kind === 'deleted')
    return Object.assign(new vscode.TreeItem(vscode.l10n.t('Deleted'), vscode.TreeItemCollapsibleState.Collapsed), {
      description: String(node.entries.length),
      iconPath: new vscode.ThemeIcon('trash'),
      tooltip: vscode.l10n.t('Stacks removed into .pulumi/deleted/, with their history, backups and tags'),
    });
  const { entry } = node;
  const item = new vscode.TreeItem(entry.stack, vscode.TreeItemCollapsibleState.None);
  const when = entry.time ? relativeTime(entry.time) : undefined;
  item.description = entry.complete
    ? [when, entry.reason, vscode.l10n.t('{0} history entries', entry.historyEntries), sizeText(entry.bytes)].filter(Boolean).join(' · ')
    : vscode.l10n.t('interrupted: no manifest');
  item.tooltip = entry.folder;
  item.iconPath = new vscode.ThemeIcon(entry.complete ? 'history' : 'warning');
  item.contextValue = entry.complete ? 'deletedStack' : 'deletedStackIncomplete';
  return item;
}
