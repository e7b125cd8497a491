/**
 * `restore` of a checkpoint whose ciphertexts were sealed under another passphrase salt than the
 * stack's (a `pulumi stack change-secrets-provider` since), which its `Pulumi.<stack>.yaml` holds too.
 * With the passphrase at hand each is re-encrypted to the stack's key and the stack's salt state kept,
 * so the stack stays one salt; without it the restore is refused, unless --allow-errors (then restored
 * as they are, as before). Pulumi's import re-encrypts every secret, always needing the passphrase;
 * ours only when the salts differ (docs/cli.md, restore).
 */
import { IncorrectPassphraseError, passphraseCrypter, passphraseSaltOf, rekeyState, SecretsError, secretsProviderOf, type PassphraseCrypter } from '../shared/backend';
import { createStateService, findSecrets } from '../shared/state';
import type { CliIO } from './io';
import { environmentPassphrase } from './secretsAccess';
import { Refusal } from './stateFiles';

const state = createStateService();

export interface RekeyContext {
  /** How messages name the document restored, and the stack. */
  display: string;
  stack: string;
  allowErrors: boolean;
  io: CliIO;
}

/** The salt state and `secrets_providers` of a state's text, when it is a passphrase provider's. */
function saltOf(text: string | undefined): { salt: string; provider: { type: string; state: unknown } } | undefined {
  if (text === undefined) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  const provider = secretsProviderOf(state.structureOf(root));
  const salt = provider && passphraseSaltOf(provider);
  return provider && salt ? { salt, provider } : undefined;
}

async function crypterOf(passphrase: string, salt: string, whose: string): Promise<PassphraseCrypter> {
  try {
    return await passphraseCrypter(passphrase, salt);
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) throw new Refusal(`incorrect passphrase: it does not open the salt of ${whose}; nothing was written`);
    if (error instanceof SecretsError) throw new Refusal(`the secrets provider of ${whose} cannot be used: ${error.message}; nothing was written`);
    throw error;
  }
}

/**
 * The text to restore (`text`, the checkpoint) for a stack whose current state is `currentText`: the
 * same when its salt is the stack's (or either has none, or it holds no ciphertext), else its
 * ciphertexts re-encrypted to the stack's salt; `rekeyed` counts them. A Refusal when that cannot be done.
 */
export async function rekeyRestored(text: string, currentText: string | undefined, context: RekeyContext): Promise<{ text: string; rekeyed: number }> {
  const { display, stack, allowErrors, io } = context;
  const root = JSON.parse(text) as unknown;
  const restored = state.structureOf(root);
  const provider = secretsProviderOf(restored);
  const salt = provider && passphraseSaltOf(provider);
  const current = saltOf(currentText);
  if (!salt || !current || current.salt === salt || !findSecrets(restored).some((site) => site.secret.form === 'ciphertext')) return { text, rekeyed: 0 };
  const why = `the secrets of ${display} are sealed under another passphrase salt than ${stack}'s current one (its secrets_providers, and its Pulumi.<stack>.yaml's encryptionsalt)`;
  const passphrase = environmentPassphrase(io);
  if (!passphrase) {
    if (!allowErrors)
      throw new Refusal(
        `${why}; nothing was written. Set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE to re-encrypt them with the stack's salt, or rerun with --allow-errors to restore them as they are`,
      );
    io.stderr(`warning: ${why}; restored as they are (--allow-errors, no passphrase)`);
    return { text, rekeyed: 0 };
  }
  const from = await crypterOf(passphrase.value, salt, display);
  const to = await crypterOf(passphrase.value, current.salt, `${stack}'s current state`);
  const { rekeyed, unopened } = await rekeyState(restored, from, to, current.provider);
  if (unopened) {
    const what = `${unopened} ${unopened === 1 ? 'secret' : 'secrets'} of ${display} did not decrypt with the key of its own salt (\`quota-state secrets check\` says why)`;
    if (!allowErrors) throw new Refusal(`${what}; nothing was written. --allow-errors restores them as they are, the others re-encrypted`);
    io.stderr(`warning: ${what}; restored as they are (--allow-errors)`);
  }
  return { text: JSON.stringify(root), rekeyed };
}
