/**
 * Deeply nested documents: the CLI and the running server answer every file kind at any depth
 * with a located "nested deeper than" diagnostic, never an internal error, and the editor
 * features keep working on the shallow part of the document.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { MAX_NESTING_DEPTH } from '../../shared/json/nesting';
import { LspTestClient, positionAt } from '../helpers/lspClient';
import { runQuotaState } from '../helpers/processes';

const DEPTHS = [3_000, 10_000, 100_000];

/** A quota file whose last rule holds `depth` unclosed (or closed) arrays. */
function deepQuota(depth: number, closed: boolean): string {
  return `{\n  "rules": [\n    { "name": "shallow", "limit": "1 GiB", "subjects": ["size:all"] },\n    ${'['.repeat(depth)}${closed ? ']'.repeat(depth) : ''}\n  ]${closed ? '\n}\n' : ''}`;
}

/** A resource record whose outputs nest `depth` arrays, with a shallow dependency before them. */
function deepState(depth: number): string {
  return `{\n  "urn": "urn:pulumi:dev::p::aws:s3/bucket:Bucket::b",\n  "type": "aws:s3/bucket:Bucket",\n  "custom": true,\n  "dependencies": ["urn:pulumi:dev::p::aws:s3/bucket:Bucket::b"],\n  "outputs": { "deep": ${'['.repeat(depth)}${']'.repeat(depth)} }\n}\n`;
}

function assertNestingDiagnostic(diagnostics: Array<Pick<Diagnostic, 'message' | 'range'>>, text: string): void {
  const nesting = diagnostics.find((d) => /nested deeper than \d+ levels/.test(String(d.message)));
  assert.ok(nesting, `no nesting diagnostic among ${JSON.stringify(diagnostics.map((d) => String(d.message)))}`);
  // Located at the bracket that opens the first level past the bound.
  const offset = text.indexOf('['.repeat(MAX_NESTING_DEPTH));
  assert.ok(nesting.range.start.line === positionAt(text, offset).line, `nesting diagnostic at line ${nesting.range.start.line}`);
}

describe('deeply nested documents', function () {
  this.timeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), 'quota-state-depth-'));

  describe('through the CLI', () => {
    for (const depth of DEPTHS) {
      for (const closed of [false, true]) {
        it(`check reports a quota file ${closed ? 'closed' : 'left open'} at ${depth} levels without an internal error`, async () => {
          const file = join(folder, `deep${depth}${closed ? 'c' : ''}.quota.jsonc`);
          writeFileSync(file, deepQuota(depth, closed));
          const result = runQuotaState(['check', file, '--format', 'json']);
          assert.doesNotMatch(result.stderr, /internal error/);
          assert.equal(result.status, 1, result.stderr);
          assert.match(result.stdout, /nested deeper than \d+ levels/);
        });
      }
      it(`evaluate refuses a quota file nested ${depth} levels with exit 2 and no internal error`, async () => {
        const file = join(folder, `evaluate${depth}.quota.jsonc`);
        writeFileSync(file, deepQuota(depth, true));
        const result = runQuotaState(['evaluate', file]);
        assert.doesNotMatch(result.stderr, /internal error/);
        assert.equal(result.status, 2);
      });
      it(`check reports a state file nested ${depth} levels`, async () => {
        const file = join(folder, `deep${depth}.state.json`);
        writeFileSync(file, deepState(depth));
        const result = runQuotaState(['check', file]);
        assert.doesNotMatch(result.stderr, /internal error/);
        assert.match(result.stdout, /nested deeper than \d+ levels/);
      });
    }
  });

  describe('through the language server', () => {
    let client: LspTestClient;
    before(async () => (client = await LspTestClient.start()));
    after(() => client.stop());
    afterEach(() => client.assertNoLoggedErrors());

    for (const depth of DEPTHS) {
      it(`a quota file nested ${depth} levels: diagnostics published, every feature answers, the shallow rule hovers`, async () => {
        const uri = `file:///depth/q${depth}.quota.jsonc`;
        const text = deepQuota(depth, true);
        const diagnostics = await client.open(uri, text, 'jsonc');
        assertNestingDiagnostic(diagnostics, text);
        const textDocument = { uri };
        const deepPosition = positionAt(text, text.lastIndexOf('['));
        const hover = await client.request<unknown, Hover | null>('textDocument/hover', { textDocument, position: positionAt(text, text.indexOf('size:all') + 2) });
        assert.ok(hover, 'the shallow rule has no hover');
        await client.request('textDocument/hover', { textDocument, position: deepPosition });
        await client.request('textDocument/completion', { textDocument, position: deepPosition });
        const symbols = await client.request<unknown, Array<{ name: string }>>('textDocument/documentSymbol', { textDocument });
        assert.ok(JSON.stringify(symbols).includes('shallow'), 'the outline lost the shallow rule');
        await client.request('textDocument/inlayHint', { textDocument, range: { start: { line: 0, character: 0 }, end: positionAt(text, text.length) } });
        await client.request('textDocument/codeLens', { textDocument });
        await client.request('textDocument/codeAction', { textDocument, range: { start: deepPosition, end: deepPosition }, context: { diagnostics } });
        await client.close(uri);
      });

      it(`a state file nested ${depth} levels: diagnostics published, navigation and every feature answer`, async () => {
        const uri = `file:///depth/s${depth}.state.json`;
        const text = deepState(depth);
        const diagnostics = await client.open(uri, text);
        assertNestingDiagnostic(diagnostics, text);
        const textDocument = { uri };
        const dependency = positionAt(text, text.indexOf('urn:pulumi', text.indexOf('"dependencies"')) + 3);
        const definition = await client.request<unknown, unknown>('textDocument/definition', { textDocument, position: dependency });
        assert.ok(definition, 'go to definition found nothing for the shallow dependency');
        const deepPosition = positionAt(text, text.lastIndexOf('['));
        await client.request('textDocument/hover', { textDocument, position: deepPosition });
        await client.request('textDocument/hover', { textDocument, position: dependency });
        await client.request('textDocument/completion', { textDocument, position: deepPosition });
        await client.request('textDocument/documentSymbol', { textDocument });
        await client.request('textDocument/references', { textDocument, position: dependency, context: { includeDeclaration: true } });
        await client.request('textDocument/inlayHint', { textDocument, range: { start: { line: 0, character: 0 }, end: positionAt(text, text.length) } });
        await client.request('textDocument/codeLens', { textDocument });
        await client.request('textDocument/codeAction', { textDocument, range: { start: deepPosition, end: deepPosition }, context: { diagnostics } });
        await client.close(uri);
      });
    }

    for (const broken of [false, true]) {
      it(`an edit inside one record of a deployment that nests it 20,000 levels deep${broken ? ', leaving it broken' : ''}`, async () => {
        const deployment = (outputs: string) =>
          `{"version":3,"deployment":{"manifest":{"time":"2024-01-01T00:00:00Z","magic":"","version":""},"resources":[\n` +
          `{"urn":"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev","type":"pulumi:pulumi:Stack","custom":false},\n` +
          `{"urn":"urn:pulumi:dev::p::aws:s3/bucket:Bucket::b","type":"aws:s3/bucket:Bucket","custom":true,"outputs":{"deep":${outputs}}}\n]}}\n`;
        const uri = `file:///depth/edit${broken ? 'broken' : ''}.state.json`;
        await client.open(uri, deployment('1'));
        const text = deployment('['.repeat(20_000) + (broken ? '' : ']'.repeat(20_000)));
        const diagnostics = await client.change(uri, text);
        assertNestingDiagnostic(diagnostics, text);
        await client.request('textDocument/hover', { textDocument: { uri }, position: positionAt(text, text.indexOf('aws:s3') + 2) });
        await client.close(uri);
      });
    }

    it(`a document nested exactly ${MAX_NESTING_DEPTH} levels is analysed in full, with no nesting diagnostic`, async () => {
      const quota = deepQuota(MAX_NESTING_DEPTH - 3, true);
      const quotaDiagnostics = await client.open('file:///depth/bound.quota.jsonc', quota, 'jsonc');
      assert.ok(!quotaDiagnostics.some((d) => /nested deeper/.test(String(d.message))));
      const state = deepState(MAX_NESTING_DEPTH - 2);
      const stateDiagnostics = await client.open('file:///depth/bound.state.json', state);
      assert.ok(!stateDiagnostics.some((d) => /nested deeper/.test(String(d.message))), JSON.stringify(stateDiagnostics));
    });
  });
});
