/**
 * State surgery in a real VS Code, on the installed extension: remove with dependents from the
 * lens, a move between two files, and a compressed `.json.gz` DIY stack opened, edited and saved.
 * Every surgery asks one modal confirmation stating what it does, then applies in one edit (one
 * undo) and saves the files it edited that had no unsaved changes.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { gzipBomb } from '../../helpers/bombs';
import { activeExtension, codeOf, diagnosticsWith, waitFor, workspaceUri } from './helpers';

type Rec = Record<string, unknown>;
const U = (type: string, name: string, stack = 'dev', project = 'shop') => `urn:pulumi:${stack}::${project}::${type}::${name}`;
const ROOT = U('pulumi:pulumi:Stack', 'shop-dev');
const PROV = U('pulumi:providers:aws', 'default');
const PROV_REF = `${PROV}::prov-1`;
const SITE = U('my:web:Site', 'site');
const BUCKET = U('my:web:Site$aws:s3/bucket:Bucket', 'assets');
const POLICY = U('aws:s3/bucketPolicy:BucketPolicy', 'policy');
const QUEUE = U('aws:sqs/queue:Queue', 'jobs');

function records(): Rec[] {
  return [
    { urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' },
    { urn: PROV, custom: true, id: 'prov-1', type: 'pulumi:providers:aws' },
    { urn: SITE, custom: false, type: 'my:web:Site', parent: ROOT },
    { urn: BUCKET, custom: true, id: 'assets-1', type: 'aws:s3/bucket:Bucket', parent: SITE, provider: PROV_REF },
    { urn: POLICY, custom: true, id: 'policy-1', type: 'aws:s3/bucketPolicy:BucketPolicy', parent: ROOT, provider: PROV_REF, dependencies: [BUCKET] },
    { urn: QUEUE, custom: true, id: 'jobs-1', type: 'aws:sqs/queue:Queue', parent: ROOT, provider: PROV_REF },
  ];
}
const manifest = { time: '2026-01-01T00:00:00Z', magic: '', version: '' };
const exportText = (resources: Rec[]) => `${JSON.stringify({ version: 3, deployment: { manifest, resources } }, null, 4)}\n`;
const urnsIn = (text: string) =>
  (
    (JSON.parse(text) as { deployment?: { resources: Rec[] }; checkpoint?: { latest: { resources: Rec[] } } }).deployment ??
    (JSON.parse(text) as { checkpoint: { latest: { resources: Rec[] } } }).checkpoint.latest
  ).resources.map((r) => r.urn);

/**
 * Runs `start` (a surgery command) with its modal confirmations answered by `answers` in order, as a
 * user clicks them (undefined: Cancel). A test cannot click a modal dialog, so the extension takes the
 * answers in test mode only; what the dialog said is in `shownMessages`.
 */
async function confirming<T>(answers: Array<string | undefined>, start: () => Thenable<T>): Promise<T> {
  const { hooks } = await activeExtension();
  hooks.answerConfirmations(...answers);
  return start();
}

/** The modal confirmations shown since `before` messages. */
async function confirmationsSince(before: number) {
  const { hooks } = await activeExtension();
  return hooks
    .shownMessages()
    .slice(before)
    .filter((m) => m.detail !== undefined);
}

async function openState(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  const { hooks } = await activeExtension();
  await waitFor('the server to recognise the state file', () => (hooks.documentStatus(uri.toString())?.kind === 'state' ? true : undefined), [hooks.onDocumentStatus]);
  return document;
}

describe('state surgery (one confirmed step)', () => {
  const folder = workspaceUri('surgery');
  before(() => mkdirSync(folder.fsPath, { recursive: true }));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder.fsPath, { recursive: true, force: true });
  });

  it('removes a resource with its dependents from the lens in one confirmed step, on disk; one undo restores it', async () => {
    const uri = vscode.Uri.joinPath(folder, 'remove.state.json');
    const original = exportText(records());
    writeFileSync(uri.fsPath, original);
    const document = await openState(uri);
    const siteLine = document.positionAt(document.getText().indexOf(`"urn": "${SITE}"`)).line;
    const lens = await waitFor(
      'the "remove with dependents…" lens on the site',
      async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
        return lenses?.find((l) => l.range.start.line === siteLine && l.command?.title === 'remove with dependents…');
      },
      [vscode.languages.onDidChangeDiagnostics],
    );
    const { hooks } = await activeExtension();
    const before = hooks.shownMessages().length;
    const applied = await confirming(['Remove 3 Resources'], () => vscode.commands.executeCommand<boolean>(lens.command!.command, ...(lens.command!.arguments ?? [])));
    assert.equal(applied, true, 'the edit was applied once confirmed');
    const [confirmation] = await confirmationsSince(before);
    assert.equal(confirmation.text, 'Remove site and its dependents?');
    assert.deepEqual(confirmation.actions, ['Remove 3 Resources', 'Show Diff…']);
    assert.match(confirmation.detail!, /^Removes: site\nDependents removed with it: assets, policy\n/);
    assert.deepEqual(urnsIn(document.getText()), [ROOT, PROV, QUEUE], 'the site, its child and the policy depending on the child are gone');
    assert.deepEqual(urnsIn(readFileSync(uri.fsPath, 'utf8')), [ROOT, PROV, QUEUE], 'and on disk, in the same action');
    assert.ok(!document.isDirty);
    const report = hooks.shownMessages().findIndex((m, i) => i > before && m.text.includes('dependents removed: assets, policy'));
    assert.ok(report !== -1 && hooks.shownMessages()[report].level === 'info', 'the report was shown after the edit');
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), original, 'one undo restores the whole edit');
    await document.save();
  });

  it('asks about a protected resource in the same confirmation, then removes it; Cancel changes nothing', async () => {
    const uri = vscode.Uri.joinPath(folder, 'protected.state.json');
    const resources = records();
    resources[5].protect = true;
    writeFileSync(uri.fsPath, exportText(resources));
    const document = await openState(uri);
    const { hooks } = await activeExtension();
    let before = hooks.shownMessages().length;
    const cancelled = await confirming([undefined], () => vscode.commands.executeCommand<boolean>('quotaState.state.remove', { uri: uri.toString(), targets: [QUEUE] }));
    assert.equal(cancelled, false);
    assert.ok(urnsIn(document.getText()).includes(QUEUE), 'Cancel removes nothing');
    const [asked] = await confirmationsSince(before);
    assert.equal(asked.text, 'jobs is protected: Remove jobs?');
    assert.deepEqual(asked.actions, ['Remove Anyway', 'Show Diff…']);
    assert.ok(!hooks.shownMessages().some((m) => m.text.includes('--force')), 'no flag the editor cannot take');
    before = hooks.shownMessages().length;
    const applied = await confirming(['Remove Anyway'], () => vscode.commands.executeCommand<boolean>('quotaState.state.remove', { uri: uri.toString(), targets: [QUEUE] }));
    assert.equal(applied, true);
    assert.ok(!urnsIn(readFileSync(uri.fsPath, 'utf8')).includes(QUEUE), 'removed, on disk');
  });

  it('"Show Diff…" opens a diff editor whose right side is the result, then asks again', async () => {
    const uri = vscode.Uri.joinPath(folder, 'diff.state.json');
    const original = exportText(records());
    writeFileSync(uri.fsPath, original);
    const document = await openState(uri);
    const { hooks } = await activeExtension();
    const before = hooks.shownMessages().length;
    const applied = await confirming(['Show Diff…', undefined], () => vscode.commands.executeCommand<boolean>('quotaState.state.taint', { uri: uri.toString(), targets: [QUEUE] }));
    assert.equal(applied, false, 'cancelled after the diff');
    assert.equal((await confirmationsSince(before)).length, 2, 'asked again after the diff');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff editor is active (${tab?.label})`);
    assert.equal(tab.input.original.toString(), uri.toString());
    const right = await vscode.workspace.openTextDocument(tab.input.modified);
    const tainted = (JSON.parse(right.getText()) as { deployment: { resources: Rec[] } }).deployment.resources.find((r) => r.urn === QUEUE)!;
    assert.equal(tainted.taint, true, 'the right side is the result');
    assert.equal(document.getText(), original, 'nothing applied');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('moves a resource into another file in one edit of both files', async () => {
    const source = vscode.Uri.joinPath(folder, 'source.state.json');
    const dest = vscode.Uri.joinPath(folder, 'dest.state.json');
    writeFileSync(source.fsPath, exportText(records()));
    writeFileSync(dest.fsPath, exportText([{ urn: U('pulumi:pulumi:Stack', 'shop-prod', 'prod'), custom: false, type: 'pulumi:pulumi:Stack' }]));
    const document = await openState(source);
    const applied = await confirming(['Move 1 Resource'], () => vscode.commands.executeCommand<boolean>('quotaState.state.move', { uri: source.toString(), targets: [QUEUE], dest: dest.toString() }));
    assert.equal(applied, true);
    const destDocument = await vscode.workspace.openTextDocument(dest);
    assert.ok(!urnsIn(document.getText()).includes(QUEUE), 'gone from the source');
    assert.ok(urnsIn(destDocument.getText()).includes(U('aws:sqs/queue:Queue', 'jobs', 'prod')), 'in the destination, re-URNed to its stack');
  });

  it('opens a .json.gz DIY stack decompressed, checks it, and saves it compressed keeping the .bak', async () => {
    const stacks = vscode.Uri.joinPath(folder, '.pulumi', 'stacks', 'shop');
    mkdirSync(stacks.fsPath, { recursive: true });
    const original = vscode.Uri.joinPath(stacks, 'dev.json.gz');
    const resources = records();
    resources[4].dependencies = [BUCKET, U('aws:s3/bucket:Bucket', 'gone')];
    const checkpoint = `${JSON.stringify({ version: 3, checkpoint: { stack: 'organization/shop/dev', latest: { manifest, resources } } }, null, 4)}\n`;
    const bytes = gzipSync(Buffer.from(checkpoint));
    writeFileSync(original.fsPath, bytes);

    const document = await vscode.commands.executeCommand<vscode.TextDocument>('quotaState.state.openCompressed', original);
    assert.equal(document.uri.scheme, 'pulumi-gz');
    assert.equal(document.getText(), checkpoint, 'the decompressed JSON');
    assert.equal(document.languageId, 'json');
    const diagnostics = await diagnosticsWith(document.uri, ['missing-reference']);
    const missing = diagnostics.find((d) => codeOf(d) === 'missing-reference')!;
    assert.match(missing.message, /gone/);
    assert.deepEqual(readFileSync(original.fsPath), bytes, 'the original is untouched until saved');

    const applied = await confirming(['Repair'], () => vscode.commands.executeCommand<boolean>('quotaState.state.run', { uri: document.uri.toString(), operation: 'repair' }));
    assert.equal(applied, true);
    assert.ok(!document.getText().includes('::gone'), 'the dangling dependency was pruned');
    assert.ok(!document.isDirty, 'saved with the confirmed edit');
    assert.equal(gunzipSync(readFileSync(original.fsPath)).toString('utf8'), document.getText(), 'written back compressed');
    assert.deepEqual(readFileSync(`${original.fsPath}.bak`), bytes, 'the old bytes kept as .bak');
    assert.ok(!existsSync(vscode.Uri.joinPath(stacks, '.dev.json.gz.quota-state.tmp').fsPath), 'no temporary file left');
    await waitFor('the diagnostics of the repaired file', () => (vscode.languages.getDiagnostics(document.uri).some((d) => codeOf(d) === 'missing-reference') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
  });
  it('refuses to open a 1 GiB gzip bomb through pulumi-gz:, naming the file and the limit, within the limit in memory', async () => {
    const bomb = vscode.Uri.joinPath(folder, 'bomb.json.gz');
    writeFileSync(bomb.fsPath, gzipBomb(1, 1));
    const peakBefore = process.resourceUsage().maxRSS / 1024;
    const refusal = await vscode.commands.executeCommand('quotaState.state.openCompressed', bomb).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const growth = process.resourceUsage().maxRSS / 1024 - peakBefore;
    assert.ok(refusal !== undefined, 'the bomb was opened');
    assert.match(refusal, /bomb\.json\.gz decompresses to more than 256 MiB, the limit for a decompressed file/);
    assert.ok(growth < 256 + 64, `the extension host's peak RSS grew by ${growth.toFixed(0)} MiB`);
    console.log(`      extension host peak RSS growth opening a 1 GiB gzip bomb: ${growth.toFixed(0)} MiB`);
  });

  it('asks before editing a DIY stack whose lock may be live, its default leaving the file unchanged; a stale lock is named stale', async () => {
    const stacks = vscode.Uri.joinPath(folder, '.pulumi', 'stacks', 'locked');
    const locks = vscode.Uri.joinPath(folder, '.pulumi', 'locks', 'organization', 'locked', 'dev');
    mkdirSync(stacks.fsPath, { recursive: true });
    mkdirSync(locks.fsPath, { recursive: true });
    const lockFile = vscode.Uri.joinPath(locks, 'update-1.json').fsPath;
    writeFileSync(lockFile, JSON.stringify({ pid: 4242, username: 'ci', hostname: 'build-agent-7', timestamp: new Date(Date.now() - 5 * 60_000).toISOString() }));
    const uri = vscode.Uri.joinPath(stacks, 'dev.json');
    const text = exportText(records().map((r) => ({ ...r, urn: String(r.urn).replace('::shop::', '::locked::') })));
    writeFileSync(uri.fsPath, text);
    const document = await openState(uri);
    const { hooks } = await activeExtension();
    const run = { uri: uri.toString(), operation: 'protect', targets: [QUEUE.replace('::shop::', '::locked::')] };
    // A lock taken five minutes ago on another machine: its holder may be running. Enter leaves the file as it is.
    let before = hooks.shownMessages().length;
    hooks.answerConfirmations('<Enter>');
    await vscode.commands.executeCommand('quotaState.state.run', run);
    const question = hooks.shownMessages().slice(before)[0];
    assert.match(question.text, /stack is locked, and its holder may still be running an update/);
    assert.match(question.detail ?? '', /ci@build-agent-7 \(pid 4242\), taken 5 min ago: its holder may still be running/);
    assert.deepEqual(question.actions, ['Leave Unchanged', 'Edit Anyway'], 'the default (first) button edits nothing');
    assert.ok(!question.text.includes('`') && !(question.detail ?? '').includes('`'), 'no literal backticks');
    assert.equal(document.getText(), text, 'nothing edited on Enter');

    // The same lock two days old: stale, said so, in a warning that waits for "Edit Anyway".
    writeFileSync(lockFile, JSON.stringify({ pid: 4242, username: 'ci', hostname: 'build-agent-7', timestamp: new Date(Date.now() - 2 * 86_400_000).toISOString() }));
    before = hooks.shownMessages().length;
    // Not awaited: the command waits for an answer to the warning, which a test never gives.
    void vscode.commands.executeCommand('quotaState.state.run', run);
    const warning = await waitFor(
      'the stale-lock warning',
      () =>
        hooks
          .shownMessages()
          .slice(before)
          .find((m) => m.level === 'warning'),
      [],
      30_000,
    );
    assert.match(warning.text, /stack holds a stale lock: ci@build-agent-7 \(pid 4242\), taken 2 d ago: stale, older than 1 h/);
    assert.deepEqual(warning.actions, ['Edit Anyway']);
    assert.equal(document.getText(), text, 'nothing edited while the warning waits');
  });
});
