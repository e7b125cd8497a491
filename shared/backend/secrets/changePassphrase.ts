/**
 * A stack's secrets moved to a new passphrase, offline, as `pulumi stack change-secrets-provider
 * passphrase` does: a fresh salt, the current state's ciphertexts and `secrets_providers` re-sealed
 * under it (under Pulumi's lock, with the `.bak`), and the stack's `Pulumi.<stack>.yaml` given the new
 * `encryptionsalt` and its `secure:` values re-sealed. With `includeHistory`, the history's
 * checkpoints, the `config` of its `.history.json` entries and the stack's backups too (each under its
 * own salt's key, left as it is when that does not open it). The one implementation: `quota-state
 * secrets change-passphrase` and the Backends view's Change Passphrase... call it, each with its own
 * I/O (the store, the config file's writer, compression).
 */
import * as l10n from '@vscode/l10n';
import { parseDocument } from 'yaml';
import { readHistory, type BackendReadOptions, type BackendStack } from '../backend';
import { withStackLock, type LockIdentity, type StackLockOptions } from '../stackLock';
import { withStackWrite } from '../stackWrite';
import { listAll, objectUrl, type WritableBackendStore } from '../store';
import { compressionOf, decodeFile, type Compression } from '../../text/inflate';
import { structureOf } from '../../state/vocabulary';
import { IncorrectPassphraseError, newPassphraseCrypter, passphraseCrypter, SecretsError, type PassphraseCrypter } from './crypter';
import { rekeyState } from './rekey';
import { rekeyConfigFile, rekeyConfigMap } from './rekeyConfig';
import { passphraseSaltOf, secretsProviderOf } from './walk';

/** A change refused before anything was written (its message says so). */
export class PassphraseChangeRefusal extends SecretsError {}

export interface PassphraseChangeIo {
  store: WritableBackendStore;
  read?: BackendReadOptions;
  /** Compresses a re-sealed state as its file was. */
  compress(bytes: Uint8Array, compression: Compression): Promise<Uint8Array>;
  /** Replaces the config file's text in one step, its old text kept; answers where the old text is. */
  writeConfig(text: string): Promise<string>;
}

export interface PassphraseChange {
  stack: BackendStack;
  /** The passphrase the stack's secrets are under now, and the new one: never in a message. */
  current: string;
  next: string;
  /** `Pulumi.<stack>.yaml`: how messages name it, and its text as read. */
  config: { display: string; text: string };
  includeHistory: boolean;
  lock: StackLockOptions & { identity: LockIdentity };
}

/** What the change did: the new salt state, the secrets re-sealed, and where the old files are kept. */
export interface PassphraseChanged {
  saltState: string;
  state: number;
  config: number;
  history: { objects: number; secrets: number; unopened: string[] };
  backups: { state: string; config: string };
}

/** `text` written as `original` was: compressed alike (Pulumi sniffs the bytes, so the name stays valid). */
async function encodedLike(io: PassphraseChangeIo, original: Uint8Array, text: string): Promise<Uint8Array> {
  const compression = compressionOf(original);
  const plain = new TextEncoder().encode(text);
  return compression ? io.compress(plain, compression) : plain;
}

const decodedText = (io: PassphraseChangeIo, bytes: Uint8Array, name: string) => decodeFile(bytes, { name, maxBytes: io.read?.maxInflatedBytes, budget: io.read?.budget }).text;

async function crypterOf(passphrase: string, saltState: string, whose: string): Promise<PassphraseCrypter> {
  try {
    return await passphraseCrypter(passphrase, saltState);
  } catch (error) {
    if (error instanceof SecretsError && !(error instanceof IncorrectPassphraseError))
      throw new PassphraseChangeRefusal(l10n.t('the secrets provider of {0} cannot be used: {1}; nothing was written', whose, error.message));
    throw error;
  }
}

/** The passphrase salt state of a state's text; a refusal when its provider is not the passphrase provider. */
function saltStateOf(text: string, whose: string): string {
  const provider = secretsProviderOf(structureOf(JSON.parse(text)));
  const salt = provider && passphraseSaltOf(provider);
  if (!salt) {
    const which = provider ? l10n.t('its provider is "{0}"', provider.type) : l10n.t('it names none');
    throw new PassphraseChangeRefusal(l10n.t('{0} is not under the passphrase secrets provider ({1}); nothing was written', whose, which));
  }
  return salt;
}

/** The `encryptionsalt` of a config file's text, when it has one. */
function encryptionSaltOf(text: string): string | undefined {
  const salt: unknown = parseDocument(text).get('encryptionsalt');
  return typeof salt === 'string' && salt !== '' ? salt : undefined;
}

/** One stored state (a checkpoint, a backup) re-sealed under `to`, or undefined when it holds no secret `old` opens under its own salt. */
async function rekeyedStateBytes(io: PassphraseChangeIo, bytes: Uint8Array, name: string, old: string, to: PassphraseCrypter): Promise<{ bytes: Uint8Array; secrets: number } | undefined> {
  const root: unknown = JSON.parse(decodedText(io, bytes, name));
  const structure = structureOf(root);
  const provider = secretsProviderOf(structure);
  const salt = provider && passphraseSaltOf(provider);
  if (!salt || salt === to.saltState) return undefined;
  let from: PassphraseCrypter;
  try {
    from = await passphraseCrypter(old, salt);
  } catch (error) {
    if (error instanceof SecretsError) return undefined;
    throw error;
  }
  const { rekeyed } = await rekeyState(structure, from, to, { type: 'passphrase', state: { salt: to.saltState } });
  return { bytes: await encodedLike(io, bytes, JSON.stringify(root)), secrets: rekeyed };
}

/** Every checkpoint, `.history.json` config and backup of the stack, each written only if still the version read. */
async function rekeyHistory(io: PassphraseChangeIo, stack: BackendStack, old: string, oldSalt: string, to: PassphraseCrypter, history: PassphraseChanged['history']): Promise<void> {
  const { store } = io;
  const { entries } = await readHistory(store, stack, io.read);
  const configFrom = await passphraseCrypter(old, oldSalt);
  const write = async (name: string, edit: (bytes: Uint8Array) => Promise<{ bytes: Uint8Array; secrets: number } | undefined>) => {
    const current = await store.read(name);
    let edited: { bytes: Uint8Array; secrets: number } | undefined;
    try {
      edited = await edit(current.bytes);
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof SecretsError)) throw error;
      history.unopened.push(objectUrl(store.url, name));
      return;
    }
    if (!edited) return;
    await store.write(name, edited.bytes, { ifVersion: current.version });
    history.objects++;
    history.secrets += edited.secrets;
  };
  for (const entry of entries) {
    if (entry.checkpoint) await write(entry.checkpoint, (bytes) => rekeyedStateBytes(io, bytes, entry.checkpoint!, old, to));
    await write(entry.file, async (bytes) => {
      // A gzip backend's entries are `.history.json.gz`: read and written back compressed.
      const info = JSON.parse(decodedText(io, bytes, entry.file)) as { config?: Record<string, unknown> };
      if (!info.config) return undefined;
      const { rekeyed, unopened } = await rekeyConfigMap(info.config, configFrom, to);
      if (unopened) history.unopened.push(l10n.t('{0} config values of {1}', unopened, objectUrl(store.url, entry.file)));
      return rekeyed ? { bytes: await encodedLike(io, bytes, JSON.stringify(info)), secrets: rekeyed } : undefined;
    });
  }
  for (const backup of await listAll(store, `.pulumi/backups/${stack.project ? `${stack.project}/` : ''}${stack.name}/`)) {
    await write(backup.name, (bytes) => rekeyedStateBytes(io, bytes, backup.name, old, to));
  }
}

/**
 * Changes the stack's passphrase. The current passphrase is checked against the state's salt (and
 * the config's `encryptionsalt`) before any lock is taken: a wrong one (IncorrectPassphraseError)
 * changes nothing. A PassphraseChangeRefusal, a StackLockedError or a StoreConflict leaves the state
 * and the config file as they were.
 */
export async function changePassphrase(io: PassphraseChangeIo, change: PassphraseChange): Promise<PassphraseChanged> {
  const { store } = io;
  const { stack, current, config } = change;
  if (!stack.file) throw new PassphraseChangeRefusal(l10n.t('the stack "{0}" has no stack file', stack.ref));
  const stateName = stack.file.name;
  const shown = objectUrl(store.url, stateName);
  const decode = (bytes: Uint8Array) => decodedText(io, bytes, stateName);
  const stateText = async () => decode((await store.read(stateName)).bytes);
  await crypterOf(current, saltStateOf(await stateText(), shown), shown);
  const configSalt = encryptionSaltOf(config.text);
  const configFrom = configSalt ? await crypterOf(current, configSalt, config.display) : undefined;
  const to = await newPassphraseCrypter(change.next);
  const changed: PassphraseChanged = { saltState: to.saltState, state: 0, config: 0, history: { objects: 0, secrets: 0, unopened: [] }, backups: { state: '', config: '' } };
  changed.backups = await withStackLock(store, stack, change.lock.identity, change.lock, async () => {
    const oldSalt = saltStateOf(await stateText(), shown);
    const from = await crypterOf(current, oldSalt, shown);
    const rekeyedConfig = await rekeyConfigFile(config.text, configFrom ?? from, to);
    if (rekeyedConfig.unopened)
      throw new PassphraseChangeRefusal(l10n.t("{0} secure values of {1} do not decrypt with its encryptionsalt's key; nothing was written", rekeyedConfig.unopened, config.display));
    if (change.includeHistory) await rekeyHistory(io, stack, current, oldSalt, to, changed.history);
    const written = await withStackWrite(store, stateName, { ...change.lock, stack: null }, async (read) => {
      const root: unknown = JSON.parse(decode(read!.bytes));
      const { rekeyed, unopened } = await rekeyState(structureOf(root), from, to, { type: 'passphrase', state: { salt: to.saltState } });
      if (unopened) throw new PassphraseChangeRefusal(l10n.t("{0} secrets of {1} do not decrypt with its salt's key (`quota-state secrets check` says why); nothing was written", unopened, shown));
      changed.state = rekeyed;
      return { bytes: await encodedLike(io, read!.bytes, JSON.stringify(root)), value: undefined };
    });
    changed.config = rekeyedConfig.rekeyed;
    return { state: objectUrl(store.url, written.backup ?? `${stateName}.bak`), config: await io.writeConfig(rekeyedConfig.text) };
  });
  return changed;
}
