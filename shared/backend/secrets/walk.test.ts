import { strict as assert } from 'node:assert';
import { structureOf } from '../../state/vocabulary';
import { configSecrets, passphraseSaltOf, secretsProviderOf } from './walk';

describe("where a state's secrets provider and config's secrets are", () => {
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
