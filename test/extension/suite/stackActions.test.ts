/**
 * The Backends view's stack writes in Node's extension host, on the installed extension, against a
 * copy of the backend real Pulumi made (the runner's `state-backend/`): Rename Stack…, Remove Stack…
 * (refused for its resources, then forced), the Deleted node and its Restore, Copy to Backend… and
 * Move to Backend… into a second file:// backend. Each asserts the objects in both backends.
 */
import { strict as assert } from 'node:assert';
import { hostname, userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { BackendStack } from '../../../shared/backend/vocabulary';
import type { BackendTreeNode } from '../../../client/backends/nodes';
import { activeExtension, workspaceUri } from '../common';
import { revertAndCloseAll } from './helpers';

const SRC = workspaceUri('stacks-src');
const DST = workspaceUri('stacks-dst');
const LEGACY = workspaceUri('stacks-legacy');
const PLACED = workspaceUri('stacks-placed');

/** Every file under `folder`, relative to it, sorted; empty when it does not exist. */
async function filesUnder(folder: vscode.Uri, prefix = ''): Promise<string[]> {
  let entries: Array<[string, vscode.FileType]>;
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const [name, type] of entries) {
    if (type === vscode.FileType.Directory) files.push(...(await filesUnder(vscode.Uri.joinPath(folder, name), `${prefix}${name}/`)));
    else files.push(`${prefix}${name}`);
  }
  return files.sort();
}

const under = (root: vscode.Uri, path: string) => filesUnder(vscode.Uri.joinPath(root, ...path.split('/')));
const read = (root: vscode.Uri, path: string) => vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, ...path.split('/')));

async function stackOf(root: vscode.Uri, name: string): Promise<BackendStack> {
  const { hooks } = await activeExtension();
  hooks.backends.tree.refresh();
  const stack = (await hooks.backends.tree.backend(root)).stacks.find((s) => s.name === name);
  assert.ok(stack, `${name} is in ${root.path}`);
  return stack;
}

describe('the Backends view: rename, remove, restore, copy and move stacks', () => {
  before(async () => {
    const { hooks } = await activeExtension();
    for (const root of [SRC, DST]) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.fs.copy(workspaceUri('state-backend'), SRC);
    // The fixture's interrupted update left a lock: this copy is not being updated.
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(SRC, '.pulumi', 'locks'), { recursive: true, useTrash: false });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(DST, '.pulumi', 'meta.yaml'), new TextEncoder().encode('version: 1\n'));
    assert.ok(await hooks.backends.commands.addRoot(SRC));
    assert.ok(await hooks.backends.commands.addRoot(DST));
  });
  after(async () => {
    for (const root of [SRC, DST, LEGACY, PLACED]) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });
  afterEach(revertAndCloseAll);

  it('renames a stack with its history, removes it into Deleted (Force for its resources) and restores it', async () => {
    const { hooks } = await activeExtension();
    const history = await under(SRC, '.pulumi/history/hist/dev');
    assert.ok(history.length >= 9, `the fixture's history: ${history.join(', ')}`);
    assert.ok(!(await hooks.backends.stackActions.renameTo(SRC, await stackOf(SRC, 'dev'), 'bad name')), 'an invalid name is refused');
    assert.ok(await hooks.backends.stackActions.renameTo(SRC, await stackOf(SRC, 'dev'), 'prod'));
    assert.deepEqual(
      await under(SRC, '.pulumi/history/hist/prod'),
      history.map((name) => name.replace(/^dev-/, 'prod-')),
      'every history file renamed',
    );
    assert.deepEqual(await under(SRC, '.pulumi/history/hist/dev'), [], 'none left under the old name');
    const stacks = await under(SRC, '.pulumi/stacks/hist');
    assert.ok(stacks.includes('prod.json.gz') && !stacks.includes('dev.json.gz') && stacks.includes('dev.json.gz.bak'), `the stack file renamed, the old kept as .bak: ${stacks.join(', ')}`);

    // Remove: the stack holds resources, so Pulumi's refusal, then Force.
    const shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Remove', 'Force Remove');
    assert.ok((await vscode.commands.executeCommand<unknown>('quotaState.backends.removeStack', { kind: 'stack', root: SRC, stack: await stackOf(SRC, 'prod') })) === undefined);
    const asked = hooks
      .shownMessages()
      .slice(shown)
      .filter((m) => m.detail !== undefined);
    assert.match(asked[0]?.detail ?? '', /Kept in \.pulumi\/deleted\/hist\/prod\//, 'names where it is kept');
    assert.match(asked[1]?.detail ?? '', /still has resources/, 'then asks to force');
    assert.ok(!(await under(SRC, '.pulumi/stacks/hist')).includes('prod.json.gz'), 'the stack file is gone');
    assert.deepEqual(await under(SRC, '.pulumi/history/hist/prod'), [], 'its history moved');
    const kept = await under(SRC, '.pulumi/deleted/hist/prod');
    assert.equal(kept.filter((name) => name.includes('/history/hist/prod/')).length, history.length, `the history is kept: ${kept.join(', ')}`);

    // The Deleted node under the backend lists it; Restore brings it back with its history.
    hooks.backends.tree.refresh();
    const children = await hooks.backends.tree.getChildren({ kind: 'backend', root: SRC });
    const deleted = children.find((c) => c.kind === 'deleted');
    assert.ok(deleted, `a Deleted node: ${children.map((c) => c.kind).join(', ')}`);
    const [entry] = (await hooks.backends.tree.getChildren(deleted)) as Array<Extract<BackendTreeNode, { kind: 'deletedStack' }>>;
    assert.equal(entry.entry.stack, 'organization/hist/prod');
    assert.equal(hooks.backends.tree.getTreeItem(entry).contextValue, 'deletedStack');
    await vscode.commands.executeCommand('quotaState.backends.restoreDeleted', entry);
    assert.deepEqual(
      await under(SRC, '.pulumi/history/hist/prod'),
      history.map((name) => name.replace(/^dev-/, 'prod-')),
      'the history is back',
    );
    assert.ok((await under(SRC, '.pulumi/stacks/hist')).includes('prod.json.gz'), 'the stack file is back');
  });

  it('copies a stack to another backend, resumes as a no-op, then moves it', async () => {
    const { hooks } = await activeExtension();
    // gocloud's `.attrs` sidecars stay behind, as the CLI's copy leaves them (each store writes its own).
    const history = (await under(SRC, '.pulumi/history/hist/prod')).filter((name) => !name.endsWith('.attrs'));
    const stackBytes = await read(SRC, '.pulumi/stacks/hist/prod.json.gz');
    let shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Copy');
    const copied = await hooks.backends.copyActions.copyTo(SRC, [await stackOf(SRC, 'prod')], DST, false);
    assert.deepEqual(copied, { copied: 1, differences: 0 });
    const plan = hooks
      .shownMessages()
      .slice(shown)
      .find((m) => m.detail !== undefined);
    assert.match(plan?.text ?? '', /Copy 1 stack to .*stacks-dst\?/);
    assert.deepEqual(plan?.actions, ['Copy'], 'no Overwrite when DST has no other state');
    assert.deepEqual(await under(DST, '.pulumi/history/hist/prod'), history, 'every history file copied');
    assert.deepEqual(await read(DST, '.pulumi/stacks/hist/prod.json.gz'), stackBytes, 'the stack file, the same bytes');
    assert.deepEqual(
      (await under(SRC, '.pulumi/history/hist/prod')).filter((name) => !name.endsWith('.attrs')),
      history,
      'SRC untouched',
    );

    // Again: DST holds it already, every object is skipped.
    shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Copy');
    await hooks.backends.copyActions.copyTo(SRC, [await stackOf(SRC, 'prod')], DST, false);
    assert.match(
      hooks
        .shownMessages()
        .slice(shown)
        .map((m) => m.text)
        .join('\n'),
      /0 objects written, \d+ skipped/,
    );

    // DST's stack made another state (an older checkpoint): only Overwrite is offered, and DST's old stack goes into DST's Deleted.
    const older = history.find((name) => name.endsWith('.checkpoint.json.gz'))!;
    const other = await read(SRC, `.pulumi/history/hist/prod/${older}`);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(DST, '.pulumi', 'stacks', 'hist', 'prod.json.gz'), other);
    shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Overwrite');
    assert.deepEqual(await hooks.backends.copyActions.copyTo(SRC, [await stackOf(SRC, 'prod')], DST, false), { copied: 1, differences: 0 });
    const overwriting = hooks
      .shownMessages()
      .slice(shown)
      .find((m) => m.detail !== undefined);
    assert.deepEqual(overwriting?.actions, ['Overwrite'], 'Overwrite, and only it, when DST holds another state');
    assert.match(overwriting?.detail ?? '', /DST holds another state: Overwrite replaces it/);
    assert.deepEqual(await read(DST, '.pulumi/stacks/hist/prod.json.gz'), stackBytes, 'DST has the copied state');
    const replaced = await under(DST, '.pulumi/deleted/hist/prod');
    assert.ok(
      replaced.some((name) => name.endsWith('/stacks/hist/prod.json.gz')),
      `DST's old stack kept in its deleted area: ${replaced.join(', ')}`,
    );

    // Move: verified in DST, then SRC's stack goes into SRC's Deleted.
    hooks.answerConfirmations('Move');
    assert.deepEqual(await hooks.backends.copyActions.copyTo(SRC, undefined, DST, true), { copied: 1, differences: 0 });
    assert.ok(!(await under(SRC, '.pulumi/stacks/hist')).includes('prod.json.gz'), 'gone from SRC');
    assert.ok(
      (await under(SRC, '.pulumi/deleted/hist/prod')).some((name) => name.endsWith('manifest.json')),
      "kept in SRC's deleted area",
    );
    assert.deepEqual(await under(DST, '.pulumi/history/hist/prod'), history, 'DST keeps the history');
  });

  it("a legacy stack with no resources: its project asked (the CLI's --project-for); a lock on it goes through the lock dialog", async () => {
    const { hooks } = await activeExtension();
    // A legacy backend (no meta.yaml) whose one stack holds no resources: nothing tells its project.
    const checkpoint = { version: 3, checkpoint: { stack: 'solo', latest: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' } } } };
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(LEGACY, '.pulumi', 'stacks', 'solo.json'), new TextEncoder().encode(JSON.stringify(checkpoint, null, 4)));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(PLACED, '.pulumi', 'meta.yaml'), new TextEncoder().encode('version: 1\n'));

    const asked: string[] = [];
    assert.equal(await hooks.backends.copyActions.copyTo(LEGACY, undefined, PLACED, false, (stack) => (asked.push(stack.stack), Promise.resolve(undefined))), undefined);
    assert.deepEqual(asked, ['solo'], 'asked for the project of the one stack');
    assert.deepEqual(await under(PLACED, '.pulumi/stacks'), [], 'cancelled: nothing written');

    // A lock whose process on this machine is gone (stale): one question, then the copy.
    const lock = (pid: number) => new TextEncoder().encode(JSON.stringify({ pid, username: userInfo().username, hostname: hostname(), timestamp: new Date().toISOString() }));
    const lockFile = vscode.Uri.joinPath(LEGACY, '.pulumi', 'locks', 'solo', 'abandoned.json');
    await vscode.workspace.fs.writeFile(lockFile, lock(2 ** 22 + 12345));
    let shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Copy', 'Remove Lock and Copy');
    assert.deepEqual(await hooks.backends.copyActions.copyTo(LEGACY, undefined, PLACED, false, () => Promise.resolve('app')), { copied: 1, differences: 0 });
    const questions = hooks
      .shownMessages()
      .slice(shown)
      .filter((m) => m.detail !== undefined);
    assert.match(questions[0]?.detail ?? '', /^solo → organization\/app\/solo: /m, 'the plan places it in the project given');
    assert.match(questions[1]?.text ?? '', /solo is locked by a stale lock/);
    assert.deepEqual(await under(PLACED, '.pulumi/stacks/app'), ['solo.json']);
    assert.deepEqual(await under(LEGACY, '.pulumi/locks/solo'), [], 'the stale lock removed');

    // A lock whose holder may be live (this very process): Enter keeps it, and nothing is written.
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(PLACED, '.pulumi', 'stacks'), { recursive: true, useTrash: false });
    await vscode.workspace.fs.writeFile(lockFile, lock(process.pid));
    shown = hooks.shownMessages().length;
    hooks.answerConfirmations('Copy', '<Enter>');
    assert.deepEqual(await hooks.backends.copyActions.copyTo(LEGACY, undefined, PLACED, false, () => Promise.resolve('app')), { copied: 0, differences: 0 });
    const live = hooks.shownMessages().slice(shown);
    assert.ok(
      live.some((m) => /solo is locked, and its holder may still be running/.test(m.text)),
      live.map((m) => m.text).join('\n'),
    );
    assert.deepEqual(await under(PLACED, '.pulumi/stacks'), [], 'nothing copied');
    assert.deepEqual(await under(LEGACY, '.pulumi/locks/solo'), ['abandoned.json'], 'the live lock kept');
  });
});
