/**
 * The Backends view's commands: Add Backend…, Refresh, Open (a file read-only, documents.ts), the
 * comparisons (the State Diff view and VS Code's diff editor), Show History and Compare with Previous
 * on a stack file, Show Resource Graph, Load more…, and the writes actions.ts makes (Restore This
 * Version…, Prune History…, Upgrade Backend Layout…), stackActions.ts's (Rename Stack…, Remove Stack…,
 * Restore of a Deleted entry), copyActions.ts's (Copy to Backend…, Move to Backend…) and
 * changePassphrase.ts's (Change Passphrase…). A command run from a menu gets its node; from
 * the palette or a key it takes the tree's selection.
 */
import * as vscode from 'vscode';
import { describeEntry, findStack, parseRemoteBackendUrl, readHistory, REMOTE_SCHEMES, type BackendStack } from '../../shared/backend/vocabulary';
import { SHOW_RESOURCE_GRAPH_COMMAND } from '../../shared/protocol';
import type { Notifier } from '../notifier';
import type { BackendActions } from './actions';
import type { ChangePassphraseAction, ChangePassphraseOptions } from './changePassphrase';
import type { CopyActions } from './copyActions';
import type { StackActions } from './stackActions';
import { bucketsSupported } from './bucketAccess';
import { bucketRootUri } from './bucketFileSystem';
import { isRemoteUri } from './remoteUris';
import type { BackendDiscovery } from './discovery';
import { backendDocumentUri } from './documents';
import { fileOf, nodeLabel, relativeTime, type BackendTreeNode } from './nodes';
import { stackFileLocation } from './stackFiles';
import type { StateDiffView } from './stateDiff';
import { workspaceBackendStore } from './store';
import type { BackendsTree } from './tree';

export class BackendCommands {
  constructor(
    private readonly tree: BackendsTree,
    private readonly discovery: BackendDiscovery,
    private readonly notifier: Notifier,
    private readonly stateDiff: StateDiffView,
    private readonly actions: BackendActions,
    private readonly stackActions: StackActions,
    private readonly copyActions: CopyActions,
    private readonly changePassphrase: ChangePassphraseAction,
  ) {}

  register(): vscode.Disposable[] {
    const node = (given: unknown): BackendTreeNode | undefined => (typeof given === 'object' && given !== null && 'kind' in given ? (given as BackendTreeNode) : this.tree.view.selection[0]);
    return [
      vscode.commands.registerCommand('quotaState.backends.add', () => this.add()),
      vscode.commands.registerCommand('quotaState.backends.refresh', () => this.tree.refresh()),
      vscode.commands.registerCommand('quotaState.backends.open', (given?: unknown) => this.open(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareWithPrevious', (given?: unknown) => this.compareWithPrevious(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareWithCurrent', (given?: unknown) => this.compareWithCurrent(node(given))),
      vscode.commands.registerCommand('quotaState.backends.compareSelected', (_given?: unknown, all?: unknown) =>
        this.compareSelected(Array.isArray(all) ? (all as BackendTreeNode[]) : this.tree.view.selection),
      ),
      vscode.commands.registerCommand('quotaState.backends.more', (given?: unknown) => this.more(node(given))),
      vscode.commands.registerCommand('quotaState.backends.restore', (given?: unknown) => this.restore(node(given))),
      vscode.commands.registerCommand('quotaState.backends.prune', (given?: unknown) => this.prune(node(given))),
      vscode.commands.registerCommand('quotaState.backends.upgrade', (given?: unknown) => this.upgrade(node(given))),
      vscode.commands.registerCommand('quotaState.backends.renameStack', (given?: unknown) => this.stackWrite(node(given), (n) => this.stackActions.rename(n.root, n.stack))),
      vscode.commands.registerCommand('quotaState.backends.removeStack', (given?: unknown) => this.stackWrite(node(given), (n) => this.stackActions.remove(n.root, n.stack))),
      vscode.commands.registerCommand('quotaState.backends.changePassphrase', (given?: unknown, options?: ChangePassphraseOptions) =>
        this.stackWrite(node(given), (n) => this.changePassphrase.run(n.root, n.stack, options)),
      ),
      vscode.commands.registerCommand('quotaState.backends.restoreDeleted', (given?: unknown) => this.restoreDeleted(node(given))),
      vscode.commands.registerCommand('quotaState.backends.copyTo', (given?: unknown) => this.copy(node(given), false)),
      vscode.commands.registerCommand('quotaState.backends.moveTo', (given?: unknown) => this.copy(node(given), true)),
      vscode.commands.registerCommand('quotaState.backends.showGraph', (given?: unknown) => this.showGraph(node(given))),
      vscode.commands.registerCommand('quotaState.showHistory', (given?: unknown) => this.showHistory(given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri)),
      vscode.commands.registerCommand('quotaState.compareWithPrevious', (given?: unknown) =>
        this.compareFileWithPrevious(given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri),
      ),
    ];
  }

  private async add(): Promise<void> {
    const folder = vscode.l10n.t('A folder…');
    const remote = vscode.l10n.t('A backend URL ({0})…', REMOTE_SCHEMES.map((scheme) => `${scheme}://`).join(', '));
    const kind = bucketsSupported ? await vscode.window.showQuickPick([folder, remote], { title: vscode.l10n.t('Add Backend: where is it?') }) : folder;
    if (kind === remote) {
      const url = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Backend: the URL, as `pulumi login` takes it'),
        placeHolder: 's3://my-state-bucket?region=eu-west-1',
        prompt: vscode.l10n.t(
          "Credentials come from each cloud SDK's chain in this editor's environment (AWS_*, AZURE_STORAGE_*, GOOGLE_*, PG* variables and their files); a password in a URL is kept for this session only.",
        ),
        validateInput: (text) => {
          try {
            return parseRemoteBackendUrl(text.trim(), (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {})
              ? undefined
              : vscode.l10n.t('{0}: not one of {1}', text.trim(), REMOTE_SCHEMES.map((scheme) => `${scheme}://`).join(', '));
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
    this.tree.refresh();
    return true;
  }

  private async open(node: BackendTreeNode | undefined): Promise<void> {
    const file = fileOf(node);
    if (!file) return;
    // A bucket's plain stack object opens editable: saving writes it back under the locks (bucketFileSystem.ts).
    if (node?.kind === 'stack' && isRemoteUri(file) && !node.stack.file?.compression) {
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

  private async stackWrite(node: BackendTreeNode | undefined, write: (node: Extract<BackendTreeNode, { kind: 'stack' }>) => Promise<unknown>): Promise<void> {
    if (node?.kind === 'stack') await write(node);
  }

  private async restoreDeleted(node: BackendTreeNode | undefined): Promise<void> {
    if (node?.kind === 'deletedStack') await this.stackActions.restoreDeleted(node.root, node.entry);
  }

  /** Copy to Backend… / Move to Backend…: a stack, or every stack of a backend. */
  private async copy(node: BackendTreeNode | undefined, move: boolean): Promise<void> {
    if (node?.kind === 'stack') await this.copyActions.copy(node.root, [node.stack], move);
    else if (node?.kind === 'backend') await this.copyActions.copy(node.root, undefined, move);
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
    if (node?.kind === 'more') this.tree.loadMore(node);
  }

  /** For a stack file however it was opened (stackFiles.ts): its backend root and its stack, when it is one. */
  async stackOfFile(given: vscode.Uri): Promise<{ root: vscode.Uri; stack: BackendStack } | undefined> {
    const location = stackFileLocation(given);
    if (!location) return undefined;
    try {
      const backend = await this.tree.backend(location.root);
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
  private async showHistory(uri: vscode.Uri | undefined): Promise<void> {
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
  private async compareFileWithPrevious(uri: vscode.Uri | undefined): Promise<void> {
    const found = await this.stackOrSay(uri);
    if (!found) return;
    const [newest] = (await readHistory(workspaceBackendStore(found.root), found.stack, { limit: 1 })).entries;
    if (!newest?.checkpoint) {
      void this.notifier.info(vscode.l10n.t('{0} has no history checkpoint to compare with.', found.stack.ref));
      return;
    }
    await this.compareWithCurrent({ kind: 'entry', root: found.root, stack: found.stack, entry: newest });
  }
}
