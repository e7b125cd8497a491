import { strict as assert } from 'node:assert';
import { structureOf } from '../../state/vocabulary';
import { configSecrets, findSecrets, passphraseSaltOf, secretsProviderOf, storedSecret } from './walk';

const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const cipher = (text: string) => ({ [SIG]: SECRET, ciphertext: text });
const plain = (value: unknown) => ({ [SIG]: SECRET, plaintext: JSON.stringify(value) });

describe('where a state keeps its secrets', () => {
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

  it("reads the deployment's secrets provider in every shape, and the passphrase salt of it", () => {
    const providers = { type: 'passphrase', state: { salt: 'v1:s:v1:n:c' } };
    for (const root of [
      { version: 3, deployment: { secrets_providers: providers } },
      { version: 3, checkpoint: { stack: 's', latest: { secrets_providers: providers } } },
      { manifest: {}, secrets_providers: providers },
    ]) {
      const provider = secretsProviderOf(structureOf(root));
      assert.deepEqual(provider, providers);
      assert.equal(passphraseSaltOf(provider!), 'v1:s:v1:n:c');
    }
    assert.equal(secretsProviderOf(structureOf({ version: 3, deployment: { secrets_providers: { type: '' } } })), undefined);
    assert.equal(secretsProviderOf(structureOf({ urn: 'urn:a' })), undefined);
    assert.equal(passphraseSaltOf({ type: 'service', state: { salt: 'x' } }), undefined);
    assert.equal(passphraseSaltOf({ type: 'passphrase', state: {} }), undefined);
  });

  it("finds config's secure values: a key's, and those inside an object value (isSecureValue)", () => {
    const found = configSecrets({
      'p:plain': 'x',
      'p:token': { secure: 'v1:1:1' },
      'p:db': { password: { secure: 'v1:2:2' }, list: [{ secure: 'v1:3:3' }], notSecure: { secure: 'v1:4:4', other: 1 } },
      'p:number': { secure: 5 },
    });
    assert.deepEqual(found, [
      { key: 'p:token', path: [], ciphertext: 'v1:1:1' },
      { key: 'p:db', path: ['password'], ciphertext: 'v1:2:2' },
      { key: 'p:db', path: ['list', 0], ciphertext: 'v1:3:3' },
    ]);
  });
});
