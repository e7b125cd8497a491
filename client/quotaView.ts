/** The Quota view: its tree, with the signed-in account and server as the view's description. */
import * as vscode from 'vscode';
import type { QuotaNode, QuotaTreeProvider } from './quotaTree';

export function registerQuotaView(tree: QuotaTreeProvider): vscode.Disposable & { view: vscode.TreeView<QuotaNode> } {
  const view = vscode.window.createTreeView('quotaState.quota', { treeDataProvider: tree, showCollapseAll: true });
  const subscription = tree.onDidChangeAccount((shown) => {
    view.description = shown ? `${shown.account} · ${new URL(shown.server).host}` : undefined;
  });
  return {
    view,
    dispose: () => {
      subscription.dispose();
      view.dispose();
    },
  };
}
