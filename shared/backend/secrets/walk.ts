/**
 * Where a state's secrets provider and its salt are, and where config keeps its secrets:
 * `{"secure": "v1:…"}` (config/object.go's `isSecureValue`), in a history entry or a
 * `Pulumi.<stack>.yaml`. The secrets of a state's records are found by shared/state's one walker,
 * `findSecrets` (its door: state/vocabulary.ts), which these modules and the editor's rules share.
 */
import { isObject, type StateStructure } from '../../state/vocabulary';

type PathElement = string | number;

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
