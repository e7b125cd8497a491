/**
 * The state features through the real built server process (dist/server/server.js --stdio),
 * driven the way an editor drives them.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Command, CompletionList, Diagnostic, DocumentSymbol, Hover, Location, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { analyzeState } from '../../shared/state/analyze';
import { AnalyzeFromDiskNotification, DependentsRequest, SHOW_DEPENDENTS_COMMAND, type DependentsParams, type ShowDependentsArguments } from '../../shared/protocol';
import { LspTestClient, positionAt } from '../lsp/client';
import { FIXTURES } from './fixtures';

function applyLspEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offsetAt = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offsetAt(b.range.start) - offsetAt(a.range.start));
  for (const e of sorted) text = text.slice(0, offsetAt(e.range.start)) + e.newText + text.slice(offsetAt(e.range.end));
  return text;
}

const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8');
const positionOf = (text: string, needle: string, delta = 1) => positionAt(text, text.indexOf(needle) + delta);
const textIn = (text: string, range: Range) => {
  const lines = text.split('\n');
  return range.start.line === range.end.line ? lines[range.start.line].slice(range.start.character, range.end.character) : undefined;
};

describe('state language server (LSP over stdio)', function () {
  this.timeout(60_000);
  let client: LspTestClient;
  const uri = 'file:///work/test/references.state.json';
  const cleanUri = 'file:///work/test/clean.state.json';

  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => client?.stop());

  it('publishes on open exactly the diagnostics the shared analysis (and so the CLI) computes', async () => {
    const text = fixture('references');
    const diagnostics = await client.open(uri, text);
    const expected = analyzeState(text).diagnostics;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message, d.range]),
      expected.map((d) => [d.code, d.message, d.range]),
    );
    const cycle = diagnostics.find((d) => d.code === 'dependency-cycle')!;
    assert.equal(cycle.relatedInformation?.length, 2, 'related information points at every edge');
  });

  it('re-publishes after a change, and a quick fix applied through codeAction removes the diagnostic', async () => {
    const text = fixture('references');
    const diagnostics = client.lastDiagnostics(uri)!.diagnostics as Diagnostic[];
    const missing = diagnostics.find((d) => d.code === 'missing-reference' && String(d.message).includes('Gone::old '))!;
    const actions = await client.request<unknown, CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: missing.range,
      context: { diagnostics: [missing] },
    });
    const remove = actions.find((a) => a.title.startsWith('Remove the reference'))!;
    assert.ok(remove, 'remove fix offered');
    const fixed = applyLspEdits(text, (remove.edit as WorkspaceEdit).changes![uri]);
    JSON.parse(fixed);
    const after = await client.change(uri, fixed);
    assert.ok(!after.some((d) => String(d.message).includes('Gone::old ')));
    assert.equal(after.length, diagnostics.length - 1);
  });

  it('answers definition, references, hover, rename (incl. provider refs), symbols, completion and code lens', async () => {
    const text = fixture('clean-export');
    assert.deepEqual(await client.open(cleanUri, text), []);
    const bucketUrn = 'urn:pulumi:dev::shop::my:web:Site$aws:s3/bucket:Bucket::assets';
    const usePosition = positionOf(text, `"dependencies": [ "${bucketUrn}`, '"dependencies": [ "'.length + 3);

    const definition = await client.request<unknown, Location[]>('textDocument/definition', { textDocument: { uri: cleanUri }, position: usePosition });
    assert.equal(definition.length, 1);
    assert.deepEqual(definition[0].range.start, positionOf(text, `"urn": "${bucketUrn}`, '"urn": "'.length));

    const references = await client.request<unknown, Location[]>('textDocument/references', {
      textDocument: { uri: cleanUri },
      position: usePosition,
      context: { includeDeclaration: true },
    });
    assert.equal(references.length, 4, 'definition, dependency, property dependency, resource reference in inputs');

    const hover = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri: cleanUri }, position: usePosition });
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /type: `aws:s3\/bucket:Bucket`/);
    assert.match(value, /id: `assets-123`/);
    assert.match(value, /parent chain: site → shop-dev/);
    assert.match(value, /dependents: 1/);

    const providerUrn = 'urn:pulumi:dev::shop::pulumi:providers:aws::default';
    const rename = await client.request<unknown, WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: cleanUri },
      position: positionOf(text, `"urn": "${providerUrn}`, '"urn": "'.length + 2),
      newName: 'urn:pulumi:dev::shop::pulumi:providers:aws::eu',
    });
    const renamed = applyLspEdits(text, rename.changes![cleanUri]);
    assert.equal(renamed.split('pulumi:providers:aws::eu::prov-1').length - 1, 2, 'both provider references keep their id');
    assert.ok(!renamed.includes(`${providerUrn}"`) && !renamed.includes(`${providerUrn}::`));
    assert.deepEqual(analyzeState(renamed).diagnostics, []);

    const symbols = await client.request<unknown, DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: cleanUri } });
    const stack = symbols.find((s) => s.name === 'shop-dev')!;
    assert.deepEqual(
      stack.children!.map((c) => c.name),
      ['site'],
    );
    assert.deepEqual(
      stack.children![0].children!.map((c) => c.name),
      ['assets', 'policy'],
    );

    const lenses = await client.request<unknown, Array<{ command: Command }>>('textDocument/codeLens', { textDocument: { uri: cleanUri } });
    const siteUrn = 'urn:pulumi:dev::shop::my:web:Site::site';
    const siteLens = lenses.find((l) => (l.command.arguments?.[0] as ShowDependentsArguments | undefined)?.urn === siteUrn);
    assert.equal(siteLens?.command.title, '2 dependents', 'site has two children');
    // Clicking the lens asks the server where its dependents refer to the urn.
    assert.equal(siteLens.command.command, SHOW_DEPENDENTS_COMMAND);
    const [show] = siteLens.command.arguments as ShowDependentsArguments[];
    assert.deepEqual(show.position, positionOf(text, `"urn": "${show.urn}`, '"urn": "'.length));
    const dependents = await client.request<DependentsParams, Location[]>(DependentsRequest.method, { uri: cleanUri, urn: show.urn });
    assert.equal(dependents.length, 2);
    for (const dependent of dependents) assert.equal(textIn(text, dependent.range), show.urn);
    // An alias names a record's own former urn: it is not a dependent.
    const aliased = 'urn:pulumi:dev::shop::aws:s3/bucketPolicy:BucketPolicy::policy';
    const withAliasDefined = text.replace(`"urn": "${bucketUrn}"`, `"urn": "${aliased}"`).split(bucketUrn).join(aliased);
    await client.change(cleanUri, withAliasDefined);
    const aliasedReferences = await client.request<unknown, Location[]>('textDocument/references', {
      textDocument: { uri: cleanUri },
      position: positionOf(withAliasDefined, `"urn": "${aliased}`, '"urn": "'.length + 2),
      context: { includeDeclaration: false },
    });
    const viaDependents = await client.request<DependentsParams, Location[]>(DependentsRequest.method, { uri: cleanUri, urn: aliased });
    assert.equal(aliasedReferences.length, viaDependents.length + 1, 'every reference but the alias');
    assert.ok(viaDependents.every((d) => textIn(withAliasDefined, d.range) === aliased));
    await client.change(cleanUri, text);

    const completionAt = positionOf(text, '"parent": "urn:pulumi:dev::shop::my:web:Site::site"', '"parent": "'.length);
    const completion = await client.request<unknown, CompletionList>('textDocument/completion', { textDocument: { uri: cleanUri }, position: completionAt });
    assert.ok(completion.items.some((i) => i.label === 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev'));

    const workspaceSymbols = await client.request<unknown, Array<{ name: string }>>('workspace/symbol', { query: 'assets' });
    assert.ok(workspaceSymbols.some((s) => s.name === 'assets'));
  });

  it('analyses a file the editor cannot sync from disk and says which features are unavailable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-disk-'));
    const file = join(dir, 'big.state.json');
    writeFileSync(file, fixture('providers'));
    const diskUri = pathToFileURL(file).toString();
    const published = client.waitForDiagnostics(diskUri);
    await client.notify(AnalyzeFromDiskNotification.method, { uri: diskUri });
    const { diagnostics } = await published;
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      analyzeState(fixture('providers')).diagnostics.map((d) => d.code),
    );
    type Status = { uri: string; fromDisk?: boolean; unavailable?: Array<{ feature: string }> };
    const statusOf = () => client.notifications.map((n) => n.params as Status).find((s) => n(s) && s.uri === diskUri);
    const n = (s: Status | undefined) => s !== undefined && s !== null;
    // The status follows the diagnostics; wait for it to arrive.
    let mine = statusOf();
    for (let i = 0; !mine && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      mine = statusOf();
    }
    assert.ok(mine, 'a documentStatus notification for the file');
    assert.equal(mine.fromDisk, true);
    assert.ok(mine.unavailable!.some((u) => u.feature === 'hover'));
  });
});
