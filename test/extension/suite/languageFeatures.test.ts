import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension, codeOf, diagnosticsWith, revertAndCloseAll, setSetting, waitFor, workspaceUri } from './helpers';

describe('language features through the language server', () => {
  before(async () => {
    await activeExtension();
  });

  afterEach(revertAndCloseAll);

  it('publishes diagnostics for a resource-state file and says what it recognised', async () => {
    const { hooks } = await activeExtension();
    const uri = workspaceUri('stack.state.json');
    await vscode.window.showTextDocument(uri);
    const diagnostics = await diagnosticsWith(uri, ['missing-reference', 'magic-mismatch']);
    const missing = diagnostics.find((d) => codeOf(d) === 'missing-reference')!;
    assert.equal(missing.severity, vscode.DiagnosticSeverity.Error);
    assert.match(missing.message, /urn:pulumi:dev::site::aws:iam\/role:Role::gone/);
    const status = await waitFor('a document status', () => hooks.documentStatus(uri.toString()), [hooks.onDocumentStatus]);
    assert.equal(status.kind, 'state');
  });

  it('a real Pulumi export (pulumi-tls, engine v3.223) comes out with no error and no warning, in the pulumi schema mode', async () => {
    const { hooks } = await activeExtension();
    const uri = workspaceUri('real-tls.state.json');
    await vscode.window.showTextDocument(uri);
    const diagnostics = await diagnosticsWith(uri, ['newer-engine-property']);
    const summary = diagnostics.find((d) => codeOf(d) === 'newer-engine-property')!;
    assert.equal(summary.severity, vscode.DiagnosticSeverity.Information);
    assert.match(summary.message, /created \(4\)/);
    const serious = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(
      serious.map((d) => `${codeOf(d)}: ${d.message}`),
      [],
    );
    const status = await waitFor(
      'a document status with the schema mode',
      () => {
        const s = hooks.documentStatus(uri.toString());
        return s?.schema ? s : undefined;
      },
      [hooks.onDocumentStatus],
    );
    assert.equal(status.schema, 'pulumi');
  });

  it('publishes diagnostics for a quota file, with per-code severity overrides from the settings', async () => {
    const { hooks } = await activeExtension();
    const uri = workspaceUri('team.quota.jsonc');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'jsonc', 'quota files are JSON with comments');
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsWith(uri, ['unknown-subject', 'subject-alias']);
    assert.equal(diagnostics.find((d) => codeOf(d) === 'subject-alias')!.severity, vscode.DiagnosticSeverity.Information);
    const status = await waitFor('a document status', () => hooks.documentStatus(uri.toString()), [hooks.onDocumentStatus]);
    assert.equal(status.kind, 'quota');

    await setSetting('diagnostics.severity', { 'subject-alias': 'off', 'unknown-subject': 'warning' });
    try {
      await waitFor(
        'the overrides to apply',
        () => {
          const now = vscode.languages.getDiagnostics(uri);
          const unknown = now.find((d) => codeOf(d) === 'unknown-subject');
          return unknown?.severity === vscode.DiagnosticSeverity.Warning && !now.some((d) => codeOf(d) === 'subject-alias') ? now : undefined;
        },
        [vscode.languages.onDidChangeDiagnostics],
      );
    } finally {
      await setSetting('diagnostics.severity', undefined);
    }
  });

  it('applies a quick fix from the language server through executeCodeActionProvider + applyEdit', async () => {
    const uri = workspaceUri('team.quota.jsonc');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsWith(uri, ['unknown-subject']);
    const unknown = diagnostics.find((d) => codeOf(d) === 'unknown-subject')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, unknown.range);
    const fix = actions.find((action) => action.edit && /size:repos:all/.test(action.title));
    assert.ok(fix, `no quick fix to "size:repos:all" among: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.match(document.getText(), /"subjects": \["size:repos:all"\]/);
    await waitFor('the unknown-subject diagnostic to go away', () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'unknown-subject') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
  });

  it('renames a urn everywhere it is referenced', async () => {
    const uri = workspaceUri('stack.state.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await diagnosticsWith(uri, ['missing-reference']);
    const oldUrn = 'urn:pulumi:dev::site::aws:s3/bucket:Bucket::assets';
    const newUrn = 'urn:pulumi:dev::site::aws:s3/bucket:Bucket::static-assets';
    const at = document.positionAt(document.getText().indexOf(oldUrn) + 5);
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', uri, at, newUrn);
    assert.ok(edit, 'no rename edit');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const text = document.getText();
    assert.equal(text.split(oldUrn).length - 1, 0, 'the old urn is still there');
    assert.equal(text.split(newUrn).length - 1, 2, 'the declaration and the dependency were not both renamed');
  });

  it('shows where a urn is depended on from its dependents code lens', async () => {
    const uri = workspaceUri('stack.state.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await diagnosticsWith(uri, ['missing-reference']);
    const stackUrn = 'urn:pulumi:dev::site::pulumi:pulumi:Stack::site-dev';
    const lens = await waitFor(
      'the code lens of the stack',
      async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
        return lenses?.find((l) => l.range.start.line === document.positionAt(document.getText().indexOf(stackUrn)).line);
      },
      [vscode.languages.onDidChangeDiagnostics],
    );
    assert.equal(lens.command?.title, '2 dependents');
    // What clicking the lens runs: the client's command, which opens a references peek.
    const locations = await vscode.commands.executeCommand<vscode.Location[]>(lens.command!.command, ...(lens.command!.arguments ?? []));
    assert.equal(locations.length, 2, 'the two records whose parent is the stack');
    for (const location of locations) {
      assert.equal(location.uri.toString(), uri.toString());
      assert.equal(document.getText(location.range), stackUrn);
    }
  });

  it('previews the evaluation of a quota file as a readable table', async () => {
    const uri = workspaceUri('team.quota.jsonc');
    await vscode.window.showTextDocument(uri);
    const result = await vscode.commands.executeCommand<{ report: { accounts: Array<{ name: string; stands: boolean }> }; text: string }>('quotaState.previewEvaluation', {
      uri: uri.toString(),
      show: false,
    });
    assert.ok(result, 'no preview');
    const dora = result.report.accounts.find((account) => account.name === 'dora');
    assert.ok(dora, 'the usage scenario "dora" is missing');
    assert.match(result.text, /## dora/);
    assert.match(result.text, /\| group \| rule \| used \| limit \|/);
  });
});
