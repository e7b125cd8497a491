/** A file with broken syntax: one mistake gives one diagnostic, and a record it cuts through gets no structural code. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import { ROOT } from '../helpers/processes';

const webshop = readFileSync(resolve(ROOT, 'examples/webshop.state.json'), 'utf8');

describe('state files with broken syntax', () => {
  it('a file cut inside a string gets one syntax diagnostic, at the cut, and nothing else', () => {
    const cut = webshop.indexOf('"', webshop.indexOf('"type"', webshop.indexOf('"resources"') + 200) + 7) + 3;
    const { diagnostics } = analyzeState(webshop.slice(0, cut));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message]),
      [['syntax', 'JSON syntax error: unterminated string']],
    );
  });

  it('a file cut at every 97th character of its records gets one syntax diagnostic, and no structural code in the record cut', () => {
    for (let cut = webshop.indexOf('"urn"') + 1; cut < webshop.length - 1; cut += 97) {
      const text = webshop.slice(0, cut);
      const { diagnostics } = analyzeState(text);
      const syntax = diagnostics.filter((d) => d.code === 'syntax');
      assert.equal(syntax.length, 1, `cut at ${cut}: ${JSON.stringify(syntax.map((d) => d.message))}`);
      // Whatever else is reported lies in complete records, before the one the cut goes through (if any).
      const lastRecordStart = text.lastIndexOf('\n            {');
      const recordComplete = text.slice(lastRecordStart).includes('\n            }');
      const lines = text.slice(0, recordComplete ? text.length : lastRecordStart).split('\n').length - 1;
      for (const d of diagnostics.filter((d) => d.code !== 'syntax')) assert.ok(d.range.start.line < lines, `cut at ${cut}: ${d.code} at line ${d.range.start.line + 1}: ${d.message}`);
    }
  });

  it("a missing comma inside a record keeps the other records' findings", () => {
    const records = ['{ "urn": "urn:pulumi:dev::p::x:y:A::a", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::p::x:y:A::gone"] }', '{ "urn": "urn:pulumi:dev::p::x:y:A::b" "type": "x:y:A" }'];
    const text = `{ "version": 3, "deployment": { "manifest": { "time": "2024-01-01T00:00:00Z", "magic": "", "version": "v3.0.0" }, "resources": [\n${records.join(',\n')}\n] } }`;
    const codes = analyzeState(text)
      .diagnostics.filter((d) => d.range.start.line > 0)
      .map((d) => `${d.range.start.line}:${d.code}`);
    assert.deepEqual(codes, ['1:missing-reference', '2:syntax']);
  });
});
