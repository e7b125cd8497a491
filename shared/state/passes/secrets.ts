/**
 * Where a state keeps Pulumi's secrets, for the two secret rules: every object whose signature key
 * holds the secret signature, in every record of `resources` and of `pending_operations`, stored in
 * plaintext or as a ciphertext (pkg/resource/stack/deployment.go at v3.274.1: `DeserializePropertyValue`'s
 * `SecretSig` case, `deserializeSecret`). A secret's value is inside it: a secret within a secret is
 * not looked for. Malformed secrets (both fields, none, an empty one, a plaintext that is no JSON)
 * are `malformed-property-value`'s.
 *
 * Decrypting is not done here: the state kind has no key. `SecretsPass` is what a caller that holds
 * the stack's key found (the language server's second, asynchronous pass, with a passphrase): the
 * ciphertexts that do not open with it, and each plaintext secret encrypted under it, for the fix.
 */
import type { JsonPath } from '../model/locate';
import { isObject, type StateStructure } from '../model/structure';

/** `resource.SigKey` and `resource.SecretSig` (sdk/go/common/resource/sig). */
export const SECRET_SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
export const SECRET_SIGNATURE = '1b47061264138c4ac30d75fd1eb44270';

/** One well-formed secret of a state: where its object is, and what it holds. */
export type StateSecret = { path: JsonPath; form: 'plaintext'; plaintext: string } | { path: JsonPath; form: 'ciphertext'; ciphertext: string };

/** The secret `value` is when it is a well-formed one. */
function secretOf(value: Record<string, unknown>, path: JsonPath): StateSecret | undefined {
  const { ciphertext, plaintext } = value;
  if (typeof ciphertext === 'string' && plaintext === undefined && ciphertext !== '') return { path, form: 'ciphertext', ciphertext };
  if (typeof plaintext !== 'string' || ciphertext !== undefined || plaintext === '') return undefined;
  try {
    JSON.parse(plaintext);
  } catch {
    return undefined;
  }
  return { path, form: 'plaintext', plaintext };
}

/** Every secret below `value`, whose path is `path` (a stack, copied only for a secret found: most values hold none). */
function collect(value: unknown, path: Array<string | number>, found: StateSecret[]): void {
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
    const secret = object[SECRET_SIGNATURE_KEY] === SECRET_SIGNATURE ? secretOf(object, [...path]) : undefined;
    if (secret) found.push(secret);
    return;
  }
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    path.push(key);
    collect(object[key], path, found);
    path.pop();
  }
}

/** Every well-formed secret of the state's records (resources, then pending operations'), in the document's order. */
export function stateSecrets(structure: StateStructure): StateSecret[] {
  const found: StateSecret[] = [];
  for (const entry of [...structure.resources, ...structure.pendingResources]) if (isObject(entry.value)) collect(entry.value, [...entry.path], found);
  return found;
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
