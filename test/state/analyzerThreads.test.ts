/**
 * Small state documents are analysed on the server's thread, large ones in the worker: a document
 * that grows past the limit and shrinks back gets, at every version, the analysis of its text,
 * whichever side holds it.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Diagnostic } from '../../shared/diagnostics';
import { analyzeState } from '../../shared/state/analyze';
import { EditLog } from '../../server/state/editLog';
import { StateAnalyzer } from '../../server/state/stateAnalyzer';
import { generateState } from '../bench/generate';

const summary = (diagnostics: Diagnostic[]) => diagnostics.map((d) => [d.code, d.message, d.range]);
const endOf = (text: string) => {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
};

describe('state analysis: this thread for small documents, the worker for large ones', function () {
  this.timeout(60_000);

  it('gives every version the analysis of its own text across the limit, both ways', async () => {
    const log = new EditLog();
    const logged: string[] = [];
    const script = join(__dirname, '..', '..', 'dist', 'server', 'stateWorker.js');
    // A property the schema does not allow, so there is something to report on either side.
    const small = generateState({ resources: 3, seed: 5 }).replace('"type"', '"colour": 1, "type"');
    const limit = small.length + 100;
    const analyzer = new StateAnalyzer(log, (message) => logged.push(message), script, limit);
    const document = log.create('file:///w/grows.state.json', 'json', 1, small);
    const expect = async (version: string) => {
      const analysis = await analyzer.analyzeDocument(document, 'pulumi');
      assert.deepEqual(summary(analysis.diagnostics), summary(analyzeState(document.getText(), { stateSchema: 'pulumi' }).diagnostics), version);
      return analysis;
    };
    const smallAnalysis = await expect('small, on this thread');
    assert.ok(smallAnalysis.diagnostics.length > 0, 'the generated problems are reported');

    const large = generateState({ resources: 40, seed: 6 }).replace('"type"', '"colour": 1, "type"');
    assert.ok(large.length > limit);
    log.update(document, [{ range: { start: { line: 0, character: 0 }, end: endOf(document.getText()) }, text: large }], 2);
    await expect('grown past the limit, in the worker');
    log.update(document, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: ' ' }], 3);
    await expect('a keystroke in the worker');
    log.update(document, [{ range: { start: { line: 0, character: 0 }, end: endOf(document.getText()) }, text: small }], 4);
    await expect('shrunk back, on this thread');
    log.update(document, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: '"broken' }], 5);
    await expect('a keystroke on this thread that breaks the syntax');
    analyzer.forget(document.uri);
    assert.deepEqual(logged, []);
  });
});
