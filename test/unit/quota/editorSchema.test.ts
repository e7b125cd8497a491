import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { editorSchema } from '../../../shared/quota/editorSchema';

const root = join(__dirname, '..', '..', '..');
const strict = JSON.parse(readFileSync(join(root, 'schemas', 'quota-config.schema.json'), 'utf8'));
const committedPath = join(root, 'schemas', 'quota-config.editor.schema.json');

describe('the editor copy of the quota schema (jsonValidation)', () => {
  it('is the committed file, so the two schemas cannot drift apart', () => {
    const expected = `${JSON.stringify(editorSchema(strict), null, 2)}\n`;
    if (process.env.UPDATE_EDITOR_SCHEMA) writeFileSync(committedPath, expected);
    assert.equal(readFileSync(committedPath, 'utf8'), expected, 'regenerate with UPDATE_EDITOR_SCHEMA=1 npx mocha test/unit/quota/editorSchema.test.ts');
  });

  it('accepts what the strict schema refuses (the language server reports it, once)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const bad = { rules: [{ name: '', limit: 'lots', subjects: ['size:bogus'], extra: 1 }], groups: 'free', enabled: 'yes' };
    assert.equal(ajv.validate(strict, bad), false, 'the strict schema must refuse the sample');
    assert.equal(new Ajv2020({ strict: false }).validate(editorSchema(strict), bad), true, JSON.stringify(ajv.errors));
  });

  it('keeps what completion and hovers need: properties, descriptions, subject suggestions', () => {
    const relaxed = editorSchema(strict) as { properties: Record<string, { description?: string }> };
    assert.deepEqual(Object.keys(relaxed.properties), Object.keys(strict.properties));
    assert.equal(relaxed.properties.enabled.description, strict.properties.enabled.description);
    const text = JSON.stringify(relaxed);
    assert.ok(text.includes('"examples":["none","size:all"'), 'subjects are offered as examples');
    assert.ok(!/"(required|pattern|minLength|enum)"/.test(text), 'no constraint is left');
  });
});
