/** `quota-state check --format json` reports exactly the state analysis the server publishes. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import { runQuotaState } from '../helpers/processes';
import { FIXTURES, fixtureNames } from './fixtures';

describe('quota-state check on state files', () => {
  it('prints the same codes, severities, messages and ranges as the analysis, for every fixture', () => {
    const files = fixtureNames().map((name) => join(FIXTURES, `${name}.state.json`));
    const result = runQuotaState(['check', '--format', 'json', ...files]);
    assert.equal(result.status, 1, `errors present → exit 1; stderr: ${result.stderr}`);
    const reports = JSON.parse(result.stdout) as Array<{ file: string; diagnostics: Array<{ code: string; severity: string; message: string; range: unknown }> }>;
    assert.equal(reports.length, files.length);
    for (const file of files) {
      const report = reports.find((r) => file.endsWith(r.file.replace(/^\.\//, '')) || r.file === file);
      assert.ok(report, `report for ${file}`);
      const expected = analyzeState(readFileSync(file, 'utf8')).diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range }));
      assert.deepEqual(
        report.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range })),
        expected,
        file,
      );
    }
  });

  it('exits 0 on a clean export', () => {
    const result = runQuotaState(['check', join(FIXTURES, 'clean-export.state.json')]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });
});
