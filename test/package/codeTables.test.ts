/**
 * package.json and the docs pages (docs/state-files.md, docs/quota-files.md, docs/app-ini.md) list the
 * diagnostic codes the registries define, with their default severities, and nothing else. On a
 * failure, `node scripts/sync-manifest-codes.mjs` rewrites them.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_TABLE_PAGES, withCodeTables, withManifestCodes, withNlsCodeDescriptions } from '../../scripts/codeTables';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const HINT = 'run `node scripts/sync-manifest-codes.mjs` to regenerate it from the registries';
const MARKER = /^[ \t]*<!-- codes:([^ ]+) -->$/gm;

describe('diagnostic codes outside the registries', () => {
  it('package.json offers every code, with its meaning, in the severity setting', () => {
    const manifest = read('package.json');
    assert.equal(manifest, withManifestCodes(manifest), `package.json's quotaState.diagnostics.severity drifted: ${HINT}`);
    const setting = JSON.parse(manifest).contributes.configuration.properties['quotaState.diagnostics.severity'];
    assert.ok(setting.propertyNames.enum.includes('forward-reference'));
    assert.equal(setting.propertyNames.enum.length, setting.propertyNames.enumDescriptions.length);
    const nls = read('package.nls.json');
    assert.equal(nls, withNlsCodeDescriptions(nls), `package.nls.json's code descriptions drifted: ${HINT}`);
  });

  it('the docs pages table the state, quota and app.ini codes as their rule modules define them', () => {
    assert.deepEqual(CODE_TABLE_PAGES, ['docs/state-files.md', 'docs/quota-files.md', 'docs/app-ini.md']);
    for (const page of CODE_TABLE_PAGES) {
      const text = read(page);
      assert.equal(text, withCodeTables(page, text), `${page}'s code tables drifted: ${HINT}`);
    }
  });

  it('each kind is tabled once, on its own page, and the README links that page instead', () => {
    const tabled = CODE_TABLE_PAGES.flatMap((page) => [...read(page).matchAll(MARKER)].map((match) => `${match[1]} in ${page}`));
    assert.deepEqual(tabled, ['state in docs/state-files.md', 'quota in docs/quota-files.md', 'app.ini in docs/app-ini.md']);
    const readme = read('README.md');
    assert.deepEqual([...readme.matchAll(MARKER)], [], 'README.md holds a code table: they live in docs/');
    for (const page of CODE_TABLE_PAGES) assert.ok(readme.includes(`](${page})`), `README.md does not link ${page}`);
  });
});
