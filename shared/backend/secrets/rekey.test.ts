import { strict as assert } from 'node:assert';
import { encodeStdBase64 } from './base64';
import { encryptValue, keyFromPassphrase, passphraseCrypter } from './crypter';
import { rekeyState } from './rekey';
import { structureOf } from '../../state/vocabulary';

const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const PASSPHRASE = 'rekey-unit';

async function newSaltState(passphrase: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(8));
  return `v1:${encodeStdBase64(salt)}:${await encryptValue(await keyFromPassphrase(passphrase, salt), 'pulumi')}`;
}

describe('rekeyState: a state moved from one salt to another', function () {
  this.timeout(60_000);

  it('each ciphertext sealed again under the other key, one that does not open left as it was, the provider replaced', async () => {
    const [oldSalt, newSalt] = [await newSaltState(PASSPHRASE), await newSaltState(PASSPHRASE)];
    const [from, to] = [await passphraseCrypter(PASSPHRASE, oldSalt), await passphraseCrypter(PASSPHRASE, newSalt)];
    const sealed = await from.encrypt('"hunter2"');
    const stranger = await to.encrypt('"sealed-by-the-other"');
    const provider = { type: 'passphrase', state: { salt: newSalt } };
    const root = {
      version: 3,
      deployment: {
        secrets_providers: { type: 'passphrase', state: { salt: oldSalt } },
        resources: [{ urn: 'urn:r', outputs: { pw: { [SIG]: SECRET, ciphertext: sealed }, list: [{ [SIG]: SECRET, ciphertext: stranger }], plain: { [SIG]: SECRET, plaintext: '"p"' } } }],
      },
    };
    const result = await rekeyState(structureOf(root), from, to, provider);
    assert.deepEqual(result, { rekeyed: 1, unopened: 1 });
    const outputs = root.deployment.resources[0].outputs;
    assert.notEqual(outputs.pw.ciphertext, sealed);
    assert.equal(await to.decrypt(outputs.pw.ciphertext), '"hunter2"');
    assert.equal(outputs.list[0].ciphertext, stranger);
    assert.deepEqual(outputs.plain, { [SIG]: SECRET, plaintext: '"p"' });
    assert.deepEqual(root.deployment.secrets_providers, provider);
    assert.notEqual(root.deployment.secrets_providers, provider);
  });
});
