/**
 * `check` with the environment's passphrase (PULUMI_CONFIG_PASSPHRASE or _FILE, read as Pulumi reads
 * them): a state file whose passphrase salt it opens is analysed with the editor's secrets pass
 * (shared/backend's `stateSecretsPass`), so `secret-undecryptable` is reported exactly as the language
 * server reports it once it has the passphrase. A passphrase that does not open a file's salt is said
 * on stderr for that file (no value, no passphrase), which is then checked as without one.
 */
import { IncorrectPassphraseError, newSecretsMemo, passphraseCrypter, SecretsError, stateSaltState, stateSecretsPass, type PassphraseCrypter, type SecretsMemo } from '../shared/backend';
import type { Diagnostic } from '../shared/diagnostics';
import { createStateService, type StateSchemaMode } from '../shared/state';

const state = createStateService();

/** A salt's key and what it told of texts already met, or why the passphrase does not open the salt. */
type SaltKey = { crypter: PassphraseCrypter; memo: SecretsMemo } | { refused: string };

/** The keys of one thread's `check` run, one per salt state met, derived once. */
export class CheckKeys {
  private readonly keys = new Map<string, Promise<SaltKey>>();
  constructor(private readonly passphrase: string) {}

  /**
   * The state diagnostics of `text` with the secrets pass when the passphrase opens its salt; `note`
   * says why not when the state has a passphrase salt that it does not open.
   */
  async diagnose(text: string, stateSchema: StateSchemaMode, display: string): Promise<{ diagnostics: Diagnostic[]; note?: string }> {
    const snapshot = state.parse(text);
    const saltState = stateSaltState(snapshot.structure);
    const key = saltState === undefined ? undefined : await this.keyOf(saltState);
    if (!key || 'refused' in key) {
      const diagnostics = state.analyzeSnapshot(snapshot, stateSchema).diagnostics;
      return key ? { diagnostics, note: `warning: ${display}: ${key.refused}; its secrets were not decrypted (checked as without a passphrase)` } : { diagnostics };
    }
    const pass = await stateSecretsPass(snapshot.structure, key.crypter, key.memo);
    return { diagnostics: state.analyzeSnapshot(snapshot, stateSchema, pass).diagnostics };
  }

  private keyOf(saltState: string): Promise<SaltKey> {
    let key = this.keys.get(saltState);
    if (!key) {
      key = passphraseCrypter(this.passphrase, saltState).then(
        (crypter) => ({ crypter, memo: newSecretsMemo() }),
        (error: unknown) => {
          if (error instanceof IncorrectPassphraseError)
            return { refused: 'the passphrase (PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE) does not open the salt of its secrets_providers' };
          // A salt state Pulumi cannot read either: its message names no value.
          if (error instanceof SecretsError) return { refused: `its passphrase salt cannot be used (${error.message})` };
          throw error;
        },
      );
      this.keys.set(saltState, key);
    }
    return key;
  }
}
