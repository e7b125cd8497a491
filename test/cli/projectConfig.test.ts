/** `.quota-state.json`: read by the CLI and by the language server, with the documented precedence. */
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseProjectConfig, ProjectConfigError } from '../../shared/projectConfig';
import { LspTestClient } from '../lsp/client';
import { ROOT, runQuotaState } from '../helpers/processes';

interface JsonReport {
  file: string;
  skipped?: boolean;
  diagnostics: Array<{ code: string; severity: string }>;
}

function severities(report: JsonReport): Record<string, string[]> {
  const byCode: Record<string, string[]> = {};
  for (const d of report.diagnostics) (byCode[d.code] ??= []).push(d.severity);
  return byCode;
}

describe('project configuration .quota-state.json', () => {
  let project: string;
  let state: string;
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'quota-state-config-'));
    mkdirSync(join(project, 'infra', 'stacks'), { recursive: true });
    writeFileSync(join(project, '.quota-state.json'), JSON.stringify({ severity: { 'forward-reference': 'warning', 'missing-reference': 'off' }, files: { state: ['infra/**/*.json'] } }, null, 2));
    state = join(project, 'infra', 'stacks', 'webshop.state.json');
    copyFileSync(resolve(ROOT, 'examples/webshop.state.json'), state);
    // Neither its name nor its content says "state": only the project's glob does.
    writeFileSync(join(project, 'infra', 'stacks', 'notes.json'), '{ "hello": 1 }');
    writeFileSync(join(project, 'other.json'), '{ "hello": 1 }');
  });

  it('the CLI applies the nearest configuration above each file: severities and globs', () => {
    const result = runQuotaState(['check', '--format', 'json', 'infra/stacks/webshop.state.json', 'infra/stacks/notes.json', 'other.json'], { cwd: project });
    assert.equal(result.status, 1, result.stderr);
    const [webshop, notes, other] = JSON.parse(result.stdout) as JsonReport[];
    assert.deepEqual(severities(webshop), { 'forward-reference': ['warning', 'warning'], 'unknown-provider': ['error'] });
    assert.deepEqual(severities(notes), { schema: ['error'] }, 'the glob made it a state file');
    assert.equal(other.skipped, true, 'outside the glob and not state-like: skipped');
  });

  it('--severity wins over the file, code by code', () => {
    const result = runQuotaState(['check', '--format', 'json', '--severity', 'forward-reference=error', '--severity', 'unknown-provider=hint', 'infra/stacks/webshop.state.json'], { cwd: project });
    assert.equal(result.status, 1);
    const [webshop] = JSON.parse(result.stdout) as JsonReport[];
    assert.deepEqual(severities(webshop), { 'forward-reference': ['error', 'error'], 'unknown-provider': ['hint'] });
    const clean = runQuotaState(['check', '--severity', 'forward-reference=off,unknown-provider=warning', 'infra/stacks/webshop.state.json'], { cwd: project });
    assert.equal(clean.status, 0, 'no error left → exit 0');
    const wrong = runQuotaState(['check', '--severity', 'forward-refrence=off', 'infra/stacks/webshop.state.json'], { cwd: project });
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /unknown diagnostic code "forward-refrence"/);
  });

  it('stateSchema in the file sets how state files are read, and --schema wins over it', () => {
    const strict = mkdtempSync(join(tmpdir(), 'quota-state-config-schema-'));
    writeFileSync(join(strict, 'record.state.json'), JSON.stringify({ urn: 'urn:pulumi:dev::p::t:index:T::r', type: 't:index:T', custom: true, created: '2024-01-01T00:00:00Z' }));
    const codesOf = (result: { stdout: string }) => (JSON.parse(result.stdout) as JsonReport[])[0].diagnostics.map((d) => `${d.code}:${d.severity}`);
    assert.deepEqual(codesOf(runQuotaState(['check', '--format', 'json', 'record.state.json'], { cwd: strict })), ['newer-engine-property:information']);
    writeFileSync(join(strict, '.quota-state.json'), '{ "stateSchema": "seed-v3" }');
    const seeded = runQuotaState(['check', '--format', 'json', 'record.state.json'], { cwd: strict });
    assert.equal(seeded.status, 1);
    assert.deepEqual(codesOf(seeded), ['unknown-property:error']);
    const overridden = runQuotaState(['check', '--format', 'json', '--schema', 'pulumi', 'record.state.json'], { cwd: strict });
    assert.equal(overridden.status, 0);
    assert.deepEqual(codesOf(overridden), ['newer-engine-property:information']);
    const wrong = runQuotaState(['check', '--schema', 'pulumi3', 'record.state.json'], { cwd: strict });
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /--schema must be pulumi or seed-v3, not "pulumi3"/);
    writeFileSync(join(strict, '.quota-state.json'), '{ "stateSchema": "strict" }');
    const badFile = runQuotaState(['check', 'record.state.json'], { cwd: strict });
    assert.equal(badFile.status, 2);
    assert.match(badFile.stderr, /"stateSchema" must be "pulumi" or "seed-v3"/);
  });

  it('a broken configuration is a located input error (exit 2, no usage text)', () => {
    const broken = mkdtempSync(join(tmpdir(), 'quota-state-config-bad-'));
    writeFileSync(join(broken, '.quota-state.json'), '{\n  "severity": { "unused-rul": "off" }\n}\n');
    writeFileSync(join(broken, 'a.quota.jsonc'), '{ "rules": [], "groups": [] }');
    const result = runQuotaState(['check', 'a.quota.jsonc'], { cwd: broken });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /\.quota-state\.json:2:17: unknown diagnostic code "unused-rul"; did you mean "unused-rule"\?/);
    assert.doesNotMatch(result.stderr, /Usage:/);
  });

  it('parses comments, rejects unknown keys and levels with their position, and passes stateSchema through', () => {
    const config = parseProjectConfig('/p/.quota-state.json', '{ // team settings\n "stateSchema": "pulumi", "files": { "quota": ["q/*.jsonc"] } }');
    assert.equal(config.stateSchema, 'pulumi');
    assert.deepEqual(config.files, { quota: ['q/*.jsonc'] });
    assert.equal(config.folder, '/p');
    assert.throws(
      () => parseProjectConfig('/p/.quota-state.json', '{ "severities": {} }'),
      (e: ProjectConfigError) => e.line === 1 && e.column === 3 && /unknown key "severities"/.test(e.reason),
    );
    assert.throws(() => parseProjectConfig('/p/.quota-state.json', '{ "severity": { "syntax": "fatal" } }'), /must be one of error, warning, information, hint, off/);
  });

  describe('in the language server', () => {
    let client: LspTestClient;
    before(async () => {
      // The editor setting says error for both codes; the project file wins in its folder.
      client = await LspTestClient.start({
        initializationOptions: { settings: { diagnostics: { severity: { 'forward-reference': 'error', 'unknown-provider': 'information' } } } },
      });
    });
    after(async () => client?.stop());

    it('the project file wins over the setting in its folder; the setting applies to codes the file leaves alone', async () => {
      const diagnostics = await client.open(pathToFileURL(state).href, readFileSync(state, 'utf8'));
      const byCode: Record<string, number[]> = {};
      for (const d of diagnostics) (byCode[String(d.code)] ??= []).push(d.severity!);
      assert.deepEqual(byCode, { 'forward-reference': [2, 2], 'unknown-provider': [3] });
    });

    it('stateSchema in the project file wins over the quotaState.state.schema setting in its folder', async () => {
      const strict = mkdtempSync(join(tmpdir(), 'quota-state-config-lsp-schema-'));
      writeFileSync(join(strict, '.quota-state.json'), '{ "stateSchema": "seed-v3" }');
      const record = join(strict, 'record.state.json');
      writeFileSync(record, JSON.stringify({ urn: 'urn:pulumi:dev::p::t:index:T::r', type: 't:index:T', custom: true, created: '2024-01-01T00:00:00Z' }));
      const lenient = await LspTestClient.start({ initializationOptions: { settings: { state: { schema: 'pulumi' } } } });
      try {
        const diagnostics = await lenient.open(pathToFileURL(record).href, readFileSync(record, 'utf8'));
        assert.deepEqual(
          diagnostics.map((d) => `${d.code}:${d.severity}`),
          ['unknown-property:1'],
        );
        lenient.assertNoLoggedErrors();
      } finally {
        await lenient.stop();
      }
    });

    it('the project globs decide the kind in the editor too', async () => {
      const notes = join(project, 'infra', 'stacks', 'notes.json');
      const diagnostics = await client.open(pathToFileURL(notes).href, readFileSync(notes, 'utf8'));
      assert.deepEqual(
        diagnostics.map((d) => d.code),
        ['schema'],
      );
    });
  });
});
