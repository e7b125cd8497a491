import { strict as assert } from 'node:assert';
import pulumiVectors from '../../../test/fixtures/secrets/pulumi-vectors.json';
import { structureOf } from '../../state/vocabulary';
import { encodeStdBase64 } from './base64';
import { checkConfigSecrets, checkStateSecrets, type StateSecretFinding } from './check';
import { encryptValue, IncorrectPassphraseError, keyFromPassphrase, passphraseCrypter, SecretsError } from './crypter';

const vectors = pulumiVectors as {
  stacks: Array<{ passphrase: string; saltState: string; state: Array<{ ciphertext: string }>; config: Array<{ key: string; ciphertext: string }> }>;
};
const [phrase, empty] = vectors.stacks;
const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const cipher = (text: string) => ({ [SIG]: SECRET, ciphertext: text });

/** A salt state of our own under `passphrase` (what `pulumi stack init` makes): 8 random bytes and "pulumi" sealed. */
async function newSaltState(passphrase: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(8));
  return `v1:${encodeStdBase64(salt)}:${await encryptValue(await keyFromPassphrase(passphrase, salt), 'pulumi')}`;
}

/** A state of one resource with `outputs`; its salt `saltState` (null: no secrets provider). */
const state = (outputs: Record<string, unknown>, saltState: string | null = phrase.saltState, type = 'passphrase') =>
  structureOf({
    version: 3,
    deployment: { manifest: {}, ...(saltState === null ? {} : { secrets_providers: { type, state: { salt: saltState } } }), resources: [{ urn: 'urn:r', outputs }] },
  });
const brief = (findings: StateSecretFinding[]) => findings.map((f) => [f.site.path.join('.'), f.kind === 'ciphertext' ? f.problem.kind : f.kind]);

describe("secrets check's judgement of a state (checkStateSecrets)", function () {
  this.timeout(60_000);
  let sibling: string;
  let mine: Awaited<ReturnType<typeof passphraseCrypter>>;
  before(async () => {
    sibling = await newSaltState(phrase.passphrase);
    mine = await passphraseCrypter(phrase.passphrase, phrase.saltState);
  });

  it('reports each kind of problem, in order, and counts each form', async () => {
    const fromSibling = await (await passphraseCrypter(phrase.passphrase, sibling)).encrypt('"copied-value"');
    const outputs = {
      good: cipher(phrase.state[0].ciphertext),
      leaked: { [SIG]: SECRET, plaintext: '"hunter2"' },
      broken: { [SIG]: SECRET, ciphertext: '' },
      truncated: cipher(phrase.state[1].ciphertext.slice(0, -3)),
      cutByGroups: cipher(phrase.state[1].ciphertext.slice(0, phrase.state[1].ciphertext.lastIndexOf(':') + 9)),
      copied: cipher(fromSibling),
      foreign: cipher(empty.state[0].ciphertext),
      notJson: cipher(await mine.encrypt('hunter2 is no JSON')),
    };
    const report = await checkStateSecrets(state(outputs), phrase.passphrase, [{ label: "the sibling's salt", saltState: sibling }]);
    assert.deepEqual(report.counts, { ciphertext: 6, plaintext: 1, malformed: 1 });
    assert.equal(report.needsPassphrase, false);
    assert.equal(report.saltState, phrase.saltState);
    assert.deepEqual(brief(report.findings), [
      ['outputs.leaked', 'plaintext'],
      ['outputs.broken', 'malformed'],
      ['outputs.truncated', 'damaged'],
      ['outputs.cutByGroups', 'no-key'],
      ['outputs.copied', 'other-key'],
      ['outputs.foreign', 'no-key'],
      ['outputs.notJson', 'not-json'],
    ]);
    const copied = report.findings.find((f) => f.site.path[1] === 'copied')!;
    assert.deepEqual(copied.kind === 'ciphertext' && copied.problem, { kind: 'other-key', opensWith: "the sibling's salt" });
    assert.ok(!JSON.stringify(report).includes('hunter2') && !JSON.stringify(report).includes('copied-value'), 'no value in the report');
  });

  it('a clean state has no findings; other salts are not even looked for', async () => {
    let asked = false;
    const report = await checkStateSecrets(state({ a: cipher(phrase.state[0].ciphertext), b: cipher(phrase.state[2].ciphertext) }), phrase.passphrase, async () => ((asked = true), []));
    assert.deepEqual(report.findings, []);
    assert.equal(asked, false);
  });

  it('without a passphrase: plaintext secrets are reported, the ciphertexts left unchecked', async () => {
    const report = await checkStateSecrets(state({ a: cipher('v1:x:y'), leaked: { [SIG]: SECRET, plaintext: '1' } }), undefined);
    assert.equal(report.needsPassphrase, true);
    assert.deepEqual(brief(report.findings), [['outputs.leaked', 'plaintext']]);
  });

  it('without ciphertexts, no passphrase is needed', async () => {
    assert.equal((await checkStateSecrets(state({ leaked: { [SIG]: SECRET, plaintext: '1' } }), undefined)).needsPassphrase, false);
  });

  it('ciphertexts in a state that names no secrets provider: each a finding, as Pulumi cannot decrypt them', async () => {
    const report = await checkStateSecrets(state({ a: cipher(phrase.state[0].ciphertext) }, null), phrase.passphrase);
    assert.deepEqual(brief(report.findings), [['outputs.a', 'no-provider']]);
  });

  it('a wrong passphrase is IncorrectPassphraseError; another provider or a malformed salt a SecretsError', async () => {
    await assert.rejects(checkStateSecrets(state({ a: cipher(phrase.state[0].ciphertext) }), 'wrong'), IncorrectPassphraseError);
    await assert.rejects(checkStateSecrets(state({ a: cipher('v1:x:y') }, 'x', 'service'), phrase.passphrase), (e: unknown) => e instanceof SecretsError && /"service"/.test(e.message));
    await assert.rejects(checkStateSecrets(state({ a: cipher('v1:x:y') }, 'v1'), phrase.passphrase), (e: unknown) => e instanceof SecretsError && e.message === 'malformed state value');
  });
});

describe("secrets check's judgement of a stack's config (checkConfigSecrets)", function () {
  this.timeout(60_000);
  const config = Object.fromEntries(phrase.config.map(({ key, ciphertext }) => [`vectors:${key}`, { secure: ciphertext }]));

  it("Pulumi's own config secrets open with their encryptionsalt", async () => {
    assert.deepEqual(await checkConfigSecrets(config, phrase.saltState, phrase.passphrase), []);
  });

  it("one of another stack's, nested or not, is a finding; a value of the config is no JSON and needs none", async () => {
    const findings = await checkConfigSecrets({ ...config, 'vectors:db': { password: { secure: empty.config[0].ciphertext } } }, phrase.saltState, phrase.passphrase);
    assert.deepEqual(findings, [{ key: 'vectors:db', path: ['password'], problem: { kind: 'no-key' } }]);
  });

  it('without an encryptionsalt, or with a passphrase that does not open it, every secure value is a finding', async () => {
    assert.deepEqual(
      (await checkConfigSecrets(config, undefined, phrase.passphrase)).map((f) => f.problem.kind),
      phrase.config.map(() => 'no-salt'),
    );
    assert.deepEqual(
      (await checkConfigSecrets(config, phrase.saltState, 'wrong')).map((f) => f.problem.kind),
      phrase.config.map(() => 'wrong-passphrase'),
    );
  });
});
