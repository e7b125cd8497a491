/**
 * A state's ciphertexts moved from one passphrase salt to another: each decrypted with the key of the
 * salt it was sealed with and encrypted again with the other's (a fresh nonce each), and the
 * deployment's `secrets_providers` made the other's. What `restore` does to a checkpoint sealed under a
 * salt the stack no longer has (a `pulumi stack change-secrets-provider` since), so that Pulumi, which
 * reads the stack with its `Pulumi.<stack>.yaml`'s salt, reads every secret of it.
 */
import { CiphertextError, type PassphraseCrypter } from './crypter';
import { findSecrets, isObject, type StateStructure } from '../../state/vocabulary';

/** How a re-key went: ciphertexts sealed again, and those that did not decrypt with their own salt (left as they were). */
export interface Rekeyed {
  rekeyed: number;
  unopened: number;
}

/**
 * Re-encrypts, in the document of `structure`, every ciphertext `from` opens with `to`, and sets the
 * deployment's `secrets_providers` to `provider` (the stack's, kept as it is).
 */
export async function rekeyState(structure: StateStructure, from: PassphraseCrypter, to: PassphraseCrypter, provider: unknown): Promise<Rekeyed> {
  const result: Rekeyed = { rekeyed: 0, unopened: 0 };
  for (const site of findSecrets(structure)) {
    if (site.secret.form !== 'ciphertext') continue;
    let holder: unknown = structure.root;
    for (const step of site.jsonPath) holder = (holder as Record<string | number, unknown>)[step];
    let plaintext: string;
    try {
      plaintext = await from.decrypt(site.secret.ciphertext);
    } catch (error) {
      if (!(error instanceof CiphertextError)) throw error;
      result.unopened++;
      continue;
    }
    (holder as Record<string, unknown>).ciphertext = await to.encrypt(plaintext);
    result.rekeyed++;
  }
  let deployment: unknown = structure.root;
  for (const step of structure.deploymentPath ?? []) deployment = (deployment as Record<string | number, unknown>)[step];
  if (isObject(deployment)) deployment.secrets_providers = structuredClone(provider);
  return result;
}
