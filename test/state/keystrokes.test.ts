/**
 * Issue 7 through the real server: edits arrive as incremental didChange ranges, the server
 * forwards only the edits to its analysis worker, and every published version carries exactly
 * the diagnostics a fresh analysis (and so the CLI) gives for the same text. Covers several
 * changes in one notification, bursts of versions, syntax-breaking edits inside one record,
 * whole-text replacement, and reopening.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic, Hover, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { analyzeState } from '../../shared/state/analyze';
import { generateState } from '../bench/generate';
import { LspTestClient, positionAt } from '../lsp/client';

/** A range change replacing text[offset, offset+length) with `insert`, and the text after it. */
function rangeChange(text: string, offset: number, length: number, insert: string): { change: TextDocumentContentChangeEvent; text: string } {
  return {
    change: { range: { start: positionAt(text, offset), end: positionAt(text, offset + length) }, text: insert },
    text: text.slice(0, offset) + insert + text.slice(offset + length),
  };
}

const summary = (diagnostics: Array<Pick<Diagnostic, 'code' | 'message' | 'range'>>) => diagnostics.map((d) => [d.code, d.message, d.range]);

describe('state keystrokes through the server and its analysis worker', function () {
  this.timeout(60_000);
  let client: LspTestClient;
  const uri = 'file:///work/test/keystrokes.state.json';
  let text = generateState({ resources: 300, seed: 11, problemsPerThousand: 20 });

  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => client?.stop());

  const expectFresh = (published: Diagnostic[]) => assert.deepEqual(summary(published), summary(analyzeState(text).diagnostics));

  it('publishes a fresh analysis for each version of a typed edit, a burst and a multi-change notification', async () => {
    expectFresh(await client.open(uri, text));

    // One character inside a record (the incremental path in the worker).
    const name = text.indexOf('"name": "res-', text.length >> 1) + '"name": "res-'.length;
    let step = rangeChange(text, name, 0, 'x');
    text = step.text;
    expectFresh(await client.change(uri, [step.change]));

    // A property that is not allowed, typed into another record.
    const type = text.indexOf('"type"', text.length >> 2);
    step = rangeChange(text, type, 0, '"colour": 1, ');
    text = step.text;
    const withUnknown = await client.change(uri, [step.change]);
    expectFresh(withUnknown);
    assert.ok(withUnknown.some((d) => d.code === 'unknown-property' && String(d.message).includes('"colour"')));

    // Two changes in one notification, each range relative to the text after the previous one.
    const first = rangeChange(text, 10, 0, ' ');
    const second = rangeChange(first.text, first.text.length - 3, 0, '\n');
    text = second.text;
    expectFresh(await client.change(uri, [first.change, second.change]));
  });

  it('stays exact across a syntax-breaking edit inside a record and its repair', async () => {
    const custom = text.indexOf('"custom"', text.length >> 1);
    let step = rangeChange(text, custom, 1, '');
    text = step.text;
    const broken = await client.change(uri, [step.change]);
    expectFresh(broken);
    assert.ok(
      broken.some((d) => d.code === 'syntax'),
      'the syntax error is reported',
    );

    step = rangeChange(text, custom, 0, '"');
    text = step.text;
    const repaired = await client.change(uri, [step.change]);
    expectFresh(repaired);
    assert.ok(!repaired.some((d) => d.code === 'syntax'));
  });

  it('answers hover on the latest text while edits stream in', async () => {
    const urnAt = text.indexOf('"urn": "urn:pulumi:', text.length >> 1) + '"urn": "'.length;
    const hover = await client.request<unknown, Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionAt(text, urnAt + 3) });
    const urn = text.slice(urnAt, text.indexOf('"', urnAt));
    assert.ok(hover && JSON.stringify(hover.contents).includes(urn), JSON.stringify(hover));
  });

  it('ends a burst of versions with the exact diagnostics of the last one', async () => {
    const versions: Array<TextDocumentContentChangeEvent[]> = [];
    for (let i = 0; i < 8; i++) {
      const at = text.indexOf('"name": "res-', (text.length * (i + 1)) / 10) + '"name": "res-'.length;
      const step = rangeChange(text, at, 0, String(i));
      text = step.text;
      versions.push([step.change]);
    }
    // Send them back to back, waiting only for the last version's diagnostics.
    for (const changes of versions.slice(0, -1)) void client.change(uri, changes).catch(() => undefined);
    expectFresh(await client.change(uri, versions[versions.length - 1]));
  });

  it('takes a whole-text replacement, then edits on top of it, and a reopened document', async () => {
    text = generateState({ resources: 120, seed: 12, problemsPerThousand: 30 });
    expectFresh(await client.change(uri, text));
    const step = rangeChange(text, text.indexOf('"type"', 2000), 0, '"protect": "no", ');
    text = step.text;
    expectFresh(await client.change(uri, [step.change]));

    await client.close(uri);
    expectFresh(await client.open(uri, text));
  });
});
