/**
 * The Pulumi Backends view on each remote backend the runner started (`s3://` on MinIO, and each
 * other scheme on its real server: scripts/test-extension.mjs names them in QUOTA_STATE_TEST_REMOTES),
 * in Node's extension host on the installed extension, each holding a history real Pulumi wrote
 * there. Add Backend with the URL, the tree, Open and Compare through the backend's file system,
 * Restore under Pulumi's lock object, the graph, and a stack object edited and saved back (its `.bak`
 * kept). The browser build has no remote backends (client/web/bucketAccess.ts).
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { fileOf, type BackendTreeNode } from '../../../client/backends/nodes';
import { activeExtension, waitFor } from '../common';
import { revertAndCloseAll } from './helpers';

type Labelled = { node: BackendTreeNode; item: vscode.TreeItem };
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

async function children(node?: BackendTreeNode): Promise<Labelled[]> {
  const { hooks } = await activeExtension();
  return (await hooks.backends.tree.getChildren(node)).map((child) => ({ node: child, item: hooks.backends.tree.getTreeItem(child) }));
}

const text = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

/** The remote backends the runner started, each with a history real Pulumi wrote: `[{scheme, url}]`. */
const remotes = JSON.parse(process.env.QUOTA_STATE_TEST_REMOTES ?? '[]') as Array<{ scheme: string; url: string }>;

/** `scheme://authority/path?query` as the extension's file system names its root (client/backends/bucketFileSystem.ts). */
function rootOf(url: string): vscode.Uri {
  const match = /^([a-z0-9]+):\/\/([^/?]*)([^?]*)(?:\?(.*))?$/.exec(url);
  assert.ok(match, url);
  return vscode.Uri.from({ scheme: `pulumi-${match[1]}`, authority: match[2], path: match[3].replace(/\/+$/, '') || '/', query: match[4] ?? '' });
}

describe('the Pulumi Backends view on remote backends (MinIO, and each real server the runner started)', () => {
  afterEach(revertAndCloseAll);

  it('the runner started the s3:// server at least', () => {
    assert.ok(
      remotes.some((remote) => remote.scheme === 's3'),
      JSON.stringify(remotes),
    );
  });

  for (const remote of remotes) it(`${remote.scheme}://: adds it by URL, lists and compares its history, restores a version, and saves an edited stack back`, () => scenario(remote.url));
});

async function scenario(url: string): Promise<void> {
  const { hooks } = await activeExtension();
  const root = rootOf(url);
  assert.equal(await hooks.backends.commands.addRoot(root), true);

  const backend = (await children()).find((b) => b.node.kind === 'backend' && b.node.root.toString() === root.toString());
  assert.ok(backend, 'the backend is listed');
  assert.equal(label(backend.item), url.split('?')[0]);
  const [stack] = await children(backend.node);
  assert.equal(label(stack.item), 'organization/hist/dev');
  assert.match(String(stack.item.description), /locked by \S+@/);
  const [history] = await children(stack.node);
  const entries = await children(history.node);
  assert.deepEqual(
    entries.map((e) => label(e.item).split(/\s+/)[0]),
    ['9', '8', '7', '6', '5', '4', '3', '2', '1'],
  );

  // Compare with Previous on version 4: the script's removal and rename. This history is made afresh
  // each run, and whether an update rewrote a record's timestamps varies, so the rest is counted, not named.
  await vscode.commands.executeCommand('quotaState.backends.compareWithPrevious', entries[5].node);
  const summary = hooks.stateDiff.current()?.summary ?? '';
  const counts = /^1 removed, 1 renamed, (?:(\d+) changed, )?(\d+) same$/.exec(summary);
  assert.ok(counts, `the summary: ${summary}`);
  assert.equal(Number(counts[1] ?? 0) + Number(counts[2]), 4, `the four records kept: ${summary}`);

  // Restore version 3: refused by the interrupted update's lock object until it is removed on request.
  const stackFile = vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json');
  const before = await text(stackFile);
  hooks.answerConfirmations('Restore', 'Remove Lock and Restore');
  await vscode.commands.executeCommand('quotaState.backends.restore', entries[6].node);
  const restored = JSON.parse(await text(stackFile)) as { checkpoint: { latest: { resources: unknown[] } } };
  const version3 = JSON.parse(await text(fileOf(entries[6].node)!)) as { checkpoint: { latest: { resources: unknown[] } } };
  assert.deepEqual(restored.checkpoint.latest.resources, version3.checkpoint.latest.resources);
  assert.equal(await text(vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.bak')), before);
  assert.deepEqual(await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, '.pulumi', 'locks')), [], 'no lock object left');

  // The graph of the bucket's stack.
  await vscode.commands.executeCommand('quotaState.backends.showGraph', stack.node);
  await waitFor('the graph of the stack', () => (hooks.resourceGraph.current().view?.nodes.length ? true : undefined), [hooks.resourceGraph.onDidRender]);

  // Open the stack object editable, change it, save: written back, the old bytes in the .bak object.
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('quotaState.backends.open', stack.node);
  const editor = await waitFor('the stack object open', () => (vscode.window.activeTextEditor?.document.uri.scheme === root.scheme ? vscode.window.activeTextEditor : undefined), [
    vscode.window.onDidChangeActiveTextEditor,
  ]);
  const current = editor.document.getText();
  assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(0, 1), ' ')));
  assert.ok(await editor.document.save(), 'saved');
  assert.equal(await text(stackFile), `${current.slice(0, 1)} ${current.slice(1)}`);
  assert.equal(await text(vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.bak')), current);

  // Compare with Previous on the bucket's stack object in the editor: its backend is the bucket, query and all.
  const shown = hooks.shownMessages().length;
  await vscode.commands.executeCommand('quotaState.compareWithPrevious', editor.document.uri);
  assert.deepEqual(
    hooks
      .shownMessages()
      .slice(shown)
      .filter((m) => m.level === 'error'),
    [],
  );
  const found = await hooks.backends.commands.stackOfFile(editor.document.uri);
  assert.equal(found?.root.toString(), root.toString());
  assert.equal(found?.stack.ref, 'organization/hist/dev');
}
