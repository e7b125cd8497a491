import { strict as assert } from 'node:assert';
import { parse as parseYaml } from 'yaml';
import pulumiVectors from '../../../test/fixtures/secrets/pulumi-vectors.json';
import { newPassphraseCrypter, passphraseCrypter, SecretsError } from './crypter';
import { rekeyConfigFile, rekeyConfigMap } from './rekeyConfig';

/** Known vectors real Pulumi made (test/fixtures/secrets/generate.ts): a salt and `pulumi config set --secret` values under it. */
const vectors = pulumiVectors as { stacks: Array<{ passphrase: string; saltState: string; config: Array<{ key: string; ciphertext: string; plaintext: string }> }> };

describe('rekeyConfigFile and rekeyConfigMap: config secrets moved to a new salt', function () {
  this.timeout(60_000);
  const [stack] = vectors.stacks;

  it("a Pulumi.<stack>.yaml: Pulumi's secure values re-sealed, encryptionsalt replaced, comments and plain values kept", async () => {
    const [first, second] = stack.config;
    const text = [
      '# kept',
      `encryptionsalt: ${stack.saltState}`,
      'config:',
      `  p:${first.key}:`,
      `    secure: ${first.ciphertext}`,
      '  p:plain: visible # also kept',
      '  p:nested:',
      '    inner:',
      `      secure: ${second.ciphertext}`,
      '',
    ].join('\n');
    const from = await passphraseCrypter(stack.passphrase, stack.saltState);
    const to = await newPassphraseCrypter('next passphrase');
    const result = await rekeyConfigFile(text, from, to);
    assert.deepEqual({ rekeyed: result.rekeyed, unopened: result.unopened }, { rekeyed: 2, unopened: 0 });
    assert.ok(result.text.startsWith('# kept\n') && result.text.includes('p:plain: visible # also kept'), result.text);
    const parsed = parseYaml(result.text) as { encryptionsalt: string; config: Record<string, { secure?: string; inner?: { secure: string } }> };
    assert.equal(parsed.encryptionsalt, to.saltState);
    const reopened = await passphraseCrypter('next passphrase', parsed.encryptionsalt);
    assert.equal(await reopened.decrypt(parsed.config[`p:${first.key}`].secure!), first.plaintext);
    assert.equal(await reopened.decrypt(parsed.config['p:nested'].inner!.secure), second.plaintext);
  });

  it('a value the old key does not open is counted and left as it was; a file that is no mapping is refused', async () => {
    const from = await passphraseCrypter(stack.passphrase, stack.saltState);
    const to = await newPassphraseCrypter('x');
    const foreign = await to.encrypt('sealed elsewhere');
    const result = await rekeyConfigFile(`config:\n  p:a:\n    secure: ${foreign}\n`, from, to);
    assert.deepEqual({ rekeyed: result.rekeyed, unopened: result.unopened }, { rekeyed: 0, unopened: 1 });
    assert.ok(result.text.includes(foreign));
    await assert.rejects(rekeyConfigFile('- a list\n', from, to), SecretsError);
  });

  it("a history entry's config map: every {secure} re-sealed in place, a {secure} beside other keys is no secret", async () => {
    const from = await passphraseCrypter(stack.passphrase, stack.saltState);
    const to = await newPassphraseCrypter('y');
    const [first] = stack.config;
    const config: Record<string, unknown> = { 'p:a': { secure: first.ciphertext }, 'p:list': [{ secure: first.ciphertext }], 'p:not': { secure: first.ciphertext, other: 1 } };
    assert.deepEqual(await rekeyConfigMap(config, from, to), { rekeyed: 2, unopened: 0 });
    assert.equal(await to.decrypt((config['p:a'] as { secure: string }).secure), first.plaintext);
    assert.equal((config['p:not'] as { secure: string }).secure, first.ciphertext);
  });
});
