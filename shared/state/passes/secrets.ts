/**
 * Where a state keeps Pulumi's secrets, found as Pulumi finds them (pkg/resource/stack/deployment.go
 * at v3.274.1: `enqueueCiphertexts`, `DeserializePropertyValue`'s `SecretSig` case, `deserializeSecret`):
 * in every record of `resources` and of `pending_operations`, any object whose signature key holds the
 * secret signature, `{"4dab...": "1b47...", "ciphertext": "v1:..."}` or `{"4dab...": "1b47...",
 * "plaintext": "<JSON text>"}`. An object with another signature (an asset, an archive, a resource
 * reference) is not looked into, as Pulumi does not; a secret's value is inside its ciphertext or
 * plaintext, and a secret within a secret is not looked for. `findSecrets` is the one walker: the two
 * secret rules read it (their well-formed secrets, `stateSecrets`; the malformed ones are
 * `malformed-property-value`'s), and so do the backend's secrets commands (check, reveal, re-key).
 *
 * Decrypting is not done here: the state kind has no key. `SecretsPass` is what a caller that holds
 * the stack's key found (shared/backend's `stateSecretsPass`: the language server's second,
 * asynchronous pass, and `quota-state check` with a passphrase): the ciphertexts that do not open with
 * it, and each plaintext secret encrypted under it, for the fix.
 */
import type { JsonPath } from '../model/locate';
import { isObject, type StateStructure } from '../model/structure';

/** `resource.SigKey` and `resource.SecretSig` (sdk/go/common/resource/sig). */
export const SECRET_SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
export const SECRET_SIGNATURE = '1b47061264138c4ac30d75fd1eb44270';

type PathElement = string | number;

/**
 * A secret as stored: encrypted, in plaintext, or neither (both fields, none, or an empty one:
 * "malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied").
 */
export type StoredSecret = { form: 'ciphertext'; ciphertext: string } | { form: 'plaintext'; plaintext: string } | { form: 'malformed' };

/** The secret `value` is, or undefined when it is none (`DeserializePropertyValue`'s `SecretSig` case: each field taken when it is a string). */
export function storedSecret(value: unknown): StoredSecret | undefined {
  if (!isObject(value) || value[SECRET_SIGNATURE_KEY] !== SECRET_SIGNATURE) return undefined;
  const { ciphertext, plaintext } = value;
  const hasCiphertext = typeof ciphertext === 'string';
  const hasPlaintext = typeof plaintext === 'string';
  // One of them, as a string, and not empty: deserializeSecret refuses an empty one as it refuses none.
  if (hasCiphertext === hasPlaintext) return { form: 'malformed' };
  if (hasCiphertext) return ciphertext === '' ? { form: 'malformed' } : { form: 'ciphertext', ciphertext };
  return plaintext === '' ? { form: 'malformed' } : { form: 'plaintext', plaintext: plaintext as string };
}

/** One secret of a state: its record, where in the record, and how it is stored. */
export interface SecretSite {
  /** The record's urn, when it has one. */
  urn?: string;
  /** The record's index in `resources`, or in `pending_operations` when `pending`. */
  index: number;
  pending: boolean;
  /** The secret's path within its record (`['outputs', 'password']`), as a property path prints it. */
  path: PathElement[];
  /** The secret object's path in the document. */
  jsonPath: JsonPath;
  secret: StoredSecret;
}

/** Every secret below `value`, whose path within its record is `path` (a stack, copied only for a secret found: most values hold none). */
function collect(value: unknown, path: PathElement[], found: Array<{ path: PathElement[]; secret: StoredSecret }>): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      collect(value[index], path, found);
      path.pop();
    }
    return;
  }
  const object = value as Record<string, unknown>;
  if (SECRET_SIGNATURE_KEY in object) {
    const secret = storedSecret(object);
    if (secret) found.push({ path: [...path], secret });
    return;
  }
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    path.push(key);
    collect(object[key], path, found);
    path.pop();
  }
}

/** Every secret of the state's records (resources, then pending operations'), whole records walked, in the document's order. */
export function findSecrets(structure: StateStructure): SecretSite[] {
  const sites: SecretSite[] = [];
  const records = [...structure.resources.map((entry) => ({ entry, pending: false })), ...structure.pendingResources.map((entry) => ({ entry, pending: true }))];
  for (const { entry, pending } of records) {
    if (!isObject(entry.value)) continue;
    const found: Array<{ path: PathElement[]; secret: StoredSecret }> = [];
    // A record is no property value: its members are walked, whatever keys it has.
    for (const key in entry.value) if (Object.prototype.hasOwnProperty.call(entry.value, key)) collect(entry.value[key], [key], found);
    for (const { path, secret } of found) sites.push({ ...(entry.urn !== undefined ? { urn: entry.urn } : {}), index: entry.index, pending, path, jsonPath: [...entry.path, ...path], secret });
  }
  return sites;
}

/** A secret the two secret rules read: a ciphertext, or a plaintext of JSON text (Pulumi parses it; what is not is `malformed-property-value`'s). */
function isWellFormed({ secret }: SecretSite): boolean {
  if (secret.form === 'ciphertext') return true;
  if (secret.form === 'malformed') return false;
  try {
    JSON.parse(secret.plaintext);
    return true;
  } catch {
    return false;
  }
}

/** Every well-formed secret of the state's records, in the document's order. */
export function stateSecrets(structure: StateStructure): SecretSite[] {
  return findSecrets(structure).filter(isWellFormed);
}

/** Why a ciphertext does not open with the stack's key (never its value). */
export type UndecryptableCause =
  /** Not a `v1:` ciphertext Pulumi reads; `message` is Pulumi's ("bad value", "nonce size is incorrect", …). */
  | { kind: 'damaged'; message: string }
  /** Another key sealed it: another stack's salt, or a passphrase since changed. */
  | { kind: 'no-key' }
  /** It opens, but to no JSON text, which Pulumi cannot read. */
  | { kind: 'not-json' };

/** What a caller holding the stack's key found of its secrets, keyed by `pathKey` of each secret's path. */
export interface SecretsPass {
  /** The ciphertexts that do not open with the stack's key. */
  readonly undecryptable: ReadonlyMap<string, UndecryptableCause>;
  /** Each plaintext secret's value encrypted under the stack's key (`v1:…`), for the quick fix. */
  readonly encrypted: ReadonlyMap<string, string>;
}
