/** File patterns from (possibly hostile) workspace settings, through the running language server. */
import { strict as assert } from 'node:assert';
import type { Hover } from 'vscode-languageserver-protocol';
import { LspTestClient } from '../helpers/lspClient';

describe('file-pattern settings through the language server', function () {
  this.timeout(60_000);
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start({
      initializationOptions: { settings: { files: { quota: ['*a*a*a*a*a*a*a*a*a*a*a*a*b', '**/{prod,staging}/*.json', 'dev[0-9].json'], state: [] } } },
    });
  });
  after(() => client.stop());
  afterEach(() => client.assertNoLoggedErrors());

  it('a pattern that backtracks in a regular expression does not hold up the server', async () => {
    const uri = `file:///w/${'a'.repeat(40)}.json`;
    assert.equal(await client.openUnrecognised(uri, '{"name": "not ours"}'), undefined, 'not a quota file, so nothing is published');
    const hover = await client.request<unknown, Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 3 } });
    assert.equal(hover, null);
  });

  it('braces and classes select quota files', async () => {
    // No key that content detection knows: only the file patterns can make it a quota file.
    const text = '{ "rulez": [] }';
    for (const uri of ['file:///w/prod/limits.json', 'file:///w/staging/limits.json', 'file:///w/dev3.json']) {
      const diagnostics = await client.open(uri, text);
      assert.ok(
        diagnostics.some((d) => String(d.message).includes('"rulez" is not allowed')),
        `${uri} was not read as a quota file: ${JSON.stringify(diagnostics)}`,
      );
    }
    assert.equal(await client.openUnrecognised('file:///w/dev/limits.json', text), undefined, 'no pattern names it: not a quota file');
  });
});
