/**
 * Golden fixtures: each `test/fixtures/state/<name>.state.json` has its expected diagnostics
 * beside it in `<name>.expect.json` (1-based line, code, severity, the underlined text, the
 * message and the lines of related information), and the schema mode it is read in (`schema`,
 * default `pulumi`). Together they cover every state code of the registry and every recognised shape.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import { FIXTURES, fixtureNames, STATE_CODES } from './fixtures';
import { fixGoldenInputs, readWants, stateDocument } from '../helpers/services';
import { defaultSeverity, DEFAULT_STATE_SCHEMA_MODE, type StateCode, type StateSchemaMode } from '../../shared/state/codes';

interface Expected {
  line: number;
  code: string;
  severity: string;
  text?: string;
  message: string;
  relatedLines?: number[];
}

describe('state golden fixtures', () => {
  const seenCodes = new Set<string>();
  const seenShapes = new Set<string>();

  for (const name of fixtureNames()) {
    it(`${name}: exactly the expected diagnostics`, () => {
      const text = readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8');
      const expected = JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8')) as { shape: string; schema?: StateSchemaMode; diagnostics: Expected[] };
      const mode = expected.schema ?? DEFAULT_STATE_SCHEMA_MODE;
      const analysis = analyzeState(text, { stateSchema: mode });
      const lines = text.split('\n');
      const actual = analysis.diagnostics.map((d) => {
        const { start, end } = d.range;
        const out: Expected = {
          line: start.line + 1,
          code: d.code,
          severity: d.severity,
          text: start.line === end.line ? lines[start.line].slice(start.character, end.character) : undefined,
          message: d.message,
        };
        if (d.relatedInformation) out.relatedLines = d.relatedInformation.map((r) => r.range.start.line + 1);
        return out;
      });
      assert.equal(analysis.shape, expected.shape);
      assert.deepEqual(JSON.parse(JSON.stringify(actual)), expected.diagnostics);
      for (const d of analysis.diagnostics) {
        assert.equal(d.severity, defaultSeverity(d.code as StateCode, mode), `default severity of ${d.code} in ${mode} mode (from the code registry)`);
        seenCodes.add(d.code);
      }
      seenShapes.add(analysis.shape);
    });
  }

  it('the fixtures and the quick-fix golden files cover every code of the table, and the fixtures every shape', () => {
    for (const { file, kind } of fixGoldenInputs()) {
      if (kind.extension !== '.state.json') continue;
      for (const d of stateDocument(readWants(readFileSync(file, 'utf8')).text).analysis.diagnostics) seenCodes.add(d.code);
    }
    // `secret-undecryptable` needs the stack's key, which no fixture analysis has: its spec and test/state/secretsLsp.test.ts cover it.
    assert.deepEqual(
      STATE_CODES.filter((c) => !seenCodes.has(c) && c !== 'secret-undecryptable'),
      [],
    );
    assert.deepEqual(
      ['record', 'deployment', 'export', 'checkpoint', 'unknown'].filter((s) => !seenShapes.has(s)),
      [],
    );
  });
});
