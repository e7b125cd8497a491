/**
 * The edit log the server plugs into TextDocuments: the edits it records rebuild the new text
 * from the old one, a whole-text change makes it ask for the whole text, and a document whose
 * edits nobody takes does not grow a log without bound.
 */
import { strict as assert } from 'node:assert';
import { EditLog } from '../../server/state/editLog';
import { applyEditsInSequence } from '../../shared/edits';
import { MainThreadAnalyzer } from '../../server/state/documentAnalyzer';
import { EXPORT_WITH_MISSING_PARENT } from '../helpers/stateSamples';

const insertAt = (line: number, character: number, text: string) => ({ range: { start: { line, character }, end: { line, character } }, text });

describe('state: edit log for the analysis worker', () => {
  it('records range changes (several per notification) as edits that rebuild the text', () => {
    const log = new EditLog();
    const document = log.create('file:///a.state.json', 'json', 1, '{\n  "a": 1\n}\n');
    assert.equal(log.take(document.uri), null, 'a new document is sent whole');
    const before = document.getText();
    log.update(document, [insertAt(1, 7, '2'), { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '{ ' }], 2);
    const edits = log.take(document.uri);
    assert.ok(edits);
    assert.equal(applyEditsInSequence(before, edits), document.getText());
    assert.deepEqual(log.take(document.uri), [], 'taking starts a new log');
  });

  it('asks for the whole text after a whole-text change, and after too many untaken edits', () => {
    const log = new EditLog();
    const document = log.create('file:///b.quota.jsonc', 'jsonc', 1, 'x');
    log.take(document.uri);
    log.update(document, [{ text: 'replaced' }], 2);
    assert.equal(log.take(document.uri), null);
    for (let version = 3; version < 3 + 600; version++) log.update(document, [insertAt(0, 0, 'y')], version);
    assert.equal(log.take(document.uri), null);
  });
});

describe('state: one parse per document version on the server thread', () => {
  it('hands navigation the snapshot its own analysis parsed, and nothing for another text', async () => {
    const log = new EditLog();
    const analyzer = new MainThreadAnalyzer(log);
    const document = log.create('file:///c.state.json', 'json', 1, EXPORT_WITH_MISSING_PARENT);
    const analysis = await analyzer.analyzeDocument(document, 'pulumi');
    assert.deepEqual(
      analysis.diagnostics.map((d) => d.code),
      ['missing-reference'],
    );
    const snapshot = analyzer.snapshotOf(document.uri, document.getText());
    assert.ok(snapshot, 'the analysed text has a snapshot');
    assert.equal(snapshot.text, document.getText());
    assert.equal(snapshot.structure.resources.length, (JSON.parse(EXPORT_WITH_MISSING_PARENT) as { deployment: { resources: unknown[] } }).deployment.resources.length);
    assert.equal(analyzer.snapshotOf(document.uri, `${document.getText()} `), undefined, 'a different text is parsed afresh');
    analyzer.forget(document.uri);
    assert.equal(analyzer.snapshotOf(document.uri, document.getText()), undefined, 'forgotten with the document');
  });
});
