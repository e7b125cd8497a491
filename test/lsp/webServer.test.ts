/**
 * The browser build's language server (dist/web/server.js, a web worker script) takes the client's
 * l10n bundle too: here it runs in a Node worker thread dressed as a web worker (`self`,
 * `postMessage`, `onmessage`), with @vscode/l10n's browser build bundled in, as in vscode.dev.
 */
import { strict as assert } from 'node:assert';
import { Worker } from 'node:worker_threads';
import { AbstractMessageReader, AbstractMessageWriter, createProtocolConnection, type Diagnostic, type Message, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { distPath } from '../helpers/processes';

/** The web worker's globals the server uses, over the worker thread's port. */
const WEB_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
globalThis.self = globalThis;
globalThis.postMessage = (message) => parentPort.postMessage(message);
globalThis.addEventListener = () => {};
parentPort.on('message', (data) => globalThis.onmessage?.({ data }));
require(workerData.server);
`;

/** The browser build's server in a worker dressed as a web worker, and a connection to it (not yet listening). */
function startBrowserServer(): { worker: Worker; connection: ReturnType<typeof createProtocolConnection> } {
  const worker = new Worker(WEB_WORKER, { eval: true, workerData: { server: distPath('web/server.js') } });
  const reader = new (class extends AbstractMessageReader {
    listen(callback: (message: Message) => void) {
      worker.on('message', callback);
      return { dispose: () => worker.off('message', callback) };
    }
  })();
  const writer = new (class extends AbstractMessageWriter {
    async write(message: Message) {
      worker.postMessage(message);
    }
    end() {}
  })();
  return { worker, connection: createProtocolConnection(reader, writer) };
}

/** Starts the web server, opens one quota file and resolves with its first diagnostics. */
async function diagnosticsInBrowserBuild(initializationOptions: unknown, uri: string, text: string): Promise<Diagnostic[]> {
  const { worker, connection } = startBrowserServer();
  // No workspace files in the browser: the server asks the client, which has none.
  connection.onRequest('workspace/configuration', () => [null]);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('quotaState/readWorkspaceFile', () => null);
  connection.onRequest('quotaState/readWorkspaceDirectory', () => null);
  const published = new Promise<PublishDiagnosticsParams>((resolve) => connection.onNotification('textDocument/publishDiagnostics', resolve));
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonc', version: 1, text } });
    return (await published).diagnostics;
  } finally {
    connection.dispose();
    await worker.terminate();
  }
}

describe('the browser build of the language server and its l10n bundle', function () {
  this.timeout(60_000);
  const uri = 'file:///w/spare.quota.jsonc';
  const text = '{ "rules": [ { "name": "spare", "limit": "1 GiB", "subjects": ["size:all"] } ], "groups": [] }';

  it('publishes the bundle’s words, and English without a bundle', async () => {
    const english = await diagnosticsInBrowserBuild({}, uri, text);
    const translated = await diagnosticsInBrowserBuild({ l10nBundle: { 'Rule "{0}" is not used by any group': '[Ŕüļé "{0}" ïš ñöţ üšéð]' } }, uri, text);
    assert.deepEqual(
      english.map((d) => [d.code, d.message]),
      [['unused-rule', 'Rule "spare" is not used by any group']],
    );
    assert.deepEqual(
      translated.map((d) => [d.code, d.message, d.range]),
      [['unused-rule', '[Ŕüļé "spare" ïš ñöţ üšéð]', english[0].range]],
    );
  });
});

describe('the browser build of the language server and the resource graph', function () {
  this.timeout(60_000);

  it('draws a state file no editor holds from the client’s files, and again when its text changed', async () => {
    const { worker, connection } = startBrowserServer();
    const stack = 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev';
    const resources = [{ urn: stack, custom: false, type: 'pulumi:pulumi:Stack' }];
    const state = () => JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources } });
    const uri = 'vscode-vfs://github/shop/stack.json';
    const asked: string[] = [];
    connection.onRequest('workspace/configuration', () => [null]);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('quotaState/readWorkspaceFile', ({ uri: asked_ }: { uri: string }) => {
      asked.push(asked_);
      return asked_ === uri ? state() : null;
    });
    connection.onRequest('quotaState/readWorkspaceDirectory', () => null);
    connection.listen();
    try {
      await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: {} });
      await connection.sendNotification('initialized', {});
      const first = (await connection.sendRequest('quotaState/resourceGraph', { uri, depth: 'all' })) as { nodes: Array<{ id: string }> } | null;
      assert.deepEqual(
        first?.nodes.map((node) => node.id),
        [stack],
      );
      resources.push({ urn: 'urn:pulumi:dev::shop::aws:sqs/queue:Queue::jobs', custom: true, type: 'aws:sqs/queue:Queue', parent: stack } as (typeof resources)[number]);
      const second = (await connection.sendRequest('quotaState/resourceGraph', { uri, depth: 'all' })) as { nodes: Array<{ id: string }> } | null;
      assert.equal(second?.nodes.length, 2, 'the changed text is drawn');
      assert.ok(asked.filter((each) => each === uri).length >= 2, 'read through the client each time');
      await assert.rejects(connection.sendRequest('quotaState/resourceGraph', { uri: 'vscode-vfs://github/shop/gone.json', depth: 1 }), /gone\.json/);
    } finally {
      connection.dispose();
      await worker.terminate();
    }
  });
});
