/**
 * `secrets check`'s judgement of one state (and of its stack's config): every secret stored in
 * plaintext, every malformed one, and every ciphertext that does not open with the stack's key, with
 * what can be told of why: damaged (no `v1:` ciphertext Pulumi can read), sealed by another key that
 * was at hand (another stack's salt, the project config's), or by none of them (another stack's salt
 * not at hand, or a passphrase since changed). Plaintext secrets need no passphrase; ciphertexts do.
 * Findings carry places and reasons, never a value.
 */
import { CiphertextError, IncorrectPassphraseError, passphraseCrypter, SecretsError, type PassphraseCrypter } from './crypter';
import { configSecrets, findSecrets, passphraseSaltOf, secretsProviderOf, type SecretSite } from './walk';
import type { StateStructure } from '../../state/vocabulary';

/** Another salt state to try a ciphertext that does not open with the stack's key: its `label` says whose it is. */
export interface OtherSalt {
  label: string;
  saltState: string;
}

/** Why a ciphertext does not serve. */
export type CiphertextProblem =
  /** Not a `v1:` ciphertext Pulumi reads (`message` is Pulumi's: "bad value", "nonce size is incorrect", …). */
  | { kind: 'damaged'; message: string }
  /** Opens with the key of `opensWith` (an `OtherSalt`'s label), not the stack's. */
  | { kind: 'other-key'; opensWith: string }
  /** Opens with none of the keys at hand. */
  | { kind: 'no-key' }
  /** Opens, but to no JSON value (a state secret holds JSON text): Pulumi fails to read it. */
  | { kind: 'not-json' };

/** Where a secret is, without the secret (a plaintext one is its value). */
type SecretPlace = Omit<SecretSite, 'secret'>;

export type StateSecretFinding =
  | { kind: 'plaintext'; site: SecretPlace }
  | { kind: 'malformed'; site: SecretPlace }
  /** A ciphertext in a state that names no secrets provider: Pulumi cannot decrypt it ("no secrets manager could be found"). */
  | { kind: 'no-provider'; site: SecretPlace }
  | { kind: 'ciphertext'; site: SecretPlace; problem: CiphertextProblem };

const placeOf = ({ secret: _secret, ...place }: SecretSite): SecretPlace => place;

export interface StateSecretsReport {
  /** How many secrets the state holds, each form counted. */
  counts: { ciphertext: number; plaintext: number; malformed: number };
  findings: StateSecretFinding[];
  /** The passphrase salt state of the state's `secrets_providers`, when it names one. */
  saltState?: string;
  /** The state holds ciphertexts and no passphrase was given: they were not checked. */
  needsPassphrase: boolean;
}

/** Other salts, or what finds them (called once, and only when a ciphertext does not open: finding them may read other stacks). */
export type OtherSalts = readonly OtherSalt[] | (() => Promise<readonly OtherSalt[]>);

/** Opens other salts with the same passphrase, each once, and tries a ciphertext with them in order. */
class OtherKeys {
  private readonly opened = new Map<string, Promise<PassphraseCrypter | undefined>>();
  private salts?: Promise<readonly OtherSalt[]>;
  constructor(
    private readonly passphrase: string,
    private readonly find: OtherSalts,
  ) {}

  async whoseKey(ciphertext: string): Promise<string | undefined> {
    const find = this.find;
    this.salts ??= typeof find === 'function' ? find() : Promise.resolve(find);
    for (const salt of await this.salts) {
      let crypter = this.opened.get(salt.saltState);
      // A salt this passphrase does not open (or that is malformed) explains nothing.
      if (!crypter) this.opened.set(salt.saltState, (crypter = passphraseCrypter(this.passphrase, salt.saltState).catch(() => undefined)));
      const opened = await crypter;
      if (
        opened &&
        (await opened.decrypt(ciphertext).then(
          () => true,
          () => false,
        ))
      )
        return salt.label;
    }
    return undefined;
  }
}

/** What is wrong with `ciphertext` under `crypter`, or undefined when it opens (to JSON, when `json`). */
async function judgeCiphertext(ciphertext: string, crypter: PassphraseCrypter, others: OtherKeys, json: boolean): Promise<CiphertextProblem | undefined> {
  let plaintext: string;
  try {
    plaintext = await crypter.decrypt(ciphertext);
  } catch (error) {
    if (!(error instanceof CiphertextError)) throw error;
    if (error.reason === 'malformed') return { kind: 'damaged', message: error.message };
    const opensWith = await others.whoseKey(ciphertext);
    return opensWith === undefined ? { kind: 'no-key' } : { kind: 'other-key', opensWith };
  }
  if (!json) return undefined;
  try {
    JSON.parse(plaintext);
    return undefined;
  } catch {
    return { kind: 'not-json' };
  }
}

/**
 * Judges every secret of `structure`. Throws SecretsError when the state's provider is not the
 * passphrase provider or its salt is malformed, IncorrectPassphraseError when `passphrase` does not
 * open the salt.
 */
export async function checkStateSecrets(structure: StateStructure, passphrase: string | undefined, otherSalts: OtherSalts = []): Promise<StateSecretsReport> {
  const sites = findSecrets(structure);
  const counts = { ciphertext: 0, plaintext: 0, malformed: 0 };
  for (const site of sites) counts[site.secret.form]++;
  // One slot per secret, so that the findings come in the document's order whatever found them.
  const slots: Array<StateSecretFinding | undefined> = sites.map((site) => (site.secret.form === 'ciphertext' ? undefined : { kind: site.secret.form, site: placeOf(site) }));
  const provider = secretsProviderOf(structure);
  if (provider && provider.type !== 'passphrase') throw new SecretsError(`the state's secrets provider is "${provider.type}"; only the passphrase provider is read here`);
  const saltState = provider ? (passphraseSaltOf(provider) ?? '') : undefined;
  const report = (needsPassphrase: boolean): StateSecretsReport => ({
    counts,
    findings: slots.filter((finding): finding is StateSecretFinding => finding !== undefined),
    ...(saltState !== undefined ? { saltState } : {}),
    needsPassphrase,
  });
  if (counts.ciphertext === 0) return report(false);
  const eachCiphertext = async (judge: (ciphertext: string, site: SecretSite) => Promise<StateSecretFinding | undefined>) => {
    for (const [at, site] of sites.entries()) if (site.secret.form === 'ciphertext') slots[at] = await judge(site.secret.ciphertext, site);
  };
  if (saltState === undefined) {
    await eachCiphertext(async (_, site) => ({ kind: 'no-provider', site: placeOf(site) }));
    return report(false);
  }
  if (passphrase === undefined) return report(true);
  const crypter = await passphraseCrypter(passphrase, saltState);
  const others = new OtherKeys(passphrase, otherSalts);
  await eachCiphertext(async (ciphertext, site) => {
    const problem = await judgeCiphertext(ciphertext, crypter, others, true);
    return problem && { kind: 'ciphertext', site: placeOf(site), problem };
  });
  return report(false);
}

export interface ConfigSecretFinding {
  key: string;
  path: Array<string | number>;
  problem: CiphertextProblem | { kind: 'no-salt' } | { kind: 'wrong-passphrase' };
}

/**
 * Judges the secure values of a stack's config (`Pulumi.<stack>.yaml`): each must open with the key
 * of its `encryptionsalt` (a config value's plaintext is the value itself, no JSON). Without a salt, or
 * when the passphrase does not open it, every secure value is a finding saying so.
 */
export async function checkConfigSecrets(config: Record<string, unknown>, encryptionSalt: string | undefined, passphrase: string, otherSalts: OtherSalts = []): Promise<ConfigSecretFinding[]> {
  const secrets = configSecrets(config);
  if (secrets.length === 0) return [];
  if (!encryptionSalt) return secrets.map(({ key, path }) => ({ key, path, problem: { kind: 'no-salt' } }));
  let crypter: PassphraseCrypter;
  try {
    crypter = await passphraseCrypter(passphrase, encryptionSalt);
  } catch (error) {
    if (!(error instanceof IncorrectPassphraseError)) throw error;
    return secrets.map(({ key, path }) => ({ key, path, problem: { kind: 'wrong-passphrase' } }));
  }
  const others = new OtherKeys(passphrase, otherSalts);
  const findings: ConfigSecretFinding[] = [];
  for (const { key, path, ciphertext } of secrets) {
    const problem = await judgeCiphertext(ciphertext, crypter, others, false);
    if (problem) findings.push({ key, path, problem });
  }
  return findings;
}
