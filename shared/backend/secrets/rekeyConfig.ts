/**
 * Config secrets moved to another passphrase salt: the `secure:` values of a stack's
 * `Pulumi.<stack>.yaml` (and its `encryptionsalt` set to the new salt state), as `pulumi stack
 * change-secrets-provider` rewrites that file, and the `{"secure": …}` values of a history entry's
 * `config`, which `pulumi stack history --show-secrets` decrypts with the stack's current key. The YAML
 * is edited as a document, so its comments, order and quoting stay as they were.
 */
import { isMap, isScalar, parseDocument, visit, type Scalar } from 'yaml';
import { CiphertextError, SecretsError, type PassphraseCrypter } from './crypter';
import { isObject } from '../../state/vocabulary';

/** How a re-key of config went: values sealed again, and those `from` did not open (left as they were). */
export interface ConfigRekeyed {
  rekeyed: number;
  unopened: number;
}

async function reseal(ciphertext: string, from: PassphraseCrypter, to: PassphraseCrypter): Promise<string | undefined> {
  try {
    return await to.encrypt(await from.decrypt(ciphertext));
  } catch (error) {
    if (error instanceof CiphertextError) return undefined;
    throw error;
  }
}

/** A YAML config file's text with every `secure:` value of its `config` re-encrypted and `encryptionsalt` set to `to`'s. */
export async function rekeyConfigFile(text: string, from: PassphraseCrypter, to: PassphraseCrypter): Promise<ConfigRekeyed & { text: string }> {
  const document = parseDocument(text);
  if (document.errors.length) throw new SecretsError(`not valid YAML: ${document.errors[0].message.split('\n')[0]}`);
  if (!isMap(document.contents)) throw new SecretsError('not a YAML mapping');
  const result: ConfigRekeyed = { rekeyed: 0, unopened: 0 };
  const secure: Scalar[] = [];
  const config = document.get('config', true);
  if (isMap(config))
    visit(config, {
      Map(_key, map) {
        // config/object.go's `isSecureValue`: a map of the one key `secure` whose value is a string.
        const [only] = map.items;
        if (map.items.length === 1 && isScalar(only.key) && only.key.value === 'secure' && isScalar(only.value) && typeof only.value.value === 'string') secure.push(only.value);
      },
    });
  for (const scalar of secure) {
    const sealed = await reseal(scalar.value as string, from, to);
    if (sealed === undefined) result.unopened++;
    else {
      scalar.value = sealed;
      result.rekeyed++;
    }
  }
  document.set('encryptionsalt', to.saltState);
  return { ...result, text: document.toString({ lineWidth: 0 }) };
}

/** Re-encrypts, in place, every `{"secure": "…"}` of a history entry's `config` map. */
export async function rekeyConfigMap(config: Record<string, unknown>, from: PassphraseCrypter, to: PassphraseCrypter): Promise<ConfigRekeyed> {
  const result: ConfigRekeyed = { rekeyed: 0, unopened: 0 };
  const visitValue = async (value: unknown): Promise<void> => {
    if (Array.isArray(value)) for (const element of value) await visitValue(element);
    else if (isObject(value)) {
      if (typeof value.secure === 'string' && Object.keys(value).length === 1) {
        const sealed = await reseal(value.secure, from, to);
        if (sealed === undefined) result.unopened++;
        else {
          value.secure = sealed;
          result.rekeyed++;
        }
      } else for (const member of Object.values(value)) await visitValue(member);
    }
  };
  for (const value of Object.values(config)) await visitValue(value);
  return result;
}
