import * as assert from 'node:assert/strict';
import { writeFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { activeExtension, codeOf, diagnosticsWith, revertAndCloseAll, waitFor, workspaceUri } from './helpers';

/** Over VS Code's 50 MB limit: the editor never hands this document to extensions. */
function writeLargeStateFile(fsPath: string): number {
  const blob = 'x'.repeat(300 * 1024);
  const resources = [{ urn: 'urn:pulumi:dev::big::pulumi:pulumi:Stack::big-dev', custom: false, type: 'pulumi:pulumi:Stack' }] as object[];
  for (let i = 0; i < 180; i++) {
    resources.push({
      urn: `urn:pulumi:dev::big::aws:s3/bucketObject:BucketObject::object-${i}`,
      custom: true,
      id: `object-${i}`,
      type: 'aws:s3/bucketObject:BucketObject',
      parent: 'urn:pulumi:dev::big::pulumi:pulumi:Stack::big-dev',
      dependencies: i === 90 ? ['urn:pulumi:dev::big::aws:iam/role:Role::gone'] : [],
      outputs: { content: blob },
    });
  }
  const text = JSON.stringify({ version: 3, deployment: { manifest: { time: '2024-01-01T00:00:00Z', magic: '', version: '' }, resources } }, null, 1);
  writeFileSync(fsPath, text);
  return Buffer.byteLength(text);
}

describe('state files too large for the editor to hand over', () => {
  const uri = workspaceUri('huge.state.json');

  after(async () => {
    await revertAndCloseAll();
    rmSync(uri.fsPath, { force: true });
  });

  it('are analysed from disk: diagnostics appear for the file and the status says so', async function () {
    this.timeout(180_000);
    const { hooks } = await activeExtension();
    const size = writeLargeStateFile(uri.fsPath);
    assert.ok(size > 50 * 1024 * 1024, `the fixture is only ${size} bytes`);
    await vscode.commands.executeCommand('vscode.open', uri);
    const diagnostics = await diagnosticsWith(uri, ['missing-reference']);
    assert.match(diagnostics.find((d) => codeOf(d) === 'missing-reference')!.message, /Role::gone/);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'the editor did hand the document over');
    const status = await waitFor('a from-disk status', () => hooks.documentStatus(uri.toString()), [hooks.onDocumentStatus]);
    assert.equal(status.fromDisk, true);
  });
});
