/**
 * Forgejo's models/quota tests (v11.0.3 and v15.0.3) through the built `quota-state evaluate`:
 * every case is an account of an instance file, asked with --subject. The version comes from
 * the file's forgejoVersion for one half of the files and from --forgejo-version for the other.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseInstanceKeys, casesAsInstance } from '../fixtures/forgejoModelCases';
import { runQuotaState } from '../helpers/processes';

describe("Forgejo's models/quota tests through quota-state evaluate", () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-forgejo-cases-'));
  });

  caseInstanceKeys().forEach(({ version, defaultTotal }, index) => {
    const viaFile = index % 2 === 0;
    it(`v${version} cases with TOTAL ${defaultTotal} (version from ${viaFile ? 'the file' : '--forgejo-version'})`, () => {
      const { instance, accounts } = casesAsInstance(version, defaultTotal, viaFile ? version : undefined);
      const file = join(scratch, `cases-${index}.quota.jsonc`);
      writeFileSync(file, JSON.stringify(instance));
      const report = JSON.parse(runQuotaState(['evaluate', file, '--format', 'json', ...(viaFile ? [] : ['--forgejo-version', `${version}+gitea-1.22.0`])]).stdout);
      assert.equal(report.forgejo.generation, version.startsWith('11.') ? 1 : 2);
      const byName = new Map<string, { checks: Record<string, boolean> }>(report.accounts.map((a: { name: string; checks: Record<string, boolean> }) => [a.name, a]));
      const wrong = accounts.filter((a) => byName.get(a.account)?.checks[a.case.subject] !== a.expected).map((a) => `${a.case.name}: expected ${a.expected}`);
      assert.deepEqual(wrong, []);
      assert.ok(accounts.length > 0);
    });
  });

  it('writes an int64 limit of the file with all its digits in JSON', () => {
    const file = join(scratch, 'int64.quota.jsonc');
    writeFileSync(
      file,
      '{ "rules": [{ "name": "max", "limit": 9223372036854775807, "subjects": ["size:all"] }], "groups": [{ "name": "g", "rules": ["max"] }], "defaultGroups": ["g"], "usage": { "dora": {} } }',
    );
    const result = runQuotaState(['evaluate', file, '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /"limit": 9223372036854775807,/);
  });

  it('refuses a --forgejo-version of a Gitea server: it has no quota API', () => {
    const file = join(scratch, 'gitea.quota.jsonc');
    writeFileSync(file, '{ "usage": { "alice": {} } }');
    const result = runQuotaState(['evaluate', file, '--forgejo-version', '1.22.0']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /Gitea has no quota API/);
  });
});
