/**
 * The INI reading Forgejo relies on (go-ini v1.67 as Forgejo configures it) and the value
 * readers of its quota settings, against cases taken from go-ini's and Forgejo's own tests.
 */
import { strict as assert } from 'node:assert';
import { analyzeAppIni } from '../../shared/ini/appIni';
import { newerServerTotal, olderServerTotal, parseGoIniBool, splitGoIniList } from '../../shared/ini/goValues';
import { parseIni } from '../../shared/ini/parse';

const valueOf = (text: string, key: string) =>
  parseIni(text)
    .entries.filter((e) => e.key === key)
    .at(-1)?.value;

describe('go-ini reading as Forgejo configures it', () => {
  it('cuts values at the first ; or #, even without a space (IgnoreInlineComment is false)', () => {
    assert.equal(valueOf('[quota]\nDEFAULT_GROUPS = free ; paid later\n', 'DEFAULT_GROUPS'), 'free');
    assert.equal(valueOf('A = team#1\n', 'A'), 'team');
    assert.equal(valueOf('A = x;y#z\n', 'A'), 'x');
  });

  it('skips whole-line comments with ; and # after leading whitespace', () => {
    const document = parseIni('; one\n   # two\n[s]\n\t;A = 1\nB = 2\n');
    assert.deepEqual(
      document.entries.map((e) => e.key),
      ['B'],
    );
    assert.deepEqual(document.errors, []);
  });

  it('strips matching surrounding quotes only when no other such quote is inside', () => {
    assert.equal(valueOf('A = "free, pro"\n', 'A'), 'free, pro');
    assert.equal(valueOf("A = 'free'\n", 'A'), 'free');
    assert.equal(valueOf('A = "free", "pro"\n', 'A'), '"free", "pro"');
    // The comment is cut first, so an opening quote alone stays.
    assert.equal(valueOf('A = "free;pro"\n', 'A'), '"free');
  });

  it('reads backtick and triple-quoted values verbatim, also over several lines', () => {
    assert.equal(valueOf('A = `free;pro` rest\n', 'A'), 'free;pro');
    assert.equal(valueOf('A = """one\ntwo""" \nB = 1\n', 'A'), 'one\ntwo');
    assert.equal(valueOf('A = `x\ny`\nB = 2\n', 'B'), '2');
    assert.match(parseIni('A = `never closed\n').errors[0].message, /never closed/);
  });

  it('does not join lines ending in a backslash (IgnoreContinuation is true)', () => {
    const document = parseIni('A = one \\\ntwo\n');
    assert.equal(document.entries[0].value, 'one \\');
    assert.equal(document.errors.length, 1);
    assert.match(document.errors[0].message, /"two" has no "="/);
  });

  it('splits key and value at the first = or :', () => {
    assert.equal(valueOf('A: b = c\n', 'A'), 'b = c');
    assert.equal(valueOf('URL = http://x\n', 'URL'), 'http://x');
    assert.deepEqual(
      parseIni('"Q K" = v\n').entries.map((e) => [e.key, e.value]),
      [['Q K', 'v']],
    );
  });

  it('keeps section names as written (case-sensitive, not trimmed) and reports lines go-ini refuses', () => {
    assert.deepEqual(
      parseIni('[ quota ]\n[Quota]\n').headers.map((h) => h.name),
      [' quota ', 'Quota'],
    );
    const document = parseIni('[open\nno delimiter\n= v\n[]\n');
    assert.equal(document.errors.length, 4);
    assert.equal(document.text.slice(document.errors[1].span.offset, document.errors[1].span.offset + document.errors[1].span.length), 'no delimiter');
  });

  it('handles CRLF line ends, a byte-order mark and a missing final newline', () => {
    const document = parseIni('\ufeff[quota]\r\nENABLED = true\r\nDEFAULT_GROUPS = a,b');
    assert.deepEqual(
      document.headers.map((h) => h.name),
      ['quota'],
    );
    assert.deepEqual(
      document.entries.map((e) => e.value),
      ['true', 'a,b'],
    );
  });

  it('lets the last of repeated keys win and merges repeated sections', () => {
    const analysis = analyzeAppIni('[quota]\nENABLED = false\n[other]\n[quota]\nENABLED = true\n');
    assert.equal(analysis.settings.enabled?.value, true);
  });

  it('reads [quota.default] TOTAL from [quota] by section inheritance; older servers only when [quota.default] exists', () => {
    assert.equal(analyzeAppIni('[quota]\nTOTAL = 5000\n').settings.defaultTotal?.value, 5000);
    assert.equal(analyzeAppIni('[quota]\nTOTAL = 5000\n').settings.defaultTotal?.older, -1);
    assert.equal(analyzeAppIni('[quota]\nTOTAL = 5000\n[quota.default]\n').settings.defaultTotal?.older, 5000);
    assert.equal(analyzeAppIni('[quota]\nTOTAL = 5000\n[quota.default]\nTOTAL = 7\n').settings.defaultTotal?.value, 7);
  });

  it('never throws on arbitrary text', () => {
    const samples = ['', '[', ']', '=', '"', '`', '"""', '\u0000\n[quota]\nENABLED', 'A=`\n`', '[quota]\nDEFAULT_GROUPS = \\\\,\\,x', '[quota.default]\nTOTAL = .\n'];
    let seed = 7;
    for (let i = 0; i < 300; i++) {
      let text = '';
      for (let j = 0; j < 40; j++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += '[]=:;#"`\\\n ab.TOTALquotaENABLED,-1G'[seed % 34];
      }
      samples.push(text);
    }
    for (const text of samples) {
      const analysis = analyzeAppIni(text, { groups: [{ label: 'x', names: ['a'] }] });
      for (const d of analysis.diagnostics) assert.ok(d.range.start.line >= 0 && d.range.end.line >= d.range.start.line);
    }
  });
});

describe('quota setting values as Forgejo reads them', () => {
  it('ENABLED: exactly the spellings of go-ini parseBool', () => {
    for (const word of ['1', 't', 'T', 'true', 'TRUE', 'True', 'YES', 'yes', 'Yes', 'y', 'ON', 'on', 'On']) assert.equal(parseGoIniBool(word), true, word);
    for (const word of ['0', 'f', 'F', 'false', 'FALSE', 'False', 'NO', 'no', 'No', 'n', 'OFF', 'off', 'Off']) assert.equal(parseGoIniBool(word), false, word);
    for (const word of ['', 'tRue', 'Y', 'enabled', 'yes please', ' true']) assert.equal(parseGoIniBool(word), undefined, word);
  });

  it('DEFAULT_GROUPS: go-ini Strings(",") trims items, honours \\, and keeps empty middles', () => {
    assert.deepEqual(
      splitGoIniList('free, pro').map((i) => i.value),
      ['free', 'pro'],
    );
    assert.deepEqual(
      splitGoIniList('free,,pro,').map((i) => i.value),
      ['free', '', 'pro'],
    );
    assert.deepEqual(
      splitGoIniList('a\\,b, c').map((i) => i.value),
      ['a,b', 'c'],
    );
    assert.deepEqual(splitGoIniList(''), []);
    assert.deepEqual(
      splitGoIniList('  free ,  pro').map((i) => i.offset),
      [2, 10],
    );
  });

  it('newer servers: the table of Forgejo TestConfigQuotaDefaultTotal', () => {
    const table: Array<[string, bigint]> = [
      ['0', 0n],
      ['5000', 5000n],
      ['12,345,678', 12_345_678n],
      ['2k', 2000n],
      ['2MiB', 2n * 1024n * 1024n],
      ['3G', 3_000_000_000n],
      ['3GiB', 3n * 1024n ** 3n],
      ['9EB', 9_000_000_000_000_000_000n],
      ['42EB', -1n],
      ['-1', -1n],
      ['-42', -1n],
      ['-1MiB', -1n],
      ['hello', -1n],
      ['unlimited', -1n],
    ];
    for (const [value, bytes] of table) assert.equal(newerServerTotal(value).bytes, bytes, value);
    assert.equal(newerServerTotal('1.5 GB').bytes, 1_500_000_000n);
    assert.equal(newerServerTotal('10EB').bytes, -1n, 'above the int64 range');
  });

  it('older servers: strconv.ParseInt(s, 0, 64), anything else ignored', () => {
    assert.equal(olderServerTotal('10737418240'), 10737418240n);
    assert.equal(olderServerTotal('-1'), -1n);
    assert.equal(olderServerTotal('010'), 8n);
    assert.equal(olderServerTotal('0x10'), 16n);
    assert.equal(olderServerTotal('1_000'), 1000n);
    assert.equal(olderServerTotal('+5'), 5n);
    for (const value of ['2G', '', '1,000', '1__0', '_1', '9223372036854775808', '1.5']) assert.equal(olderServerTotal(value), undefined, value);
    assert.equal(olderServerTotal('9223372036854775807'), 9223372036854775807n);
  });
});
