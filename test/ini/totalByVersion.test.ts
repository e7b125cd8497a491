/** `[quota.default] TOTAL` judged as the Forgejo version in use reads it (v11 modules/setting/quota.go vs 12.0.4+). */
import { strict as assert } from 'node:assert';
import { analyzeAppIni } from '../../shared/ini/appIni';
import { readServerConfig } from '../../shared/ini/serverConfig';
import { appIniFixesFor } from '../../shared/ini/services';
import { forgejoProfile, type ForgejoProfile } from '../../shared/quota/forgejoVersion';

function profile(version: string): ForgejoProfile {
  const result = forgejoProfile(version);
  assert.ok(result.ok);
  return result.profile;
}

const ini = (total: string) => `[quota]\nENABLED = true\n\n[quota.default]\nTOTAL = ${total}\n`;
const codes = (text: string, forgejo?: ForgejoProfile) => analyzeAppIni(text, forgejo ? { forgejo } : {}).diagnostics.map((d) => String(d.code));

describe('app.ini TOTAL by Forgejo version', () => {
  it('before 12.0.4 a size such as 2G is silently ignored: total-ignored (Error) with the plain bytes as the fix', () => {
    const analysis = analyzeAppIni(ini('2G'), { forgejo: profile('11.0.3') });
    const ignored = analysis.diagnostics.find((d) => d.code === 'total-ignored');
    assert.ok(ignored, JSON.stringify(analysis.diagnostics));
    assert.equal(ignored.severity, 'error');
    assert.match(ignored.message, /Forgejo 11\.0 \(before 12\.0\.4\) reads TOTAL as a plain integer and silently ignores this value/);
    assert.deepEqual(
      appIniFixesFor(analysis, ignored).map((f) => f.edits.map((e) => e.newText).join('')),
      ['2000000000'],
    );
    assert.equal(analysis.settings.defaultTotal?.value, -1, 'as v11 reads it: unlimited');
    assert.ok(!codes(ini('2G'), profile('11.0.3')).includes('total-older-servers'));
  });

  it('from 12.0.4 on a size is read as a size: nothing to report', () => {
    assert.deepEqual(
      codes(ini('2G'), profile('12.0.4')).filter((c) => c.startsWith('total') || c === 'invalid-total'),
      [],
    );
    assert.equal(analyzeAppIni(ini('2G'), { forgejo: profile('15.0.3') }).settings.defaultTotal?.value, 2_000_000_000);
  });

  it('a plain integer is read alike by every version', () => {
    for (const version of ['11.0.3', '12.0.4', '15.0.9'])
      assert.deepEqual(
        codes(ini('2000000000'), profile(version)).filter((c) => c.includes('total')),
        [],
        version,
      );
  });

  it('without a known version, both readings are checked as before', () => {
    assert.ok(codes(ini('2G')).includes('total-older-servers'));
    assert.ok(!codes(ini('2G')).includes('total-ignored'));
  });

  it('quota-api --config reads TOTAL as the emulated version does', () => {
    assert.equal(readServerConfig(ini('2G'), 'app.ini', profile('11.0.3')).overrides.defaultTotal?.value, -1);
    assert.equal(readServerConfig(ini('2G'), 'app.ini', profile('12.0.4')).overrides.defaultTotal?.value, 2_000_000_000);
  });
});
