/**
 * Where a state keeps its secrets, found as Pulumi finds them (pkg/resource/stack/deployment.go at
 * v3.274.1: `enqueueCiphertexts`, `DeserializePropertyValue`, `deserializeSecret`): in every record of
 * `resources` and of `pending_operations`, any object whose signature key holds the secret signature,
 * `{"4dab…": "1b47…", "ciphertext": "v1:…"}` or `{"4dab…": "1b47…", "plaintext": "<JSON text>"}`. An
 * object with another signature (an asset, an archive, a resource reference) is not looked into, as
 * Pulumi does not; a secret's value is inside its ciphertext or plaintext. And where config keeps
 * them: `{"secure": "v1:…"}` (config/object.go's `isSecureValue`), in a history entry or a
 * `Pulumi.<stack>.yaml`.
 */
import { isObject, type StateStructure } from '../../state/vocabulary';

/** `resource.SigKey` and `resource.SecretSig` (sdk/go/common/resource/sig). */
const SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
const SECRET_SIGNATURE = '1b47061264138c4ac30d75fd1eb44270';

type PathElement = string | number;

/**
 * A secret as stored: encrypted, in plaintext, or neither (both fields, none, or an empty one:
 * "malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied").
 */
export type StoredSecret = { form: 'ciphertext'; ciphertext: string } | { form: 'plaintext'; plaintext: string } | { form: 'malformed' };

/** The secret `value` is, or undefined when it is none (`DeserializePropertyValue`'s `SecretSig` case). */
export function storedSecret(value: unknown): StoredSecret | undefined {
  if (!isObject(value) || value[SIGNATURE_KEY] !== SECRET_SIGNATURE) return undefined;
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
  jsonPath: PathElement[];
  secret: StoredSecret;
}

/** Every secret below `value` (at `path`), depth first, in the document's order. */
function collect(value: unknown, path: PathElement[], found: Array<{ path: PathElement[]; secret: StoredSecret }>): void {
  if (Array.isArray(value)) {
    value.forEach((element, index) => collect(element, [...path, index], found));
    return;
  }
  if (!isObject(value)) return;
  if (SIGNATURE_KEY in value) {
    const secret = storedSecret(value);
    if (secret) found.push({ path, secret });
    return;
  }
  for (const [key, member] of Object.entries(value)) collect(member, [...path, key], found);
}

/** Every secret of the state's records (resources, then pending operations'), whole records walked. */
export function findSecrets(structure: StateStructure): SecretSite[] {
  const sites: SecretSite[] = [];
  const records = [...structure.resources.map((entry) => ({ entry, pending: false })), ...structure.pendingResources.map((entry) => ({ entry, pending: true }))];
  for (const { entry, pending } of records) {
    if (!isObject(entry.value)) continue;
    const found: Array<{ path: PathElement[]; secret: StoredSecret }> = [];
    for (const [key, member] of Object.entries(entry.value)) collect(member, [key], found);
    for (const { path, secret } of found) sites.push({ ...(entry.urn !== undefined ? { urn: entry.urn } : {}), index: entry.index, pending, path, jsonPath: [...entry.path, ...path], secret });
  }
  return sites;
}

/** The deployment's `secrets_providers` (`{"type": "passphrase", "state": {"salt": "v1:…"}}`), when it names one. */
export function secretsProviderOf(structure: StateStructure): { type: string; state: unknown } | undefined {
  if (!structure.deploymentPath) return undefined;
  let deployment: unknown = structure.root;
  for (const segment of structure.deploymentPath) deployment = isObject(deployment) || Array.isArray(deployment) ? (deployment as Record<string | number, unknown>)[segment] : undefined;
  const providers = isObject(deployment) ? deployment.secrets_providers : undefined;
  // initializeSecretsManager: a provider without a type is no provider.
  if (!isObject(providers) || typeof providers.type !== 'string' || providers.type === '') return undefined;
  return { type: providers.type, state: providers.state };
}

/** The passphrase salt state (`localSecretsManagerState.Salt`) of a passphrase provider's state, or undefined. */
export function passphraseSaltOf(provider: { type: string; state: unknown }): string | undefined {
  return provider.type === 'passphrase' && isObject(provider.state) && typeof provider.state.salt === 'string' ? provider.state.salt : undefined;
}

/** A `{"secure": "v1:…"}` of config: a key, where in its value (an object value may hold several), the ciphertext. */
export interface ConfigSecret {
  key: string;
  path: PathElement[];
  ciphertext: string;
}

/** config/object.go's `isSecureValue`: an object of the one key `secure`, a string. */
function secureOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.secure === 'string' && Object.keys(value).length === 1 ? value.secure : undefined;
}

/** Every secure value of a config map (a history entry's `config`, a `Pulumi.<stack>.yaml`'s `config`). */
export function configSecrets(config: Record<string, unknown>): ConfigSecret[] {
  const found: ConfigSecret[] = [];
  const visit = (key: string, value: unknown, path: PathElement[]) => {
    const secure = secureOf(value);
    if (secure !== undefined) found.push({ key, path, ciphertext: secure });
    else if (Array.isArray(value)) value.forEach((element, index) => visit(key, element, [...path, index]));
    else if (isObject(value)) for (const [member, inner] of Object.entries(value)) visit(key, inner, [...path, member]);
  };
  for (const [key, value] of Object.entries(config)) visit(key, value, []);
  return found;
}
