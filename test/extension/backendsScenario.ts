/**
 * The Pulumi Backends view in a real VS Code, the same in Node's extension host and the browser's,
 * on a DIY backend real Pulumi made (copied into the workspace's `state-backend/` by the runner:
 * gzip-compressed, nine updates, a stale lock): Add Backend, the tree's items, Open on a gzip
 * checkpoint (read-only, pretty-printed, checked by the language server), Compare with Previous and
 * Compare with Previous from the stack file (VS Code's diff editor on the two versions).
 */
import * as vscode from 'vscode';
import { fileOf, type BackendTreeNode } from '../../client/backends/nodes';
import { activeExtension, codeOf, revertAndCloseAll, waitFor, workspaceUri } from './common';

/** The read-only document a diff side is (the diff editor shows the documents themselves). */
const backendDocumentUriOf = (uri: vscode.Uri) => uri.toString();

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

type Labelled = { node: BackendTreeNode; item: vscode.TreeItem };

async function children(node?: BackendTreeNode): Promise<Labelled[]> {
  const { hooks } = await activeExtension();
  const nodes = await hooks.backends.tree.getChildren(node);
  return nodes.map((child) => ({ node: child, item: hooks.backends.tree.getTreeItem(child) }));
}

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

function diffTab(): vscode.TabInputTextDiff | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input : undefined;
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new TextDecoder().decode(await new Response(stream).arrayBuffer());
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);

async function filesUnder(folder: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name).sort();
  } catch {
    return [];
  }
}

/** The interrupted update's lock, made two days old: stale in every host (the browser cannot check a process). */
async function ageTheInterruptedLock(root: vscode.Uri): Promise<void> {
  const locks = vscode.Uri.joinPath(root, '.pulumi', 'locks', 'organization', 'hist', 'dev');
  for (const name of (await filesUnder(locks)).filter((n) => n.endsWith('.json'))) {
    const lock = vscode.Uri.joinPath(locks, name);
    const held = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(lock))) as Record<string, unknown>;
    await vscode.workspace.fs.writeFile(lock, new TextEncoder().encode(JSON.stringify({ ...held, timestamp: new Date(Date.now() - 2 * 86_400_000).toISOString() })));
  }
}

/**
 * A lock that may be live (taken five minutes ago on another machine) beside the stale one: Enter
 * on the lock dialog keeps it (its first button, VS Code's default, is Keep Lock), Break Lock… asks
 * again naming the holder and its age, and Enter there keeps it too. Nothing is written or removed.
 */
async function liveLockKept(locks: vscode.Uri, version3: BackendTreeNode, stackFile: vscode.Uri, before: Uint8Array): Promise<void> {
  const { hooks } = await activeExtension();
  const live = vscode.Uri.joinPath(locks, 'live-update.json');
  const holder = { pid: 4242, username: 'ci', hostname: 'build-agent-7', timestamp: new Date(Date.now() - 5 * 60_000).toISOString() };
  await vscode.workspace.fs.writeFile(live, new TextEncoder().encode(JSON.stringify(holder)));
  try {
    await liveAndStaleInTheTree(version3);
    const shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Restore', '<Enter>');
    const first = await vscode.commands.executeCommand<boolean>('quotaState.backends.restore', version3);
    const said = hooks.shownMessages().slice(shown);
    expect(/is locked, and its holder may still be running: nothing was written/.test(said[1]?.text ?? ''), `the live lock's question: ${JSON.stringify(said[1])}`);
    expect(/ci@build-agent-7 \(pid 4242\), taken 5 min ago: its holder may still be running/.test(said[1]?.detail ?? ''), `names the live holder and its age: ${said[1]?.detail}`);
    expect(/taken 2 d ago: stale/.test(said[1]?.detail ?? ''), `and marks the other lock stale: ${said[1]?.detail}`);
    expect(said[1]?.actions[0] === 'Keep Lock' && !said[1].actions[0].startsWith('Break'), `the default button keeps the lock: ${JSON.stringify(said[1]?.actions)}`);
    expect(first !== true && said.length === 2, 'Enter broke nothing and asked nothing more');

    const again = hooks.shownMessages().length;
    hooks.answerConfirmations('Restore', 'Break Lock…', '<Enter>');
    await vscode.commands.executeCommand('quotaState.backends.restore', version3);
    const second = hooks.shownMessages().slice(again)[2];
    expect(/^Break the lock of ci@build-agent-7 \(pid 4242\), taken 5 min ago\?$/.test(second?.text ?? ''), `the second confirmation names holder and age: ${second?.text}`);
    expect(second?.actions[0] === 'Keep Lock' && second.actions.includes('Break Lock and Restore'), `its default keeps the lock too: ${JSON.stringify(second?.actions)}`);
    expect(sameBytes(await vscode.workspace.fs.readFile(stackFile), before), 'nothing written while a live lock is kept');
    expect((await filesUnder(locks)).includes('live-update.json'), 'the live lock is left as it was');
  } finally {
    await vscode.workspace.fs.delete(live).then(undefined, () => undefined);
  }
}

/**
 * The tree names every holder as `backend ls` does (shared/backend/describe.ts): the stale lock
 * marked, the live one not; the tooltip gives each lock's age and why it is stale or may be live.
 */
async function liveAndStaleInTheTree(version3: BackendTreeNode): Promise<void> {
  const { hooks } = await activeExtension();
  hooks.backends.tree.refresh();
  const root = 'root' in version3 ? version3.root.toString() : '';
  const backend = (await children()).find((b) => b.node.kind === 'backend' && b.node.root.toString() === root);
  const [stack] = await children(backend!.node);
  const description = String(stack.item.description);
  expect(/locked by .*\S+@\S+ \(pid \d+, stale\)/.test(description), `the stale lock marked: ${description}`);
  expect(description.includes('ci@build-agent-7 (pid 4242)') && !description.includes('ci@build-agent-7 (pid 4242, stale)'), `the live lock named, unmarked: ${description}`);
  const tooltip = String(stack.item.tooltip);
  expect(tooltip.includes('ci@build-agent-7 (pid 4242), taken 5 min ago: its holder may still be running'), `the live lock's age and verdict: ${tooltip}`);
  expect(/taken 2 d ago: stale, /.test(tooltip), `the stale lock's age and why it is stale: ${tooltip}`);
}

/** Show History and Compare with Previous on the stack file opened from the view: a read-only `pulumi-backend:` document. */
async function historyFromTheViewsStackFile(stackNode: BackendTreeNode): Promise<void> {
  const { hooks } = await activeExtension();
  const openStack = async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('quotaState.backends.open', stackNode);
    await waitFor(
      "the view's stack file",
      () => {
        const uri = vscode.window.activeTextEditor?.document.uri;
        return uri?.scheme === 'pulumi-backend' && uri.path.endsWith('/hist/dev.json') ? true : undefined;
      },
      [vscode.window.onDidChangeActiveTextEditor],
    );
  };
  const errorsSince = (count: number) =>
    hooks
      .shownMessages()
      .slice(count)
      .filter((m) => m.level === 'error');

  await openStack();
  let before = hooks.shownMessages().length;
  await vscode.commands.executeCommand('quotaState.compareWithPrevious');
  expect(errorsSince(before).length === 0, `Compare with Previous finds the stack: ${JSON.stringify(errorsSince(before))}`);
  const previous = await waitFor('Compare with Previous from the view', () => diffTab(), [vscode.window.tabGroups.onDidChangeTabs], 30_000);
  expect(previous.modified.query.endsWith('dev.json.gz'), `the right side is the stack file: ${previous.modified.toString()}`);

  await openStack();
  before = hooks.shownMessages().length;
  const shown = vscode.commands.executeCommand('quotaState.showHistory');
  // The quick pick of versions, newest first: Enter takes version 9.
  const picked = await waitFor(
    'a version picked in Show History',
    async () => {
      const errors = errorsSince(before);
      if (errors.length) throw new Error(`Show History refused the view's stack file: ${errors[0].text}`);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return diffTab() && vscode.window.tabGroups.activeTabGroup.activeTab?.label;
    },
    [vscode.window.tabGroups.onDidChangeTabs],
    30_000,
  );
  await shown;
  expect(picked === 'organization/hist/dev: version 9 ↔ current', `compared with the current state: ${picked}`);
}

/** The words of the tree: stale locks, backups by time and version, Compare Selected by versions, a legacy layout, a root that is missing or a file. */
async function treeWording(root: vscode.Uri, backups: BackendTreeNode, version4: BackendTreeNode, version3: BackendTreeNode): Promise<void> {
  const { hooks } = await activeExtension();
  const backupItems = await children(backups);
  // Each backup holds the version whose history entry was written just before it: the newest is version 9.
  expect(/^version 9 · /.test(String(backupItems[0]?.item.description)), `the newest backup: ${String(backupItems[0]?.item.description)}`);
  expect(
    backupItems.every((b) => !label(b.item).includes('.json') && /^version \d+ · /.test(String(b.item.description))),
    `backups by time and version: ${backupItems.map((b) => `${label(b.item)} [${String(b.item.description)}]`).join('; ')}`,
  );
  await vscode.commands.executeCommand('quotaState.backends.compareSelected', undefined, [version4, version3]);
  const title = await waitFor('Compare Selected', () => (diffTab() ? vscode.window.tabGroups.activeTabGroup.activeTab?.label : undefined), [vscode.window.tabGroups.onDidChangeTabs]);
  expect(title === 'organization/hist/dev: version 4 ↔ version 3', `titled by versions: ${title}`);

  const legacy = workspaceUri('legacy-backend');
  const checkpoint = { version: 3, checkpoint: { stack: 'dev', latest: { manifest: { time: '2025-01-01T00:00:00Z', magic: '', version: 'v3.274.1' }, resources: [] } } };
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(legacy, '.pulumi', 'stacks', 'dev.json'), new TextEncoder().encode(JSON.stringify(checkpoint)));
  expect(await hooks.backends.commands.addRoot(legacy), 'a legacy backend is added');
  const legacyItem = (await children()).find((b) => b.node.kind === 'backend' && b.node.root.toString() === legacy.toString());
  expect(/^legacy layout · /.test(String(legacyItem?.item.description)), `the legacy layout in the tree: ${String(legacyItem?.item.description)}`);

  const before = hooks.shownMessages().length;
  expect(!(await hooks.backends.commands.addRoot(workspaceUri('no-such-backend'))), 'a missing folder is no backend');
  expect(!(await hooks.backends.commands.addRoot(vscode.Uri.joinPath(root, '.pulumi', 'meta.yaml'))), 'a file is no backend');
  const said = hooks
    .shownMessages()
    .slice(before)
    .map((m) => m.text);
  expect(/no-such-backend is missing\.$/.test(said[0] ?? '') && /meta\.yaml is a file, not a folder/.test(said[1] ?? ''), `why, in words: ${said.join(' | ')}`);
}

/**
 * Restore This Version… on the stack real Pulumi left locked (its update was killed): refused,
 * nothing written, until the lock is removed on request; then the stack file is version 3's state,
 * still gzip, with what it replaced in the `.bak`. Then Prune History… keeps the newest 5 entries,
 * each with its checkpoint, and the graph of a version opens from the view.
 */
async function restoreAndPrune(root: vscode.Uri, stackNode: BackendTreeNode, version3: BackendTreeNode): Promise<void> {
  const { hooks } = await activeExtension();
  const stackFile = vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.gz');
  const bak = vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.gz.bak');
  const locks = vscode.Uri.joinPath(root, '.pulumi', 'locks', 'organization', 'hist', 'dev');
  const before = await vscode.workspace.fs.readFile(stackFile);
  const bakBefore = await vscode.workspace.fs.readFile(bak);
  const heldLocks = (await filesUnder(locks)).filter((name) => name.endsWith('.json'));
  expect(heldLocks.length === 1, `the interrupted update's lock: ${heldLocks.join(', ')}`);
  await liveLockKept(locks, version3, stackFile, before);

  // Confirmed, then refused by the lock, and the offer to remove it declined: nothing is written.
  const shownBefore = hooks.shownMessages().length;
  hooks.answerConfirmations('Restore', undefined);
  await vscode.commands.executeCommand('quotaState.backends.restore', version3);
  const said = hooks.shownMessages().slice(shownBefore);
  expect(/Restore organization\/hist\/dev to version 3\?/.test(said[0]?.text ?? ''), `the confirmation: ${said[0]?.text}`);
  expect(/Changes to the current state: .*removed/.test(said[0]?.detail ?? ''), `it states the diff's summary: ${said[0]?.detail}`);
  expect(
    /is locked by a stale lock: nothing was written/.test(said[1]?.text ?? '') && /\S*@\S* \(pid \d+\), taken 2 d ago: stale, /.test(said[1]?.detail ?? ''),
    `the lock refusal names the holder, its age, and that it is stale: ${JSON.stringify(said[1])}`,
  );
  expect(JSON.stringify(said[1]?.actions) === JSON.stringify(['Remove Lock and Restore']), `a stale lock is removed on one answer: ${JSON.stringify(said[1]?.actions)}`);
  expect(!said.some((m) => `${m.text}${m.detail ?? ''}`.includes('`')), `no literal backticks: ${JSON.stringify(said)}`);
  expect(sameBytes(await vscode.workspace.fs.readFile(stackFile), before) && sameBytes(await vscode.workspace.fs.readFile(bak), bakBefore), 'nothing written while locked');
  expect((await filesUnder(locks)).filter((name) => name.endsWith('.json')).join() === heldLocks.join(), 'the lock is left as it was');

  // Removing the lock on request: the restore is written, the old state in the .bak.
  hooks.answerConfirmations('Restore', 'Remove Lock and Restore');
  await vscode.commands.executeCommand('quotaState.backends.restore', version3);
  const after = await vscode.workspace.fs.readFile(stackFile);
  expect(after[0] === 0x1f && after[1] === 0x8b, 'the stack file stays gzip');
  const restored = JSON.parse(await gunzip(after)) as { checkpoint: { stack: string; latest: { resources: Array<{ urn: string }>; pending_operations?: unknown } } };
  const checkpoint = JSON.parse(await gunzip(await vscode.workspace.fs.readFile(fileOf(version3)!)));
  expect(JSON.stringify(restored.checkpoint.latest.resources) === JSON.stringify(checkpoint.checkpoint.latest.resources), "the stack file holds version 3's resources");
  expect(restored.checkpoint.stack === 'organization/hist/dev' && restored.checkpoint.latest.pending_operations === undefined, 'named as the stack, no pending operations');
  expect(sameBytes(await vscode.workspace.fs.readFile(bak), before), 'the .bak holds what was replaced');
  expect((await filesUnder(locks)).filter((name) => name.endsWith('.json')).length === 0, 'no lock is left behind');
  expect(
    hooks.shownMessages().some((m) => /^Restored organization\/hist\/dev to version 3: /.test(m.text)),
    'the restore is reported',
  );

  // Prune History…: the newest 5 kept, each with its checkpoint.
  hooks.answerConfirmations('Prune');
  const prunedBefore = hooks.shownMessages().length;
  const pruned = await hooks.backends.actions.pruneKeeping(root, 5);
  expect(pruned?.removed !== undefined && pruned.removed > 0 && !pruned.cancelled, `pruned: ${JSON.stringify(pruned)}`);
  const pruneSaid = hooks.shownMessages().slice(prunedBefore);
  expect(/^Remove \d+ files \(.*\) from the history of 1 stack\?$/.test(pruneSaid[0]?.text ?? ''), `one stack, in the singular: ${pruneSaid[0]?.text}`);
  expect(
    pruneSaid.some((m) => /^Pruned \d+ files \(.*\) in 1 stack\.$/.test(m.text)),
    `the report: ${pruneSaid.map((m) => m.text).join(' | ')}`,
  );
  const history = await filesUnder(vscode.Uri.joinPath(root, '.pulumi', 'history', 'hist', 'dev'));
  const entries = history.filter((name) => /\.history\.json(\.gz)?$/.test(name));
  expect(entries.length === 5, `5 entries kept: ${entries.join(', ')}`);
  for (const entry of entries) expect(history.includes(entry.replace('.history.json', '.checkpoint.json')), `${entry} keeps its checkpoint`);

  // The resource graph of a stack, from the view.
  await vscode.commands.executeCommand('quotaState.backends.showGraph', stackNode);
  await waitFor('the graph of the stack', () => (hooks.resourceGraph.current().view?.nodes.length ? true : undefined), [hooks.resourceGraph.onDidRender]);
}

export async function backendsScenario(): Promise<void> {
  const { hooks } = await activeExtension();
  const root = workspaceUri('state-backend');
  try {
    await ageTheInterruptedLock(root);
    expect(await hooks.backends.commands.addRoot(root), 'Add Backend takes the workspace backend');
    const backends = await children();
    const backend = backends.find((b) => b.node.kind === 'backend' && b.node.root.toString() === root.toString());
    expect(backend !== undefined, `the backend is listed: ${backends.map((b) => label(b.item)).join(', ')}`);
    const [stack] = await children(backend!.node);
    expect(label(stack.item) === 'organization/hist/dev', `the stack: ${label(stack.item)}`);
    expect(/locked by \S+@\S+ \(pid \d+, stale\)/.test(String(stack.item.description)), `the stale lock is named and marked as backend ls marks it: ${String(stack.item.description)}`);
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

    // The State Diff view of the same two: the summary first, the rename grouped, a click reveals the record.
    const shown = hooks.stateDiff.current();
    expect(shown?.summary === '1 removed, 1 renamed, 1 changed, 3 same', `the summary: ${shown?.summary}`);
    const [summary, ...groups] = hooks.stateDiff.getChildren();
    expect(summary.kind === 'summary' && label(hooks.stateDiff.getTreeItem(summary)) === shown!.summary, 'the summary line first');
    expect(
      JSON.stringify(groups.map((g) => label(hooks.stateDiff.getTreeItem(g)))) === JSON.stringify(['removed (1)', 'renamed (1)', 'changed (1)']),
      `groups: ${groups.map((g) => label(hooks.stateDiff.getTreeItem(g))).join(', ')}`,
    );
    const [renamed] = hooks.stateDiff.getChildren(groups[1]);
    const renamedItem = hooks.stateDiff.getTreeItem(renamed);
    expect(label(renamedItem) === 'frontend' && String(renamedItem.description).includes('web'), `the rename: ${label(renamedItem)} ${String(renamedItem.description)}`);
    const [changedResource] = hooks.stateDiff.getChildren(groups[2]);
    const leaves = hooks.stateDiff.getChildren(changedResource).map((c) => `${label(hooks.stateDiff.getTreeItem(c))} ${String(hooks.stateDiff.getTreeItem(c).description)}`);
    expect(leaves.includes('outputs.step 3 → 4') && leaves.includes('outputs.token [secret changed]'), `the stack's leaves, the secret masked: ${leaves.join('; ')}`);
    await vscode.commands.executeCommand(renamedItem.command!.command, ...(renamedItem.command!.arguments ?? []));
    const revealed = await waitFor(
      'the renamed record revealed',
      () => {
        const editor = vscode.window.activeTextEditor;
        return editor?.document.uri.scheme === 'pulumi-backend' && editor.document.lineAt(editor.selection.active.line).text.includes('::frontend"') ? editor : undefined;
      },
      [vscode.window.onDidChangeTextEditorSelection, vscode.window.onDidChangeActiveTextEditor],
    );
    expect(revealed.document.uri.toString() === backendDocumentUriOf(diff.modified), 'revealed in the later version');

    // From the stack file: its current state against the newest checkpoint.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('quotaState.compareWithPrevious', vscode.Uri.joinPath(root, '.pulumi', 'stacks', 'hist', 'dev.json.gz'));
    const fromFile = await waitFor('the stack file compared', () => diffTab(), [vscode.window.tabGroups.onDidChangeTabs]);
    expect(fromFile.modified.query.endsWith('dev.json.gz'), `the right side is the stack file: ${fromFile.modified.toString()}`);
    const current = await vscode.workspace.openTextDocument(fromFile.modified);
    expect(current.getText().includes('"pending_operations"'), 'the current state holds the interrupted update');

    await historyFromTheViewsStackFile(stack.node);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await treeWording(root, backups.node, entries[5].node, entries[6].node);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await restoreAndPrune(root, stack.node, entries[6].node);
  } finally {
    await revertAndCloseAll();
  }
}
