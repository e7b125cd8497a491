import { strict as assert } from 'node:assert';
import { structureOf } from '../vocabulary';
import { findSecrets, stateSecrets, storedSecret } from './secrets';

const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const cipher = (text: string) => ({ [SIG]: SECRET, ciphertext: text });
const plain = (value: unknown) => ({ [SIG]: SECRET, plaintext: JSON.stringify(value) });

describe('where a state keeps its secrets (the one walker)', () => {
  describe('a secret object, as DeserializePropertyValue reads one, table', () => {
    const cases: Array<[string, unknown, ReturnType<typeof storedSecret>]> = [
      ['a ciphertext', cipher('v1:a:b'), { form: 'ciphertext', ciphertext: 'v1:a:b' }],
      ['a plaintext', plain('x'), { form: 'plaintext', plaintext: '"x"' }],
      ['both', { [SIG]: SECRET, ciphertext: 'v1:a:b', plaintext: '"x"' }, { form: 'malformed' }],
      ['neither', { [SIG]: SECRET }, { form: 'malformed' }],
      ['an empty ciphertext', { [SIG]: SECRET, ciphertext: '' }, { form: 'malformed' }],
      ['an empty plaintext', { [SIG]: SECRET, plaintext: '' }, { form: 'malformed' }],
      ['a ciphertext that is no string, beside a plaintext', { [SIG]: SECRET, ciphertext: 1, plaintext: '"x"' }, { form: 'plaintext', plaintext: '"x"' }],
      ['another signature (an asset)', { [SIG]: 'c44067f5952c0a294b673a41bacd8c17', text: 'x' }, undefined],
      ['a plain object', { ciphertext: 'v1:a:b' }, undefined],
      ['a string', 'v1:a:b', undefined],
    ];
    for (const [name, value, expected] of cases) it(name, () => assert.deepEqual(storedSecret(value), expected));
  });

  it('finds them anywhere in every record, pending operations too, with their paths, in document order', () => {
    const asset = { [SIG]: 'c44067f5952c0a294b673a41bacd8c17', text: 'x', hidden: cipher('v1:not:looked-into') };
    const structure = structureOf({
      version: 3,
      deployment: {
        manifest: {},
        secrets_providers: { type: 'passphrase', state: { salt: 'v1:c2FsdA==:v1:a:b' } },
        resources: [
          { urn: 'urn:a', inputs: { tags: { 'a.b': cipher('v1:1:1') } }, outputs: { list: ['plain', plain(2)], asset } },
          { urn: 'urn:b', outputs: { deep: { er: [{ x: cipher('v1:2:2') }] }, broken: { [SIG]: SECRET } }, replacementTrigger: cipher('v1:3:3') },
          'not a record',
        ],
        pending_operations: [{ type: 'creating', resource: { urn: 'urn:c', inputs: { p: cipher('v1:4:4') } } }],
      },
    });
    const found = findSecrets(structure).map((site) => [site.urn, site.index, site.pending, site.path, site.jsonPath.length, site.secret.form]);
    assert.deepEqual(found, [
      ['urn:a', 0, false, ['inputs', 'tags', 'a.b'], 6, 'ciphertext'],
      ['urn:a', 0, false, ['outputs', 'list', 1], 6, 'plaintext'],
      ['urn:b', 1, false, ['outputs', 'deep', 'er', 0, 'x'], 8, 'ciphertext'],
      ['urn:b', 1, false, ['outputs', 'broken'], 5, 'malformed'],
      ['urn:b', 1, false, ['replacementTrigger'], 4, 'ciphertext'],
      ['urn:c', 0, true, ['inputs', 'p'], 6, 'ciphertext'],
    ]);
    assert.deepEqual(findSecrets(structure)[0].jsonPath, ['deployment', 'resources', 0, 'inputs', 'tags', 'a.b']);
  });

  it("the rules' secrets are the well-formed ones: a ciphertext, or a plaintext of JSON text", () => {
    const structure = structureOf({
      version: 3,
      deployment: {
        resources: [{ urn: 'urn:a', outputs: { c: cipher('v1:1:1'), p: plain('x'), notJson: { [SIG]: SECRET, plaintext: 'not json' }, broken: { [SIG]: SECRET } } }],
      },
    });
    assert.deepEqual(
      findSecrets(structure).map((site) => site.path.join('.')),
      ['outputs.c', 'outputs.p', 'outputs.notJson', 'outputs.broken'],
    );
    assert.deepEqual(
      stateSecrets(structure).map((site) => site.path.join('.')),
      ['outputs.c', 'outputs.p'],
    );
  });

  it('a record is no property value: its members are walked even when it carries the signature key', () => {
    const structure = structureOf({ version: 3, deployment: { resources: [{ urn: 'urn:a', [SIG]: SECRET, ciphertext: 'v1:x:y', outputs: { c: cipher('v1:1:1') } }] } });
    assert.deepEqual(
      findSecrets(structure).map((site) => site.path),
      [['outputs', 'c']],
    );
  });
});
