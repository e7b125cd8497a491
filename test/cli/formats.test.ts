/** `quota-state check` as a process: each output format on the examples and fixtures. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { analyzeFile } from '../../shared/analyze';
import { EMPTY_FILE } from '../../shared/emptyFile';
import { APP_INI_CODES } from '../../shared/ini/codes';
import { APP_INI_RULES } from '../../shared/ini/rules';
import { QUOTA_CODES } from '../../shared/quota/codes';
import { QUOTA_DIAGNOSTIC_RULES } from '../../shared/quota/rules';
import { STATE_CODES } from '../../shared/state/codes';
import { STATE_RULES } from '../../shared/state/rules';
import { ROOT, runQuotaState } from '../helpers/processes';

const FILES = [
  'examples/webshop.state.json',
  'examples/demo.quota.jsonc',
  'test/fixtures/state/references.state.json',
  'test/fixtures/state/providers.state.json',
  'test/fixtures/state/records.state.json',
  'test/fixtures/quota/every-code.quota.jsonc',
];

function expectedDiagnostics(file: string) {
  return analyzeFile(file, readFileSync(resolve(ROOT, file), 'utf8')).diagnostics;
}

/** The official schema is draft-04; ajv reads it as draft-07 once `id` is spelt `$id` (no other draft-04-only keyword is used). */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
  delete schema.$schema;
  schema.$id = schema.id;
  delete schema.id;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

describe('quota-state check output formats (built CLI)', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-formats-'));
  });

  it('--format sarif is valid SARIF 2.1.0 with every code of every kind as rules and every diagnostic as a located result', () => {
    const result = runQuotaState(['check', '--format', 'sarif', ...FILES]);
    assert.equal(result.status, 1, result.stderr);
    const log = JSON.parse(result.stdout);
    const validate = sarifValidator();
    const valid: boolean = validate(log);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const run = log.runs[0];
    const rules = run.tool.driver.rules as Array<{ id: string; shortDescription: { text: string }; defaultConfiguration: { level: string } }>;
    const registry = [
      ...STATE_RULES.map((rule) => ['state', rule, STATE_CODES[rule.code].severity] as const),
      ...QUOTA_DIAGNOSTIC_RULES.map((rule) => ['quota', rule, QUOTA_CODES[rule.code].severity] as const),
      ...APP_INI_RULES.map((rule) => ['appIni', rule, APP_INI_CODES[rule.code].severity] as const),
    ];
    assert.equal(registry.length, Object.keys(STATE_CODES).length + Object.keys(QUOTA_CODES).length + Object.keys(APP_INI_CODES).length);
    assert.deepEqual(
      rules.map((r) => [r.id, r.shortDescription.text, r.defaultConfiguration.level]),
      [
        ...registry.map(([kind, rule, severity]) => [`${kind}/${rule.code}`, rule.doc, { error: 'error', warning: 'warning', information: 'note', hint: 'note' }[severity]]),
        ['file/empty-file', EMPTY_FILE.doc, 'error'],
      ],
    );
    const expected = FILES.flatMap((file) => expectedDiagnostics(file).map((d) => ({ file, d })));
    assert.equal(run.results.length, expected.length);
    for (const [i, { file, d }] of expected.entries()) {
      const r = run.results[i];
      const kind = file.includes('quota') ? 'quota' : 'state';
      assert.equal(r.ruleId, `${kind}/${d.code}`);
      assert.equal(rules[r.ruleIndex].id, r.ruleId);
      assert.equal(r.message.text, d.message);
      const location = r.locations[0].physicalLocation;
      assert.equal(location.artifactLocation.uri, file);
      assert.equal(location.artifactLocation.uriBaseId, '%SRCROOT%');
      assert.deepEqual(location.region, {
        startLine: d.range.start.line + 1,
        startColumn: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
      });
      assert.equal(r.relatedLocations?.length ?? 0, d.relatedInformation?.length ?? 0, `related locations of ${d.code}`);
    }
    const cycle = run.results.find((r: { ruleId: string }) => r.ruleId === 'state/dependency-cycle');
    assert.ok(cycle.relatedLocations.length >= 2, 'a cycle points at each of its edges');
    const duplicate = run.results.find((r: { ruleId: string }) => r.ruleId === 'state/duplicate-urn');
    assert.ok(duplicate.relatedLocations[0].physicalLocation.region.startLine < duplicate.locations[0].physicalLocation.region.startLine, 'a duplicate points at the first copy');
    assert.equal(new URL(location0(run)).protocol, 'file:');
  });

  it('--format sarif reports a skipped file as a notification, not a result, and stays valid', () => {
    const other = join(scratch, 'notes.json');
    writeFileSync(other, '{ "hello": 1 }');
    const result = runQuotaState(['check', '--format', 'sarif', other, 'examples/demo.quota.jsonc']);
    assert.equal(result.status, 0, result.stderr);
    const log = JSON.parse(result.stdout);
    const valid: boolean = sarifValidator()(log);
    assert.ok(valid);
    assert.equal(log.runs[0].results.length, 0);
    const notification = log.runs[0].invocations[0].toolExecutionNotifications[0];
    assert.match(notification.message.text, /skipped/);
    assert.equal(notification.locations[0].physicalLocation.artifactLocation.uri, new URL(`file://${other}`).href);
  });

  it('--format github prints one workflow command per diagnostic, severity mapped, properties and message escaped', () => {
    const result = runQuotaState(['check', '--format', 'github', ...FILES]);
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    const expected = FILES.flatMap((file) => expectedDiagnostics(file).map((d) => ({ file, d })));
    assert.equal(lines.length, expected.length + 1, 'one line per diagnostic and the summary');
    for (const [i, { file, d }] of expected.entries()) {
      const level = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' }[d.severity];
      const message = d.message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
      assert.equal(
        lines[i],
        `::${level} file=${file},line=${d.range.start.line + 1},col=${d.range.start.character + 1},endLine=${d.range.end.line + 1},endColumn=${d.range.end.character + 1},title=${d.code}::${message}`,
      );
    }
    assert.ok(lines.some((l) => l.startsWith('::notice ')) && lines.some((l) => l.startsWith('::warning ')), 'several levels covered');
    assert.match(lines[lines.length - 1], /^6 files checked, \d+ problems$/);
  });

  it('text and JSON are unchanged: one compiler-style line per diagnostic; a skipped file is marked and not counted', () => {
    const other = join(scratch, 'README.json');
    writeFileSync(other, '[1, 2]');
    const text = runQuotaState(['check', 'examples/webshop.state.json', other]);
    assert.equal(text.status, 1);
    const expected = expectedDiagnostics('examples/webshop.state.json');
    const lines = text.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.slice(0, expected.length),
      expected.map((d) => `examples/webshop.state.json:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`),
    );
    assert.match(lines[expected.length], /README\.json: skipped: not recognised/);
    assert.equal(lines[expected.length + 1], `1 file checked, 1 skipped, ${expected.length} problems`);
    const json = JSON.parse(runQuotaState(['check', '--format', 'json', 'examples/webshop.state.json', other]).stdout);
    assert.deepEqual(
      json[0].diagnostics,
      expected.map(({ code, severity, message, range }) => ({ code, severity, message, range })),
    );
    assert.equal(json[1].skipped, true);
  });

  it('an empty or whitespace-only file no kind claims is empty-file, an Error, in all four formats', () => {
    const empty = join(scratch, 'empty.json');
    const blank = join(scratch, 'blank.json');
    writeFileSync(empty, '');
    writeFileSync(blank, ' \n\t\n');
    const text = runQuotaState(['check', empty, blank]);
    assert.equal(text.status, 1, text.stdout);
    const lines = text.stdout.trimEnd().split('\n');
    assert.match(lines[0], /empty\.json:1:1: error empty-file: The file is empty/);
    assert.match(lines[1], /blank\.json:1:1: error empty-file: /);
    assert.equal(lines[2], '2 files checked, 2 problems');
    const json = JSON.parse(runQuotaState(['check', '--format', 'json', empty]).stdout);
    assert.equal(json[0].skipped, undefined);
    assert.equal(json[0].diagnostics[0].code, 'empty-file');
    assert.match(runQuotaState(['check', '--format', 'github', empty]).stdout, /^::error file=.*empty\.json,line=1,col=1,endLine=1,endColumn=1,title=empty-file::/m);
    const sarif = JSON.parse(runQuotaState(['check', '--format', 'sarif', empty]).stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; ruleIndex: number }>; tool: { driver: { rules: Array<{ id: string }> } } }>;
    };
    assert.ok(sarifValidator()(sarif));
    const [result] = sarif.runs[0].results;
    assert.equal(result.ruleId, 'file/empty-file');
    assert.equal(sarif.runs[0].tool.driver.rules[result.ruleIndex].id, 'file/empty-file');
    assert.equal(runQuotaState(['check', '--severity', 'empty-file=warning', empty]).status, 0, 'empty-file takes a severity override');
  });

  it('--fail-on-skipped turns a skipped file into exit 1; without it a skip passes', () => {
    const other = join(scratch, 'unrelated.json');
    writeFileSync(other, '{ "hello": 1 }');
    assert.equal(runQuotaState(['check', other, 'examples/demo.quota.jsonc']).status, 0);
    const failing = runQuotaState(['check', '--fail-on-skipped', other, 'examples/demo.quota.jsonc']);
    assert.equal(failing.status, 1, failing.stdout);
    assert.match(failing.stdout, /unrelated\.json: skipped/);
    assert.equal(runQuotaState(['check', '--fail-on-skipped', 'examples/demo.quota.jsonc']).status, 0, 'nothing skipped, nothing failed');
  });
});

function location0(run: { originalUriBaseIds: Record<string, { uri: string }> }): string {
  return run.originalUriBaseIds['%SRCROOT%'].uri;
}
