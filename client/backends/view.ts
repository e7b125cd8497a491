/**
 * The Pulumi Backends view (Explorer), put together: which backends it shows (discovery.ts), the
 * tree of their stacks, history and backups (tree.ts), and its commands (commands.ts), whose writes
 * are actions.ts's. The model and its words (describe.ts) are the CLI's, shared/backend's, read
 * through `vscode.workspace.fs` (store.ts).
 */
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { Notifier } from '../notifier';
import type { SaltKeys } from '../secrets';
import { BackendActions } from './actions';
import { ChangePassphraseAction } from './changePassphrase';
import { BackendCommands } from './commands';
import { CopyActions } from './copyActions';
import { BackendDiscovery } from './discovery';
import type { StateDiffView } from './stateDiff';
import { StackActions } from './stackActions';
import { BackendsTree } from './tree';

export class BackendsView {
  readonly discovery: BackendDiscovery;
  readonly tree: BackendsTree;
  readonly actions: BackendActions;
  readonly stackActions: StackActions;
  readonly copyActions: CopyActions;
  readonly changePassphrase: ChangePassphraseAction;
  readonly commands: BackendCommands;

  constructor(state: vscode.Memento, notifier: Notifier, stateDiff: StateDiffView, client: LanguageClient, keys: SaltKeys) {
    this.discovery = new BackendDiscovery(state);
    this.tree = new BackendsTree(this.discovery);
    // A write changes the backend: the tree reads it again.
    this.actions = new BackendActions(client, notifier, () => this.tree.refresh());
    this.stackActions = new StackActions(notifier, () => this.tree.refresh());
    this.copyActions = new CopyActions(
      notifier,
      () => this.discovery.roots(),
      () => this.tree.refresh(),
    );
    this.changePassphrase = new ChangePassphraseAction(notifier, keys, () => this.tree.refresh());
    this.commands = new BackendCommands(this.tree, this.discovery, notifier, stateDiff, this.actions, this.stackActions, this.copyActions, this.changePassphrase);
  }

  /** The commands, and the tree (its view, watchers and listeners) to dispose with them. */
  register(): vscode.Disposable[] {
    return [...this.commands.register(), this.tree];
  }
}
