/** `quota-state check app.ini` and `quota-state evaluate --config app.ini` (built CLI). */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeAppIni } from '../../shared/ini/appIni';
import { runQuotaState } from '../helpers/processes';

const DEMO = 'examples/demo.quota.jsonc';

describe('quota-state and app.ini (built CLI)', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-ini-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('check reports exactly the shared analysis, with groups from the nearest quota file; exit 1 on errors', () => {
    const folder = join(scratch, 'check');
    mkdirSync(folder);
    writeFileSync(join(folder, 'quota.jsonc'), '{ "groups": [{ "name": "free", "rules": [] }] }');
    const text = '[quota]\nENABLED = maybe\nDEFAULT_GROUPS = free, fre\n[quota.default]\nTOTAL = 10G\n';
    const file = join(folder, 'app.ini');
    writeFileSync(file, text);
    const result = runQuotaState(['check', file, '--format', 'json']);
    assert.equal(result.status, 1, result.stderr);
    const [reported] = JSON.parse(result.stdout) as Array<{ diagnostics: Array<{ code: string; message: string }> }>;
    const expected = analyzeAppIni(text, { groups: [{ label: 'quota.jsonc', names: ['free'] }] }).diagnostics;
    assert.deepEqual(
      reported.diagnostics.map((d) => [d.code, d.message]),
      expected.map((d) => [d.code, d.message]),
    );
    assert.deepEqual(
      reported.diagnostics.map((d) => d.code),
      ['invalid-boolean', 'unknown-default-group', 'total-older-servers'],
    );
  });

  it("check --severity takes app.ini codes, like every kind's: quota-disabled=off silences it, a typo is refused", () => {
    const folder = join(scratch, 'severity');
    mkdirSync(folder);
    const file = join(folder, 'app.ini');
    writeFileSync(file, '[quota]\nENABLED = false\n');
    const plain = runQuotaState(['check', file, '--format', 'json']);
    assert.deepEqual(
      JSON.parse(plain.stdout)[0].diagnostics.map((d: { code: string }) => d.code),
      ['quota-disabled'],
    );
    const silenced = runQuotaState(['check', '--severity', 'quota-disabled=off', file, '--format', 'json']);
    assert.equal(silenced.status, 0, silenced.stderr);
    assert.deepEqual(JSON.parse(silenced.stdout)[0].diagnostics, []);
    const typo = runQuotaState(['check', '--severity', 'quota-disabld=off', file]);
    assert.equal(typo.status, 2);
    assert.match(typo.stderr, /quota-disabled/);
  });

  it('fix on an app.ini reads it as app.ini (no JSON analysis), applies nothing and reports its errors', () => {
    const folder = join(scratch, 'fix');
    mkdirSync(folder);
    const clean = join(folder, 'app.ini');
    writeFileSync(clean, '[quota]\nENABLED = true\n');
    const ok = runQuotaState(['fix', clean]);
    assert.equal(ok.status, 0, ok.stderr + ok.stdout);
    assert.doesNotMatch(ok.stdout + ok.stderr, /JSON object/);
    const broken = join(folder, 'broken', 'app.ini');
    mkdirSync(join(folder, 'broken'));
    writeFileSync(broken, '[quota]\nENABLED = maybe\n');
    const refused = runQuotaState(['fix', broken]);
    assert.equal(refused.status, 1);
    assert.match(refused.stdout, /invalid-boolean|ENABLED/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /JSON object/);
  });

  it('the demo app.ini beside the demo instance is clean', () => {
    const result = runQuotaState(['check', 'examples/app.ini']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /1 file checked, 0 problems/);
  });

  it('evaluate --config overrides enabled, defaultGroups and defaultTotal and names the source of each', () => {
    const config = join(scratch, 'override.ini');
    writeFileSync(config, '[quota]\nDEFAULT_GROUPS = pro\n[quota.default]\nTOTAL = 5G\n');
    const result = runQuotaState(['evaluate', DEMO, '--config', config, '--account', 'alice']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /enabled +true +\(from examples\/demo\.quota\.jsonc\)/);
    assert.match(result.stdout, /defaultGroups +pro +\(from .*override\.ini:2 \[quota\] DEFAULT_GROUPS\)/);
    assert.match(result.stdout, /defaultTotal +4\.66 GiB +\(from .*override\.ini:4 \[quota\.default\] TOTAL\)/);
    // alice has no group of her own: the default group from app.ini decides.
    assert.match(result.stdout, /alice: its groups stand, but 1 of 14 subjects refused \(group pro\)/);

    const json = runQuotaState(['evaluate', DEMO, '--config', config, '--format', 'json']);
    const report = JSON.parse(json.stdout);
    assert.equal(report.settings.defaultTotal.value, 5_000_000_000);
    assert.match(report.settings.defaultGroups.source, /override\.ini:2/);
    assert.equal(report.settings.enabled.source, 'examples/demo.quota.jsonc');
    assert.deepEqual(
      report.accounts.find((a: { name: string }) => a.name === 'bob').groups.map((g: { name: string }) => g.name),
      ['pro'],
    );
  });

  it('evaluate --config with ENABLED = false reports quota as disabled; a file Forgejo cannot load exits 2, located', () => {
    const disabled = join(scratch, 'disabled.ini');
    writeFileSync(disabled, '[quota]\nENABLED = false\n');
    const off = runQuotaState(['evaluate', DEMO, '--config', disabled, '--format', 'json']);
    assert.equal(JSON.parse(off.stdout).enabled, false);
    assert.match(JSON.parse(off.stdout).settings.enabled.source, /disabled\.ini:2 \[quota\] ENABLED/);

    const broken = join(scratch, 'broken.ini');
    writeFileSync(broken, '[quota]\nENABLED = true\nDEFAULT_GROUPS free\n');
    const refused = runQuotaState(['evaluate', DEMO, '--config', broken]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /broken\.ini:3:1: error ini-syntax/);
    const missing = runQuotaState(['evaluate', DEMO, '--config', join(scratch, 'nope.ini')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file/);
  });
});
