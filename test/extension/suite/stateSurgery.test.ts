/**
 * State surgery in a real VS Code, on the installed extension: remove with dependents from the
 * lens, a move between two files, and a compressed `.json.gz` DIY stack opened, edited and saved.
 * Every edit goes through VS Code's refactor preview: `workspace.applyEdit` with edits that need
 * confirmation resolves only once the preview is applied, so each test runs `refactorPreview.apply`
 * while the command waits.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
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
 * Runs `start` (which applies an edit through the preview) and applies the preview until it resolves.
 * Edits that need confirmation open in the preview unchecked (VS Code's BulkFileOperations checks
 * only edits without `needsConfirmation`), as a person would tick them: group by change type, focus
 * the one category (the operation's annotation), tick it, and apply.
 */
async function throughPreview<T>(start: () => Thenable<T>): Promise<T> {
  let settled = false;
  const pending = Promise.resolve(start()).finally(() => (settled = true));
  const deadline = Date.now() + 120_000;
  const run = (command: string) => vscode.commands.executeCommand(command).then(undefined, () => undefined);
  const settledWithin = async (ms: number) => {
    for (const until = Date.now() + ms; !settled && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 100));
    return settled;
  };
  // Ticking toggles: a second tick in the same preview unticks the change, and applying then applies
  // nothing. So each tick is followed by an apply and a generous wait; only a preview that was not
  // showing yet (nothing happened) is ticked again.
  while (!(await settledWithin(300))) {
    if (Date.now() > deadline) throw new Error('the refactor preview was never applied');
    await run('refactorPreview.groupByType');
    await run('list.focusFirst');
    await run('refactorPreview.toggleCheckedState');
    await run('refactorPreview.apply');
    if (await settledWithin(5_000)) break;
  }
  return pending;
}

async function openState(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  const { hooks } = await activeExtension();
  await waitFor('the server to recognise the state file', () => (hooks.documentStatus(uri.toString())?.kind === 'state' ? true : undefined), [hooks.onDocumentStatus]);
  return document;
}

describe('state surgery (refactor preview)', () => {
  const folder = workspaceUri('surgery');
  before(() => mkdirSync(folder.fsPath, { recursive: true }));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder.fsPath, { recursive: true, force: true });
  });

  it('removes a resource with its dependents from the lens, after the preview', async () => {
    const uri = vscode.Uri.joinPath(folder, 'remove.state.json');
    writeFileSync(uri.fsPath, exportText(records()));
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
    const applied = await throughPreview(() => vscode.commands.executeCommand<boolean>(lens.command!.command, ...(lens.command!.arguments ?? [])));
    assert.equal(applied, true, 'the edit was applied through the preview');
    assert.deepEqual(urnsIn(document.getText()), [ROOT, PROV, QUEUE], 'the site, its child and the policy depending on the child are gone');
    const { hooks } = await activeExtension();
    assert.ok(
      hooks.shownMessages().some((m) => m.text.includes('dependents removed: assets, policy')),
      'the report was shown',
    );
    await document.save();
  });

  it('moves a resource into another file in one edit of both files', async () => {
    const source = vscode.Uri.joinPath(folder, 'source.state.json');
    const dest = vscode.Uri.joinPath(folder, 'dest.state.json');
    writeFileSync(source.fsPath, exportText(records()));
    writeFileSync(dest.fsPath, exportText([{ urn: U('pulumi:pulumi:Stack', 'shop-prod', 'prod'), custom: false, type: 'pulumi:pulumi:Stack' }]));
    const document = await openState(source);
    const applied = await throughPreview(() => vscode.commands.executeCommand<boolean>('quotaState.state.move', { uri: source.toString(), targets: [QUEUE], dest: dest.toString() }));
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

    const applied = await throughPreview(() => vscode.commands.executeCommand<boolean>('quotaState.state.run', { uri: document.uri.toString(), operation: 'repair' }));
    assert.equal(applied, true);
    assert.ok(!document.getText().includes('::gone'), 'the dangling dependency was pruned');
    assert.deepEqual(readFileSync(original.fsPath), bytes, 'still untouched before the save');
    assert.ok(await document.save(), 'saved');
    assert.equal(gunzipSync(readFileSync(original.fsPath)).toString('utf8'), document.getText(), 'written back compressed');
    assert.deepEqual(readFileSync(`${original.fsPath}.bak`), bytes, 'the old bytes kept as .bak');
    assert.ok(!existsSync(vscode.Uri.joinPath(stacks, '.dev.json.gz.quota-state.tmp').fsPath), 'no temporary file left');
    await waitFor('the diagnostics of the repaired file', () => (vscode.languages.getDiagnostics(document.uri).some((d) => codeOf(d) === 'missing-reference') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
  });
  it('warns before editing a DIY stack whose stack holds a lock, and edits nothing without "Edit Anyway"', async () => {
    const stacks = vscode.Uri.joinPath(folder, '.pulumi', 'stacks', 'locked');
    const locks = vscode.Uri.joinPath(folder, '.pulumi', 'locks', 'organization', 'locked', 'dev');
    mkdirSync(stacks.fsPath, { recursive: true });
    mkdirSync(locks.fsPath, { recursive: true });
    writeFileSync(vscode.Uri.joinPath(locks, 'update-1.json').fsPath, '{"pid": 1}');
    const uri = vscode.Uri.joinPath(stacks, 'dev.json');
    const text = exportText(records().map((r) => ({ ...r, urn: String(r.urn).replace('::shop::', '::locked::') })));
    writeFileSync(uri.fsPath, text);
    const document = await openState(uri);
    const { hooks } = await activeExtension();
    const before = hooks.shownMessages().length;
    // Not awaited: the command waits for an answer to the warning, which a test never gives.
    void vscode.commands.executeCommand('quotaState.state.run', { uri: uri.toString(), operation: 'protect', targets: [QUEUE.replace('::shop::', '::locked::')] });
    const warning = await waitFor(
      'the lock warning',
      () =>
        hooks
          .shownMessages()
          .slice(before)
          .find((m) => m.level === 'warning'),
      [],
      30_000,
    );
    assert.match(warning.text, /stack is locked \(1 lock in .*locks\/organization\/locked\/dev\): an update may be running/);
    assert.deepEqual(warning.actions, ['Edit Anyway']);
    assert.equal(document.getText(), text, 'nothing edited while the warning waits');
  });
});
