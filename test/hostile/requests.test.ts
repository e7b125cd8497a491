/**
 * Requests an editor (or a confused client) may send: quick fixes for diagnostics from before the
 * latest edit, malformed parameters, and fuzzed quota documents. The server answers each without
 * logging an exception.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { exerciseFeatures } from '../helpers/exerciseFeatures';
import { LspTestClient } from '../helpers/lspClient';
import { ROOT } from '../helpers/processes';

const quotaSeeds = [join(ROOT, 'test/fixtures/quota/every-code.quota.jsonc'), join(ROOT, 'examples/demo.quota.jsonc')].map((path) => readFileSync(path, 'utf8'));
const stateSeed = readFileSync(join(ROOT, 'examples/webshop.state.json'), 'utf8');

describe('hostile requests through the language server', function () {
  this.timeout(300_000);
  let client: LspTestClient;
  before(async () => (client = await LspTestClient.start()));
  after(() => client.stop());
  afterEach(() => client.assertNoLoggedErrors());

  const codeActions = (uri: string, diagnostics: Diagnostic[]) =>
    client.request<unknown, CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } },
      context: { diagnostics },
    });

  for (const [kind, uri, seed, languageId] of [
    ['state', 'file:///hostile/stale.state.json', stateSeed, 'json'],
    ['quota', 'file:///hostile/stale.quota.jsonc', quotaSeeds[0], 'jsonc'],
  ] as const) {
    it(`offers no quick fix for ${kind} diagnostics from before the latest edit`, async () => {
      const before = await client.open(uri, seed, languageId);
      const fresh = await codeActions(uri, before);
      assert.ok(fresh.length > 0, 'the seed offers quick fixes');
      // Delete the first half of the document: every old range and path now points elsewhere.
      await client.change(uri, seed.slice(Math.floor(seed.length / 2)));
      assert.deepEqual(await codeActions(uri, before), []);
      await client.close(uri);
    });
  }

  it('answers malformed requests with InvalidParams, never a handler exception', async () => {
    const uri = 'file:///hostile/malformed.quota.jsonc';
    await client.open(uri, quotaSeeds[1], 'jsonc');
    const textDocument = { uri };
    const malformed: Array<[string, unknown]> = [
      ['textDocument/hover', { textDocument }],
      ['textDocument/hover', { textDocument, position: { line: 'x', character: null } }],
      ['textDocument/completion', { textDocument: {}, position: { line: 0, character: 0 } }],
      ['textDocument/codeAction', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } } }],
      ['textDocument/codeAction', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, context: { diagnostics: [{ code: 'x' }] } }],
      ['textDocument/references', { textDocument, position: { line: 0, character: 0 } }],
      ['textDocument/rename', { textDocument, position: { line: 1, character: 3 } }],
      ['textDocument/inlayHint', { textDocument }],
      ['textDocument/definition', null],
      ['textDocument/documentSymbol', {}],
      ['textDocument/codeLens', { textDocument: { uri: 42 } }],
    ];
    for (const [method, params] of malformed) {
      const answer = await client.request(method, params).then(
        (value) => ({ value }),
        (error: { code?: number }) => ({ code: error.code }),
      );
      assert.ok(!('value' in answer) || answer.value === null || Array.isArray(answer.value), `${method}: ${JSON.stringify(answer)}`);
      client.assertNoLoggedErrors();
    }
    await client.close(uri);
  });

  it('quota documents: mutated and truncated seeds never make a feature throw', async () => {
    const uri = 'file:///hostile/fuzz.quota.jsonc';
    let diagnostics = await client.open(uri, quotaSeeds[0], 'jsonc');
    const mutation = fc.record({
      seed: fc.constantFrom(...quotaSeeds),
      at: fc.nat(),
      cut: fc.nat({ max: 40 }),
      insert: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '//', '/*', '\ud800', '1e999', '-0', 'null', '"size:all"', '"rules"', '"name"')),
    });
    const samples = fc.sample(mutation, { numRuns: 40, seed: 11 }).map(({ seed, at, cut, insert }) => {
      const offset = at % (seed.length + 1);
      return seed.slice(0, offset) + insert + seed.slice(offset + cut);
    });
    const extremes = ['', '[]', 'null', '{"rules":' + '['.repeat(5_000), '{"rules":[{"name":"\ud800","limit":1e400,"subjects":["size:all"]}]}'];
    for (const text of [...extremes, ...samples]) {
      const stale = diagnostics;
      diagnostics = await client.change(uri, text);
      await exerciseFeatures(client, uri, stale, diagnostics);
      client.assertNoLoggedErrors();
    }
    assert.ok(client.alive);
  });
});
