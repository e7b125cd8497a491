/**
 * One secret's value, found by a property path in its record and opened: the path may end at a
 * secret or go on inside one (`outputs.credentials.password` where `credentials` is secret). A secret
 * holds the JSON text of its value (deployment.go's `SerializePropertyValue`: the value serialised,
 * then `json.Marshal`), encrypted or not; secrets inside it were serialised with the no-op encrypter,
 * so their `ciphertext` is that JSON text too, and is read as such (`NopDecrypter`).
 */
import { CiphertextError, SecretsError } from './crypter';
import { findSecrets, isObject, storedSecret, type StateStructure } from '../../state/vocabulary';

type PathElement = string | number;

/** A secret that opens to text that is no JSON value: Pulumi cannot read it either (`secretPropertyValueFromPlaintext`). */
export class NotJsonSecretError extends SecretsError {
  constructor() {
    super('the secret opens to text that is no JSON value, which Pulumi cannot read either');
  }
}

export type Revealed =
  /** The value at the path, which a secret holds. */
  | { found: true; value: unknown }
  /** `missing`: the path leads nowhere in the record; `not-secret`: to a value no secret holds; `malformed`: through a secret with neither or both fields. */
  | { found: false; reason: 'missing' | 'not-secret' | 'malformed' };

/** JSON text's value; a message that quotes none of it when it is no JSON (JSON.parse's own would). */
function parseSecretJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotJsonSecretError();
  }
}

/** The value a secret object holds: its plaintext, or its ciphertext decrypted (outside a secret) or read as JSON (inside one). */
async function open(value: unknown, inside: boolean, decrypt: (ciphertext: string) => Promise<string>): Promise<{ value: unknown } | 'malformed' | undefined> {
  const secret = storedSecret(value);
  if (!secret) return undefined;
  if (secret.form === 'malformed') return 'malformed';
  if (secret.form === 'plaintext') return { value: parseSecretJson(secret.plaintext) };
  return { value: parseSecretJson(inside ? secret.ciphertext : await decrypt(secret.ciphertext)) };
}

/** `value` with every secret inside it (in the no-op encrypter's form) replaced by the value it holds. */
function unwrapNested(value: unknown): unknown {
  const secret = storedSecret(value);
  if (secret?.form === 'ciphertext') return unwrapNested(parseSecretJson(secret.ciphertext));
  if (secret?.form === 'plaintext') return unwrapNested(parseSecretJson(secret.plaintext));
  if (Array.isArray(value)) return value.map(unwrapNested);
  if (isObject(value) && !secret) return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, unwrapNested(member)]));
  return value;
}

/**
 * The value at `path` in `record`, opening each secret on the way (`decrypt` is called only for a
 * ciphertext, at most once: secrets inside it are not encrypted again). Steps as Pulumi's
 * `PropertyPath.Get`: an index into an array, a key into an object.
 */
export async function revealAt(record: unknown, path: readonly PathElement[], decrypt: (ciphertext: string) => Promise<string>): Promise<Revealed> {
  let value = record;
  let inside = false;
  for (let step = 0; ; step++) {
    const opened = await open(value, inside, decrypt);
    if (opened === 'malformed') return { found: false, reason: 'malformed' };
    if (opened) [value, inside] = [opened.value, true];
    if (step === path.length) break;
    const element = path[step];
    if (Array.isArray(value) && typeof element === 'number' && element >= 0 && element < value.length) value = value[element];
    else if (isObject(value) && typeof element === 'string' && Object.prototype.hasOwnProperty.call(value, element)) value = value[element];
    else return { found: false, reason: 'missing' };
  }
  return inside ? { found: true, value: unwrapNested(value) } : { found: false, reason: 'not-secret' };
}

/**
 * A config map (a history entry's `config`) with each `{"secure": "v1:…"}` replaced by its plaintext,
 * the value itself (config values are encrypted as they are, not as JSON): what `pulumi stack history
 * --show-secrets` shows of them.
 */
export async function openConfig(config: Record<string, unknown>, decrypt: (ciphertext: string) => Promise<string>): Promise<Record<string, unknown>> {
  const open = async (value: unknown): Promise<unknown> => {
    if (isObject(value) && typeof value.secure === 'string' && Object.keys(value).length === 1) return decrypt(value.secure);
    if (Array.isArray(value)) return Promise.all(value.map(open));
    if (isObject(value)) return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([key, member]) => [key, await open(member)])));
    return value;
  };
  return Object.fromEntries(await Promise.all(Object.entries(config).map(async ([key, value]) => [key, await open(value)])));
}

/**
 * Every ciphertext secret of the state's records turned, in its document, into the same secret in
 * plaintext (`{"4dab…": "1b47…", "plaintext": "<JSON text>"}`), as `pulumi stack export
 * --show-secrets` writes it: what `diff --show-secrets` compares. A ciphertext `decrypt` cannot open
 * (a CiphertextError) stays as it is; answers how many stayed.
 */
export async function openCiphertexts(structure: StateStructure, decrypt: (ciphertext: string) => Promise<string>): Promise<number> {
  let unopened = 0;
  for (const site of findSecrets(structure)) {
    if (site.secret.form !== 'ciphertext') continue;
    let container: unknown = structure.root;
    for (const step of site.jsonPath.slice(0, -1)) container = (container as Record<string | number, unknown>)[step];
    const holder = container as Record<string | number, unknown>;
    const secret = holder[site.jsonPath[site.jsonPath.length - 1]] as Record<string, unknown>;
    try {
      const plaintext = await decrypt(site.secret.ciphertext);
      holder[site.jsonPath[site.jsonPath.length - 1]] = { ...Object.fromEntries(Object.entries(secret).filter(([key]) => key !== 'ciphertext')), plaintext };
    } catch (error) {
      if (!(error instanceof CiphertextError)) throw error;
      unopened++;
    }
  }
  return unopened;
}
