import { strict as assert } from 'node:assert';
import { NotJsonSecretError, openConfig, revealAt } from './reveal';

const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
/** A stand-in for the key: `enc:<text>` decrypts to `<text>`, and each call is counted. */
let decrypted = 0;
const decrypt = async (ciphertext: string) => {
  decrypted++;
  if (!ciphertext.startsWith('enc:')) throw new Error('not ours');
  return ciphertext.slice(4);
};
const cipher = (value: unknown) => ({ [SIG]: SECRET, ciphertext: `enc:${JSON.stringify(value)}` });
const plain = (value: unknown) => ({ [SIG]: SECRET, plaintext: JSON.stringify(value) });
/** A secret inside a secret, as Pulumi serialises it: the no-op encrypter's "ciphertext" is the JSON text. */
const nested = (value: unknown) => ({ [SIG]: SECRET, ciphertext: JSON.stringify(value) });

const record = {
  urn: 'urn:x',
  inputs: { tags: { 'a.b': cipher('dotted'), plain: 'visible' } },
  outputs: {
    password: cipher('hunter2'),
    port: cipher(5432),
    credentials: cipher({ user: 'admin', password: 'pw', inner: nested({ deeper: 'yes' }) }),
    list: [cipher('first'), 'second'],
    leaked: plain({ a: 1 }),
    broken: { [SIG]: SECRET },
    notJson: { [SIG]: SECRET, ciphertext: 'enc:hunter2 is no JSON' },
  },
};

describe("one secret's value by a property path (revealAt)", () => {
  const cases: Array<[string, Array<string | number>, Awaited<ReturnType<typeof revealAt>>]> = [
    ['a string', ['outputs', 'password'], { found: true, value: 'hunter2' }],
    ['a number', ['outputs', 'port'], { found: true, value: 5432 }],
    ['an object, a secret inside it opened too', ['outputs', 'credentials'], { found: true, value: { user: 'admin', password: 'pw', inner: { deeper: 'yes' } } }],
    ['a member inside a secret object', ['outputs', 'credentials', 'password'], { found: true, value: 'pw' }],
    ['through a secret inside a secret', ['outputs', 'credentials', 'inner', 'deeper'], { found: true, value: 'yes' }],
    ['an array element', ['outputs', 'list', 0], { found: true, value: 'first' }],
    ['a key with a dot', ['inputs', 'tags', 'a.b'], { found: true, value: 'dotted' }],
    ['a plaintext secret', ['outputs', 'leaked'], { found: true, value: { a: 1 } }],
    ['a value that is no secret', ['outputs', 'list', 1], { found: false, reason: 'not-secret' }],
    ['a container of secrets is not one', ['outputs'], { found: false, reason: 'not-secret' }],
    ['no such key', ['outputs', 'nope'], { found: false, reason: 'missing' }],
    ['an index past the end', ['outputs', 'list', 2], { found: false, reason: 'missing' }],
    ['a key into an array', ['outputs', 'list', 'x'], { found: false, reason: 'missing' }],
    ['an index into an object', ['outputs', 0], { found: false, reason: 'missing' }],
    ['past a leaf', ['outputs', 'password', 'x'], { found: false, reason: 'missing' }],
    ['a malformed secret', ['outputs', 'broken'], { found: false, reason: 'malformed' }],
  ];
  for (const [name, path, expected] of cases) it(name, async () => assert.deepEqual(await revealAt(record, path, decrypt), expected));

  it('decrypts only the ciphertext on the path, once', async () => {
    decrypted = 0;
    await revealAt(record, ['outputs', 'credentials', 'inner', 'deeper'], decrypt);
    assert.equal(decrypted, 1);
    decrypted = 0;
    await revealAt(record, ['outputs', 'leaked'], decrypt);
    assert.equal(decrypted, 0, 'a plaintext secret needs no key');
  });

  it("a secret that opens to no JSON is refused with a message that quotes none of it (JSON.parse's would)", async () => {
    await assert.rejects(revealAt(record, ['outputs', 'notJson'], decrypt), (error: unknown) => error instanceof NotJsonSecretError && !error.message.includes('hunter2'));
  });

  it("a key's errors pass through", async () => {
    await assert.rejects(revealAt({ outputs: { x: { [SIG]: SECRET, ciphertext: 'v1:other' } } }, ['outputs', 'x'], decrypt), /not ours/);
  });
});

describe('config with its secure values opened (openConfig)', () => {
  it('replaces each {secure} by its plaintext, the value itself, in place', async () => {
    const opened = await openConfig({ 'p:plain': 'x', 'p:token': { secure: 'enc:s3cr3t' }, 'p:db': { password: { secure: 'enc:pw' }, list: [{ secure: 'enc:1' }, 2] } }, decrypt);
    assert.deepEqual(opened, { 'p:plain': 'x', 'p:token': 's3cr3t', 'p:db': { password: 'pw', list: ['1', 2] } });
  });
});
