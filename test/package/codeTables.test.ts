/**
 * package.json and README.md list the diagnostic codes the registries define, with their default
 * severities, and nothing else. On a failure, `node scripts/sync-manifest-codes.mjs` rewrites both.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withManifestCodes, withNlsCodeDescriptions, withReadmeCodeTables } from '../../scripts/codeTables';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const HINT = 'run `node scripts/sync-manifest-codes.mjs` to regenerate it from the registries';

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

  it('README.md tables the state, quota and app.ini codes as their rule modules define them', () => {
    const readme = read('README.md');
    assert.equal(readme, withReadmeCodeTables(readme), `README.md's code tables drifted: ${HINT}`);
  });
});
