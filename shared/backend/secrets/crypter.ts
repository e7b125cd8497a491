/**
 * Pulumi's passphrase secrets provider, offline, on WebCrypto alone (`globalThis.crypto.subtle`, in
 * Node 20 and the browser). As v3.274.1 does it (docs/pulumi-secrets.md has the lines):
 * sdk/go/common/resource/config/crypt.go derives a 32-byte key with PBKDF2-HMAC-SHA256, 1,000,000
 * iterations, from the passphrase and the salt (`NewSymmetricCrypterFromPassphrase`), and seals each
 * value with AES-256-GCM under a fresh 12-byte nonce, written `v1:<nonce>:<ciphertext>` in standard
 * base64 (`EncryptValue`, `DecryptValue`); pkg/secrets/passphrase/manager.go keeps the salt as
 * `v1:<salt>:<"pulumi" encrypted>` and takes a passphrase only when that check value decrypts to
 * "pulumi" (`symmetricCrypterFromPhraseAndState`), else "incorrect passphrase".
 *
 * A derivation costs about a second, so each key is derived once per salt and passphrase and kept in
 * memory (a Map keyed by a SHA-256 of both, never by either). No message here carries a value, a
 * passphrase or a key.
 */
import { decodeStdBase64, encodeStdBase64 } from './base64';

/** `pbkdf2.Key(phrase, salt, 1000000, SymmetricCrypterKeyBytes, sha256.New)` (crypt.go). */
const PBKDF2_ITERATIONS = 1_000_000;
/** `SymmetricCrypterKeyBytes` (crypt.go): AES-256. */
const KEY_BITS = 256;
/** `make([]byte, 12)` in `encryptAES256GCGM`, and `aesgcm.NonceSize()` on the way back. */
const NONCE_BYTES = 12;
/** What the salt's check value decrypts to under the right passphrase (manager.go). */
const CHECK_VALUE = 'pulumi';

type AesKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Why something of the passphrase provider cannot be used; the message is Pulumi's, and names no value. */
export class SecretsError extends Error {}

/** The passphrase does not open the salt: manager.go's `ErrIncorrectPassphrase`. */
export class IncorrectPassphraseError extends SecretsError {
  constructor() {
    super('incorrect passphrase');
  }
}

/**
 * A ciphertext that does not decrypt: `malformed` when it is no `v1:` ciphertext at all (crypt.go's
 * "bad value", "unknown value version", "illegal base64 data", "nonce size is incorrect": damaged,
 * truncated, or never one), `key` when GCM's authentication fails (another key sealed it, or its
 * bytes changed).
 */
export class CiphertextError extends SecretsError {
  constructor(
    message: string,
    readonly reason: 'malformed' | 'key',
  ) {
    super(message);
  }
}

const keys = new Map<string, Promise<AesKey>>();
/** Enough for every salt a command meets (its stack's, its config's, a few others' to explain a failure). */
const MAX_CACHED_KEYS = 64;
const utf8 = new TextEncoder();

async function cacheKeyOf(passphrase: string, salt: Uint8Array): Promise<string> {
  const phrase = utf8.encode(passphrase);
  const both = new Uint8Array(4 + salt.length + phrase.length);
  new DataView(both.buffer).setUint32(0, salt.length);
  both.set(salt, 4);
  both.set(phrase, 4 + salt.length);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', both));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The AES-256-GCM key of `passphrase` and `salt`, derived once per pair (`NewSymmetricCrypterFromPassphrase`). */
export async function keyFromPassphrase(passphrase: string, salt: Uint8Array): Promise<AesKey> {
  const id = await cacheKeyOf(passphrase, salt);
  let key = keys.get(id);
  if (!key) {
    key = derive(passphrase, salt);
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    keys.set(id, key);
    key.catch(() => keys.delete(id));
  }
  return key;
}

async function derive(passphrase: string, salt: Uint8Array): Promise<AesKey> {
  const material = await crypto.subtle.importKey('raw', utf8.encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: PBKDF2_ITERATIONS }, material, { name: 'AES-GCM', length: KEY_BITS }, false, ['encrypt', 'decrypt']);
}

/**
 * The plaintext of one `v1:<nonce>:<ciphertext>` (crypt.go's `symmetricCrypter.DecryptValue`): three
 * parts exactly, version `v1`, both in standard base64, a 12-byte nonce, then GCM's open.
 */
export async function decryptValue(key: AesKey, value: string): Promise<string> {
  const parts = value.split(':');
  if (parts.length !== 3) throw new CiphertextError('bad value', 'malformed');
  if (parts[0] !== 'v1') throw new CiphertextError('unknown value version', 'malformed');
  const nonce = decodeStdBase64(parts[1]);
  const sealed = decodeStdBase64(parts[2]);
  if (!nonce || !sealed) throw new CiphertextError('bad value: illegal base64 data', 'malformed');
  if (nonce.length !== NONCE_BYTES) throw new CiphertextError('bad value: nonce size is incorrect', 'malformed');
  let opened: ArrayBuffer;
  try {
    opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, key, sealed);
  } catch {
    // Go's aesgcm.Open says this of a short input and of a wrong tag alike.
    throw new CiphertextError('cipher: message authentication failed', 'key');
  }
  return new TextDecoder().decode(opened);
}

/** `v1:<nonce>:<ciphertext>` of `plaintext` under a fresh random nonce (crypt.go's `EncryptValue`). */
export async function encryptValue(key: AesKey, plaintext: string): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, key, utf8.encode(plaintext)));
  return `v1:${encodeStdBase64(nonce)}:${encodeStdBase64(sealed)}`;
}

/**
 * A passphrase salt state `v1:<salt>:<check value>` taken apart as manager.go's
 * `symmetricCrypterFromPhraseAndState` does (`strings.SplitN(state, ":", 3)`): the check value is the
 * rest, itself a `v1:` ciphertext.
 */
export function parseSaltState(state: string): { salt: Uint8Array; check: string } {
  const at = state.indexOf(':');
  const next = at === -1 ? -1 : state.indexOf(':', at + 1);
  if (next === -1) throw new SecretsError('malformed state value');
  if (state.slice(0, at) !== 'v1') throw new SecretsError('unknown state version');
  const salt = decodeStdBase64(state.slice(at + 1, next));
  if (!salt) throw new SecretsError('illegal base64 data in the salt');
  return { salt, check: state.slice(next + 1) };
}

/** What decrypts and encrypts one stack's secrets: its salt state's key, the passphrase checked. */
export interface PassphraseCrypter {
  /** The salt state it was opened with (`v1:<salt>:<check value>`). */
  readonly saltState: string;
  decrypt(ciphertext: string): Promise<string>;
  encrypt(plaintext: string): Promise<string>;
}

/** Opens `saltState` with `passphrase`; IncorrectPassphraseError unless its check value decrypts to "pulumi". */
export async function passphraseCrypter(passphrase: string, saltState: string): Promise<PassphraseCrypter> {
  const { salt, check } = parseSaltState(saltState);
  const key = await keyFromPassphrase(passphrase, salt);
  let opened: string | undefined;
  try {
    opened = await decryptValue(key, check);
  } catch (error) {
    if (!(error instanceof CiphertextError)) throw error;
  }
  if (opened !== CHECK_VALUE) throw new IncorrectPassphraseError();
  return { saltState, decrypt: (ciphertext) => decryptValue(key, ciphertext), encrypt: (plaintext) => encryptValue(key, plaintext) };
}

/** Pulumi's salt length (manager.go's `NewPassphraseSecretsManager`: `make([]byte, 8)`). */
const SALT_BYTES = 8;

/**
 * A fresh salt for `passphrase`, as `NewPassphraseSecretsManager` makes one: eight random bytes, and
 * "pulumi" encrypted under their key as the check value; answers its crypter (`saltState` is the new
 * `v1:<salt>:<check value>`).
 */
export async function newPassphraseCrypter(passphrase: string): Promise<PassphraseCrypter> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await keyFromPassphrase(passphrase, salt);
  const saltState = `v1:${encodeStdBase64(salt)}:${await encryptValue(key, CHECK_VALUE)}`;
  return { saltState, decrypt: (ciphertext) => decryptValue(key, ciphertext), encrypt: (plaintext) => encryptValue(key, plaintext) };
}
