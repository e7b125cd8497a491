import { strict as assert } from 'node:assert';
import pulumiVectors from '../../../test/fixtures/secrets/pulumi-vectors.json';
import { decodeStdBase64, encodeStdBase64 } from './base64';
import { CiphertextError, decryptValue, IncorrectPassphraseError, keyFromPassphrase, parseSaltState, passphraseCrypter, SecretsError } from './crypter';

/** Known vectors the real Pulumi v3.274.1 made (test/fixtures/secrets/generate.ts). */
const vectors = pulumiVectors as {
  stacks: Array<{
    name: string;
    passphrase: string;
    saltState: string;
    state: Array<{ path: string; ciphertext: string; plaintext: string }>;
    config: Array<{ key: string; ciphertext: string; plaintext: string }>;
  }>;
};

/** pkg/secrets/passphrase/manager_test.go's own state, which the passphrase "password" opens. */
const PULUMI_TEST_STATE = 'v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==';

describe("Pulumi's passphrase provider on WebCrypto", function () {
  // PBKDF2 with 1,000,000 iterations: about a second a key on a slow machine, once per salt and passphrase.
  this.timeout(60_000);

  for (const stack of vectors.stacks) {
    describe(`the vectors of the stack "${stack.name}" (passphrase ${JSON.stringify(stack.passphrase)})`, () => {
      it('opens the salt and decrypts every state secret to the JSON text Pulumi shows with --show-secrets', async () => {
        const crypter = await passphraseCrypter(stack.passphrase, stack.saltState);
        assert.ok(stack.state.length >= 10);
        for (const vector of stack.state) assert.equal(await crypter.decrypt(vector.ciphertext), vector.plaintext, vector.path);
      });

      it('decrypts every `pulumi config set --secret` value to what `pulumi config get` prints', async () => {
        const crypter = await passphraseCrypter(stack.passphrase, stack.saltState);
        for (const vector of stack.config) assert.equal(await crypter.decrypt(vector.ciphertext), vector.plaintext, vector.key);
      });

      it('encrypts what it decrypts back: a fresh nonce each time, the same plaintext', async () => {
        const crypter = await passphraseCrypter(stack.passphrase, stack.saltState);
        const [first, second] = [await crypter.encrypt('"hunter2"'), await crypter.encrypt('"hunter2"')];
        assert.match(first, /^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/);
        assert.notEqual(first, second);
        assert.equal(await crypter.decrypt(first), '"hunter2"');
        assert.equal(await crypter.decrypt(second), '"hunter2"');
      });

      it('refuses any other passphrase: "incorrect passphrase", naming no value', async () => {
        for (const wrong of [`${stack.passphrase}x`, stack.passphrase.trim() === stack.passphrase ? 'other' : stack.passphrase.trim()]) {
          await assert.rejects(passphraseCrypter(wrong, stack.saltState), (error: unknown) => error instanceof IncorrectPassphraseError && error.message === 'incorrect passphrase');
        }
      });
    });
  }

  it("opens Pulumi's own test state with its passphrase, and refuses another", async () => {
    await passphraseCrypter('password', PULUMI_TEST_STATE);
    await assert.rejects(passphraseCrypter('password123', PULUMI_TEST_STATE), IncorrectPassphraseError);
  });

  it("does not open another stack's ciphertext: GCM's authentication fails", async () => {
    const [one, two] = vectors.stacks;
    const crypter = await passphraseCrypter(one.passphrase, one.saltState);
    await assert.rejects(
      crypter.decrypt(two.state[0].ciphertext),
      (error: unknown) => error instanceof CiphertextError && error.reason === 'key' && error.message === 'cipher: message authentication failed',
    );
  });

  it('derives each key once: a second crypter of the same salt and passphrase costs no derivation', async () => {
    const { passphrase, saltState } = vectors.stacks[0];
    await passphraseCrypter(passphrase, saltState);
    const started = Date.now();
    for (let i = 0; i < 20; i++) await passphraseCrypter(passphrase, saltState);
    assert.ok(Date.now() - started < 200, `20 opens took ${Date.now() - started} ms`);
  });

  describe('a ciphertext Pulumi would not read (crypt.go DecryptValue), table', () => {
    const { passphrase, saltState, state } = vectors.stacks[0];
    const good = state[0].ciphertext;
    const [, nonce, sealed] = good.split(':');
    const cases: Array<[string, string, 'malformed' | 'key', string]> = [
      ['two parts', `v1:${nonce}`, 'malformed', 'bad value'],
      ['four parts', `${good}:x`, 'malformed', 'bad value'],
      ['another version', `v2:${nonce}:${sealed}`, 'malformed', 'unknown value version'],
      ['a nonce not in base64', `v1:${nonce.slice(1)}:${sealed}`, 'malformed', 'bad value: illegal base64 data'],
      ['a ciphertext cut mid-group (not base64)', `v1:${nonce}:${sealed.slice(0, -3)}`, 'malformed', 'bad value: illegal base64 data'],
      ['padding missing (Go wants it)', `v1:${nonce}:${sealed.replace(/=+$/, '')}`, 'malformed', 'bad value: illegal base64 data'],
      ['an 8-byte nonce', `v1:${encodeStdBase64(new Uint8Array(8))}:${sealed}`, 'malformed', 'bad value: nonce size is incorrect'],
      ['a ciphertext cut by whole groups (still base64)', `v1:${nonce}:${sealed.slice(0, 8)}`, 'key', 'cipher: message authentication failed'],
      ['shorter than the tag', `v1:${nonce}:AAAA`, 'key', 'cipher: message authentication failed'],
      ['an empty ciphertext', `v1:${nonce}:`, 'key', 'cipher: message authentication failed'],
    ];
    it('the vector these cases break is padded', () => assert.match(sealed, /=$/));
    for (const [name, ciphertext, reason, message] of cases) {
      it(name, async () => {
        const key = await keyFromPassphrase(passphrase, parseSaltState(saltState).salt);
        await assert.rejects(decryptValue(key, ciphertext), (error: unknown) => error instanceof CiphertextError && error.reason === reason && error.message === message);
      });
    }

    it('line breaks inside the base64 are skipped, as Go skips them', async () => {
      const key = await keyFromPassphrase(passphrase, parseSaltState(saltState).salt);
      assert.equal(await decryptValue(key, `v1:${nonce}:${sealed.slice(0, 8)}\r\n${sealed.slice(8)}`), state[0].plaintext);
    });
  });

  describe('salt states (manager.go symmetricCrypterFromPhraseAndState), table', () => {
    const cases: Array<[string, string, string]> = [
      ['no colon', 'v1', 'malformed state value'],
      ['one colon', 'v1:fozI5u6B030=', 'malformed state value'],
      ['another version', 'v2:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==', 'unknown state version'],
      ['a salt not in base64', 'v1:fozI5u6B030:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==', 'illegal base64 data in the salt'],
      ["manager_test.go's broken state", 'fozI5u6B030=:v1:F+6ZduL:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==', 'unknown state version'],
    ];
    for (const [name, state, message] of cases) {
      it(name, async () => {
        await assert.rejects(passphraseCrypter('password', state), (error: unknown) => error instanceof SecretsError && !(error instanceof IncorrectPassphraseError) && error.message === message);
      });
    }

    it('a check value that is damaged is an incorrect passphrase, as Pulumi says', async () => {
      await assert.rejects(passphraseCrypter('password', 'v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMF'), IncorrectPassphraseError);
      await assert.rejects(passphraseCrypter('password', 'v1:fozI5u6B030=:'), IncorrectPassphraseError);
    });

    it('takes the salt and its check value apart at the first two colons', () => {
      const { salt, check } = parseSaltState(PULUMI_TEST_STATE);
      assert.equal(encodeStdBase64(salt), 'fozI5u6B030=');
      assert.equal(check, 'v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==');
    });
  });

  describe("standard base64 as Go's StdEncoding reads it, table", () => {
    const cases: Array<[string, number[] | undefined]> = [
      ['', []],
      ['AA==', [0]],
      ['AAE=', [0, 1]],
      ['AAEC', [0, 1, 2]],
      ['AA', undefined],
      ['AA=', undefined],
      ['A===', undefined],
      ['AA==AA==', undefined],
      ['AA-_', undefined],
      ['AA E', undefined],
      ['AA\nE=', [0, 1]],
    ];
    for (const [text, bytes] of cases) {
      it(JSON.stringify(text), () => {
        const decoded = decodeStdBase64(text);
        assert.deepEqual(decoded && [...decoded], bytes);
        if (bytes && !text.includes('\n')) assert.equal(encodeStdBase64(new Uint8Array(bytes)), text);
      });
    }
  });
});
