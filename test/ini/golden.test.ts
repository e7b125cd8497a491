/**
 * Golden fixtures for app.ini: each `test/fixtures/ini/<name>.ini` has its expected diagnostics
 * beside it in `<name>.expect.json` (1-based line, code, severity, the underlined text, the
 * message, related lines and the quick fixes: title → inserted text). Group names are checked against
 * `groups.json` (except in `unchecked.ini`). A name ending in `-vX.Y.Z` is checked for that Forgejo
 * version (as when the setting or the connected server names it). Together they cover every code
 * of the registry.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeList } from '../../shared/codes';
import { analyzeAppIni, type GroupSource } from '../../shared/ini/appIni';
import { APP_INI_CODES } from '../../shared/ini/codes';
import { appIniFixesFor } from '../../shared/ini/services';
import { forgejoProfile } from '../../shared/quota/forgejoVersion';

const FIXTURES = join(__dirname, '..', 'fixtures', 'ini');
const SOURCES = (JSON.parse(readFileSync(join(FIXTURES, 'groups.json'), 'utf8')) as { sources: GroupSource[] }).sources;

interface Expected {
  line: number;
  code: string;
  severity: string;
  text?: string;
  message: string;
  relatedLines?: number[];
  fixes?: string[];
}

export function goldenOf(name: string): Expected[] {
  const text = readFileSync(join(FIXTURES, `${name}.ini`), 'utf8');
  const version = /-v(\d+\.\d+\.\d+)$/.exec(name)?.[1];
  const forgejo = version === undefined ? undefined : forgejoProfile(version);
  const analysis = analyzeAppIni(text, { groups: name === 'unchecked' ? [] : SOURCES, ...(forgejo?.ok ? { forgejo: forgejo.profile } : {}) });
  const lines = text.split('\n');
  return analysis.diagnostics.map((d) => {
    const { start, end } = d.range;
    const out: Expected = {
      line: start.line + 1,
      code: d.code,
      severity: d.severity,
      text: start.line === end.line ? lines[start.line].slice(start.character, end.character) : undefined,
      message: d.message,
    };
    if (d.relatedInformation) out.relatedLines = d.relatedInformation.map((r) => r.range.start.line + 1);
    const fixes = appIniFixesFor(analysis, d);
    if (fixes.length) out.fixes = fixes.map((f) => `${f.title} → ${f.edits.map((e) => JSON.stringify(e.newText)).join(' + ')}`);
    return JSON.parse(JSON.stringify(out)) as Expected;
  });
}

export const fixtureNames = () =>
  readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.ini'))
    .map((f) => f.slice(0, -'.ini'.length))
    .sort();

describe('app.ini golden fixtures', () => {
  const seen = new Set<string>();
  for (const name of fixtureNames()) {
    it(`${name}: exactly the expected diagnostics`, () => {
      const expected = JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8')) as Expected[];
      const actual = goldenOf(name);
      assert.deepEqual(actual, expected);
      for (const d of actual) {
        assert.equal(d.severity, APP_INI_CODES[d.code as keyof typeof APP_INI_CODES]?.severity, `default severity of ${d.code}`);
        seen.add(d.code);
      }
    });
  }

  it('the fixtures cover every code of the registry', () => {
    assert.deepEqual(
      codeList(APP_INI_CODES)
        .map((c) => c.code)
        .filter((c) => !seen.has(c)),
      [],
    );
  });
});
