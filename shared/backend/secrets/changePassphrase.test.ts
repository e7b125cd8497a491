import { strict as assert } from 'node:assert';
import { gunzipSync, gzipSync } from 'node:zlib';
import { memoryStore } from '../../../test/helpers/memoryStore';
import { readBackend } from '../backend';
import { changePassphrase, PassphraseChangeRefusal, type PassphraseChangeIo } from './changePassphrase';
import { IncorrectPassphraseError, newPassphraseCrypter, passphraseCrypter, type PassphraseCrypter } from './crypter';

const SIG = '4dabf18193072939515e22adb298388d';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const STATE = '.pulumi/stacks/p/dev.json';
const lock = { identity: { pid: 1, username: 'test', hostname: 'test' } };

async function stateUnder(crypter: PassphraseCrypter): Promise<string> {
  const resources = [{ urn: 'urn:pulumi:dev::p::x:y:Db::db', custom: true, type: 'x:y:Db', id: 'db', outputs: { pw: { [SIG]: SECRET, ciphertext: await crypter.encrypt('"hunter2"') } } }];
  return JSON.stringify({ version: 3, checkpoint: { stack: 'organization/p/dev', latest: { secrets_providers: { type: 'passphrase', state: { salt: crypter.saltState } }, resources } } });
}

/** A backend with the stack `p/dev` under `crypter`, its config text, and an I/O that records the config written. */
async function fixture(crypter: PassphraseCrypter, configCrypter = crypter) {
  const store = memoryStore({ '.pulumi/meta.yaml': 'version: 1\n', [STATE]: await stateUnder(crypter) });
  const stack = (await readBackend(store)).stacks[0];
  const config = { display: 'Pulumi.dev.yaml', text: `# kept\nencryptionsalt: ${configCrypter.saltState}\nconfig:\n  p:token:\n    secure: ${await configCrypter.encrypt('s3cr3t')}\n` };
  const written: string[] = [];
  const io: PassphraseChangeIo = { store, compress: () => Promise.reject(new Error('no compression here')), writeConfig: (text) => Promise.resolve(String(written.push(text))) };
  return { store, stack, config, written, io };
}

describe('changePassphrase: the orchestration the CLI and the Backends view share', function () {
  this.timeout(120_000);

  it('a wrong current passphrase: IncorrectPassphraseError, nothing written, no lock taken', async () => {
    const { store, stack, config, written, io } = await fixture(await newPassphraseCrypter('old'));
    const before = store.text(STATE);
    await assert.rejects(changePassphrase(io, { stack, current: 'wrong', next: 'new', config, includeHistory: false, lock }), IncorrectPassphraseError);
    assert.equal(store.text(STATE), before);
    assert.deepEqual(written, []);
    assert.deepEqual([...store.files.keys()].sort(), ['.pulumi/meta.yaml', STATE]);
  });

  it('a config secure value another key sealed: refused, nothing written', async () => {
    const { store, stack, config, written, io } = await fixture(await newPassphraseCrypter('old'));
    const stranger = await newPassphraseCrypter('old');
    const text = config.text.replace(/secure: .*/, `secure: ${await stranger.encrypt('x')}`);
    const before = store.text(STATE);
    await assert.rejects(changePassphrase(io, { stack, current: 'old', next: 'new', config: { ...config, text }, includeHistory: false, lock }), PassphraseChangeRefusal);
    assert.equal(store.text(STATE), before);
    assert.deepEqual(written, []);
  });

  it('the state and the config sealed under a new salt that only the new passphrase opens; the old state kept as .bak', async () => {
    const { store, stack, config, written, io } = await fixture(await newPassphraseCrypter('old'));
    const changed = await changePassphrase(io, { stack, current: 'old', next: 'new', config, includeHistory: false, lock });
    assert.deepEqual([changed.state, changed.config], [1, 1]);
    const root = JSON.parse(store.text(STATE)!) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } }; resources: Array<{ outputs: { pw: { ciphertext: string } } }> } } };
    const { latest } = root.checkpoint;
    assert.equal(latest.secrets_providers.state.salt, changed.saltState);
    const to = await passphraseCrypter('new', changed.saltState);
    assert.equal(await to.decrypt(latest.resources[0].outputs.pw.ciphertext), '"hunter2"');
    await assert.rejects(passphraseCrypter('old', changed.saltState), IncorrectPassphraseError);
    assert.ok(store.text(`${STATE}.bak`));
    assert.equal(written.length, 1);
    assert.ok(written[0].startsWith('# kept\n') && written[0].includes(`encryptionsalt: ${changed.saltState}`), written[0]);
    assert.equal(await to.decrypt(/secure: (\S+)/.exec(written[0])![1]), 's3cr3t');
    assert.deepEqual(
      [...store.files.keys()].filter((name) => name.startsWith('.pulumi/locks/')),
      [],
      'the lock released',
    );
  });

  it("--include-history on a gzip backend: each checkpoint and entry's config re-sealed and written back gzip-compressed", async () => {
    const from = await newPassphraseCrypter('old');
    const { stack, config, io } = await fixture(from);
    const history = '.pulumi/history/p/dev/dev-1700000000000000000';
    const gz = (text: string) => gzipSync(Buffer.from(text));
    const entry = JSON.stringify({ kind: 'update', result: 'succeeded', config: { 'p:token': { secure: await from.encrypt('s3cr3t') } } });
    const withHistory = memoryStore({
      '.pulumi/meta.yaml': 'version: 1\n',
      [`${STATE}.gz`]: gz(await stateUnder(from)),
      [`${history}.checkpoint.json.gz`]: gz(await stateUnder(from)),
      [`${history}.history.json.gz`]: gz(entry),
    });
    const gzStack = (await readBackend(withHistory)).stacks[0];
    assert.equal(gzStack.name, stack.name);
    const changed = await changePassphrase(
      { ...io, store: withHistory, compress: (bytes) => Promise.resolve(new Uint8Array(gzipSync(bytes))) },
      { stack: gzStack, current: 'old', next: 'new', config, includeHistory: true, lock },
    );
    assert.deepEqual(changed.history.unopened, []);
    assert.equal(changed.history.objects, 2);
    const to = await passphraseCrypter('new', changed.saltState);
    const read = (name: string) => JSON.parse(gunzipSync(withHistory.files.get(name)!.bytes).toString('utf8')) as unknown;
    assert.equal(await to.decrypt((read(`${history}.history.json.gz`) as { config: { 'p:token': { secure: string } } }).config['p:token'].secure), 's3cr3t');
    const checkpoint = read(`${history}.checkpoint.json.gz`) as { checkpoint: { latest: { secrets_providers: { state: { salt: string } } } } };
    assert.equal(checkpoint.checkpoint.latest.secrets_providers.state.salt, changed.saltState);
    assert.equal((read(`${STATE}.gz`) as typeof checkpoint).checkpoint.latest.secrets_providers.state.salt, changed.saltState);
  });
});
