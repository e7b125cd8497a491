/**
 * The extension hands every JSON and JSONC document to the server, which decides by name, then by
 * content, whether a document is ours. A file that is not ours gets no diagnostics and no status
 * message at all; a file recognised by content alone gets the full analysis.
 */
import { strict as assert } from 'node:assert';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol';
import { DocumentStatusNotification, type DocumentStatusParams } from '../../shared/protocol';
import { LspTestClient } from './client';
import { EXPORT_WITH_MISSING_PARENT } from '../helpers/stateSamples';

describe('content recognition (LSP over stdio)', function () {
  this.timeout(60_000);
  let client: LspTestClient;

  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => client?.stop());

  const statusesFor = (uri: string) =>
    client.notifications
      .filter((n) => n.method === DocumentStatusNotification.method)
      .map((n) => n.params as DocumentStatusParams)
      .filter((s) => s.uri === uri);

  it('analyses a state export whose name matches no pattern, and leaves an ordinary JSON file alone', async () => {
    const ordinaryUri = 'file:///work/app/settings.json';
    const exportUri = 'file:///work/app/stack.json';
    // Opened first: the server handles both in order, so once the export's diagnostics arrived,
    // anything the server was going to say about the ordinary file has arrived too.
    await client.notify(DidOpenTextDocumentNotification.method, {
      textDocument: { uri: ordinaryUri, languageId: 'json', version: 1, text: '{ "name": "webshop", "dependencies": { "left-pad": "1.3.0" } }' },
    });
    const diagnostics = await client.open(exportUri, EXPORT_WITH_MISSING_PARENT);

    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['missing-reference'],
    );
    const status = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === exportUri);
    assert.equal(status.kind, 'state');
    assert.ok(status.validationMs !== undefined && status.validationMs >= 0, 'the status says how long the server took, from the didOpen to the publish');
    assert.equal(client.lastDiagnostics(ordinaryUri), undefined, 'no diagnostics (not even an empty list) for an ordinary JSON file');
    assert.deepEqual(statusesFor(ordinaryUri), [], 'no status message for an ordinary JSON file');
  });

  it('clears the diagnostics and the status of a file that stops being ours', async () => {
    const uri = 'file:///work/app/was-a-stack.json';
    assert.equal((await client.open(uri, EXPORT_WITH_MISSING_PARENT)).length, 1);
    assert.deepEqual(await client.change(uri, '{ "name": "no longer a stack" }'), []);
    const status = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === uri && s.kind === null);
    assert.equal(status.diagnosticCount, 0);
  });

  it('times only validations that a change started: a settings revalidation has no arrival to measure from', async () => {
    const uri = 'file:///work/app/timed.state.json';
    await client.open(uri, EXPORT_WITH_MISSING_PARENT);
    const opened = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === uri);
    assert.ok(opened.validationMs !== undefined);
    const before = statusesFor(uri).length;
    await client.notify('workspace/didChangeConfiguration', { settings: {} });
    const revalidated = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === uri && statusesFor(uri).indexOf(s) >= before);
    assert.equal(revalidated.validationMs, undefined);
  });
});
