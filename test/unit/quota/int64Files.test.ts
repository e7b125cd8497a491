/** Quota files hold int64 limits exactly: read from the number token (or a size string), evaluated and written back unchanged. */
import { strict as assert } from 'node:assert';
import { analyzeQuotaConfig } from '../../../shared/quota/config';
import { quotaFileSummaryForWire, quotaFileSummaryFromWire } from '../../../shared/quota/fileSummary';
import { buildEvaluationReport } from '../../../shared/quota/report';
import { parseSize, parseSizeExact } from '../../../shared/quota/sizes';

const INT64_MAX = 9223372036854775807n;

describe('int64 limits in quota files', () => {
  it('parseSizeExact agrees with parseSize within 2^53 and is exact beyond it, up to int64', () => {
    for (const value of [0, -1, 500, '2k', '3G', '1 GiB', '4.35k', Number.MAX_SAFE_INTEGER]) assert.deepEqual(parseSizeExact(value), parseSize(value), String(value));
    assert.deepEqual(parseSizeExact(9223372036854775807, '9223372036854775807'), { ok: true, bytes: INT64_MAX });
    assert.deepEqual(parseSizeExact(2 ** 60, '1152921504606846976'), { ok: true, bytes: 2n ** 60n });
    assert.deepEqual(parseSizeExact('1 EiB'), { ok: true, bytes: 2n ** 60n });
    assert.deepEqual(parseSizeExact('9EB'), { ok: true, bytes: 9n * 10n ** 18n });
    assert.deepEqual(parseSizeExact('9223372036854775807'), { ok: true, bytes: INT64_MAX });
    assert.deepEqual(parseSizeExact('-9223372036854775808'), { ok: true, bytes: -(2n ** 63n) });
    for (const beyond of ['8 EiB', '9223372036854775808', '10EB']) {
      const result = parseSizeExact(beyond);
      assert.equal(result.ok, false, beyond);
      assert.match(!result.ok ? result.error : '', /beyond int64/);
    }
  });

  const text = `{
  "rules": [
    { "name": "max", "limit": 9223372036854775807, "subjects": ["size:all"] },
    { "name": "eib", "limit": "1 EiB", "subjects": ["size:git:lfs"] }
  ],
  "groups": [{ "name": "g", "rules": ["max", "eib"] }],
  "defaultGroups": ["g"],
  "usage": { "dora": { "size:repos:public": 1024 } }
}`;

  it('the model holds the exact limits and the file has no diagnostics', () => {
    const analysis = analyzeQuotaConfig(text);
    assert.deepEqual(analysis.diagnostics, []);
    assert.deepEqual(
      analysis.model.rules.map((r) => r.limit),
      [INT64_MAX, 2n ** 60n],
    );
    const report = buildEvaluationReport(analysis);
    assert.deepEqual(
      report.accounts[0].groups[0].rules.map((r) => [r.limit, r.stands]),
      [
        [INT64_MAX, true],
        [2n ** 60n, true],
      ],
    );
  });

  it('a limit beyond int64 is an invalid-size error', () => {
    const analysis = analyzeQuotaConfig(text.replace('9223372036854775807', '9223372036854775808'));
    const invalid = analysis.diagnostics.filter((d) => d.code === 'invalid-size');
    assert.equal(invalid.length, 1);
    assert.match(invalid[0].message, /beyond int64/);
  });

  it('the summary Push reads crosses plain JSON with every digit', () => {
    const wire = JSON.parse(JSON.stringify(quotaFileSummaryForWire(analyzeQuotaConfig(text))));
    assert.deepEqual(
      quotaFileSummaryFromWire(wire).model.rules.map((r) => r.limit),
      [INT64_MAX, 2n ** 60n],
    );
  });
});
