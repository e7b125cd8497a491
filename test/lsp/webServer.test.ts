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

/** Starts the web server, opens one quota file and resolves with its first diagnostics. */
async function diagnosticsInBrowserBuild(initializationOptions: unknown, uri: string, text: string): Promise<Diagnostic[]> {
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
  const connection = createProtocolConnection(reader, writer);
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
