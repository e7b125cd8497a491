/**
 * The Pulumi Backends view in a real VS Code, the same in Node's extension host and the browser's,
 * on a DIY backend real Pulumi made (copied into the workspace's `state-backend/` by the runner:
 * gzip-compressed, nine updates, a stale lock): Add Backend, the tree's items, Open on a gzip
 * checkpoint (read-only, pretty-printed, checked by the language server), Compare with Previous and
 * Compare with Previous from the stack file (VS Code's diff editor on the two versions).
 */
import * as vscode from 'vscode';
import type { BackendTreeNode } from '../../client/backends/view';
import { activeExtension, codeOf, revertAndCloseAll, waitFor, workspaceUri } from './common';

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

type Labelled = { node: BackendTreeNode; item: vscode.TreeItem };

async function children(node?: BackendTreeNode): Promise<Labelled[]> {
  const { hooks } = await activeExtension();
  const nodes = await hooks.backends.getChildren(node);
  return nodes.map((child) => ({ node: child, item: hooks.backends.getTreeItem(child) }));
}

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

function diffTab(): vscode.TabInputTextDiff | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input : undefined;
}

export async function backendsScenario(): Promise<void> {
  const { hooks } = await activeExtension();
  const root = workspaceUri('state-backend');
  try {
    expect(await hooks.backends.addRoot(root), 'Add Backend takes the workspace backend');
    const backends = await children();
    const backend = backends.find((b) => b.node.kind === 'backend' && b.node.root.toString() === root.toString());
    expect(backend !== undefined, `the backend is listed: ${backends.map((b) => label(b.item)).join(', ')}`);
    const [stack] = await children(backend!.node);
    expect(label(stack.item) === 'organization/hist/dev', `the stack: ${label(stack.item)}`);
    expect(/locked by root@|locked by \S+@/.test(String(stack.item.description)), `the stale lock is named: ${String(stack.item.description)}`);
    const [history, backups] = await children(stack.node);
    expect(label(history.item) === 'History' && history.item.description === '9', `History (9): ${label(history.item)} ${String(history.item.description)}`);
    expect(label(backups.item) === 'Backups' && backups.item.description === '9', `Backups (9): ${String(backups.item.description)}`);
    const entries = await children(history.node);
    expect(
      JSON.stringify(entries.map((e) => label(e.item).split(/\s+/)[0])) === JSON.stringify(['9', '8', '7', '6', '5', '4', '3', '2', '1']),
      `versions newest first: ${entries.map((e) => label(e.item)).join(', ')}`,
    );
    expect(
      label(entries[0].item).endsWith('destroy') && String(entries[0].item.description).includes('-4'),
      `the destroy and its count: ${label(entries[0].item)} ${String(entries[0].item.description)}`,
    );
    expect(String(entries[2].item.description).startsWith('failed'), `version 7 failed: ${String(entries[2].item.description)}`);

    // Open on a gzip checkpoint: read-only, pretty-printed, and checked by the language server.
    const version3 = entries[6];
    await vscode.commands.executeCommand('quotaState.backends.open', version3.node);
    const opened = await waitFor('the checkpoint opened', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'pulumi-backend' ? vscode.window.activeTextEditor : undefined), [
      vscode.window.onDidChangeActiveTextEditor,
    ]);
    const text = opened.document.getText();
    expect(text.split('\n').length > 50, 'pretty-printed');
    expect((JSON.parse(text) as { checkpoint: { stack: string } }).checkpoint.stack === 'organization/hist/dev', 'the checkpoint of the stack');
    await waitFor('the language server checks the checkpoint', () => (vscode.languages.getDiagnostics(opened.document.uri).some((d) => codeOf(d) === 'newer-engine-property') ? true : undefined), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
    let refused = false;
    try {
      await vscode.workspace.fs.writeFile(opened.document.uri, new TextEncoder().encode('{}'));
    } catch {
      refused = true;
    }
    expect(refused, 'a backend document is read-only');

    // Compare with Previous: versions 3 and 4 side by side.
    await vscode.commands.executeCommand('quotaState.backends.compareWithPrevious', entries[5].node);
    const diff = await waitFor('the diff editor', () => diffTab(), [vscode.window.tabGroups.onDidChangeTabs]);
    expect(diff.original.scheme === 'pulumi-backend' && diff.modified.scheme === 'pulumi-backend', 'both sides read-only backend documents');
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(diff.original), vscode.workspace.openTextDocument(diff.modified)]);
    expect(left.getText().includes('::web"') && right.getText().includes('::frontend"'), 'version 3 holds web, version 4 frontend (the rename)');

    // From the stack file: its current state against the newest checkpoint.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('quotaState.compareWithPrevious', vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.gz'));
    const fromFile = await waitFor('the stack file compared', () => diffTab(), [vscode.window.tabGroups.onDidChangeTabs]);
    expect(fromFile.modified.query.endsWith('dev.json.gz'), `the right side is the stack file: ${fromFile.modified.toString()}`);
    const current = await vscode.workspace.openTextDocument(fromFile.modified);
    expect(current.getText().includes('"pending_operations"'), 'the current state holds the interrupted update');
  } finally {
    await revertAndCloseAll();
  }
}
