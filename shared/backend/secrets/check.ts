/**
 * `secrets check`'s judgement of one state (and of its stack's config): every secret stored in
 * plaintext, every malformed one, and every ciphertext that does not open with the stack's key, with
 * what can be told of why: damaged (no `v1:` ciphertext Pulumi can read), sealed by another key that
 * was at hand (another stack's salt, the project config's), or by none of them (another stack's salt
 * not at hand, or a passphrase since changed). Plaintext secrets need no passphrase; ciphertexts do.
 * Findings carry places and reasons, never a value.
 *
 * And `stateSecretsPass`, the same judgement as the editor's two secret codes read it (shared/state's
 * `SecretsPass`): what the language server's second pass and `quota-state check` with a passphrase
 * both compute, so that both report the same.
 */
import { CiphertextError, IncorrectPassphraseError, passphraseCrypter, SecretsError, type PassphraseCrypter } from './crypter';
import { configSecrets, passphraseSaltOf, secretsProviderOf } from './walk';
import { findSecrets, secretsPassKey, stateSecrets, type SecretSite, type SecretsPass, type StateStructure, type UndecryptableCause } from '../../state/vocabulary';

/** Another salt state to try a ciphertext that does not open with the stack's key: its `label` says whose it is. */
export interface OtherSalt {
  label: string;
  saltState: string;
}

/**
 * Why a ciphertext does not serve: the editor's causes (damaged, `no-key`: opens with none of the keys
 * at hand, `not-json`: a state secret that opens to no JSON text), or it opens with another key at hand.
 */
export type CiphertextProblem =
  | UndecryptableCause
  /** Opens with the key of `opensWith` (an `OtherSalt`'s label), not the stack's. */
  | { kind: 'other-key'; opensWith: string };

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

/** Why `ciphertext` does not open under `crypter` alone, or undefined when it opens (to JSON, when `json`). */
async function causeOf(ciphertext: string, crypter: PassphraseCrypter, json: boolean): Promise<UndecryptableCause | undefined> {
  let plaintext: string;
  try {
    plaintext = await crypter.decrypt(ciphertext);
  } catch (error) {
    if (!(error instanceof CiphertextError)) throw error;
    return error.reason === 'malformed' ? { kind: 'damaged', message: error.message } : { kind: 'no-key' };
  }
  if (!json) return undefined;
  try {
    JSON.parse(plaintext);
    return undefined;
  } catch {
    return { kind: 'not-json' };
  }
}

/** What is wrong with `ciphertext` under `crypter`, or undefined when it opens (to JSON, when `json`); `others` may explain a `no-key`. */
async function judgeCiphertext(ciphertext: string, crypter: PassphraseCrypter, others: OtherKeys, json: boolean): Promise<CiphertextProblem | undefined> {
  const cause = await causeOf(ciphertext, crypter, json);
  if (cause?.kind !== 'no-key') return cause;
  const opensWith = await others.whoseKey(ciphertext);
  return opensWith === undefined ? cause : { kind: 'other-key', opensWith };
}

/** What one key told of texts already met: a caller that keeps it (the language server, per key) decrypts each text once. */
export interface SecretsMemo {
  readonly verdicts: Map<string, UndecryptableCause | null>;
  readonly encrypted: Map<string, string>;
}

/** Past this many verdicts or encryptions a memo starts again. */
const MAX_MEMO = 50_000;

export const newSecretsMemo = (): SecretsMemo => ({ verdicts: new Map(), encrypted: new Map() });

/**
 * The editor's secrets pass over a state (`SecretsPass`, which `secret-undecryptable` and
 * `secret-in-plaintext`'s fix read): every ciphertext tried with `crypter` (the key of the state's
 * own salt), every plaintext secret encrypted under it. `memo` keeps each text's verdict for the next
 * version of the document.
 */
export async function stateSecretsPass(structure: StateStructure, crypter: PassphraseCrypter, memo: SecretsMemo = newSecretsMemo()): Promise<SecretsPass> {
  if (memo.verdicts.size > MAX_MEMO) memo.verdicts.clear();
  if (memo.encrypted.size > MAX_MEMO) memo.encrypted.clear();
  const undecryptable = new Map<string, UndecryptableCause>();
  const encrypted = new Map<string, string>();
  await Promise.all(
    // The secrets the two rules read (a plaintext that is no JSON is malformed-property-value's).
    stateSecrets(structure).map(async ({ jsonPath, secret }) => {
      const at = secretsPassKey(jsonPath);
      if (secret.form === 'plaintext') {
        let ciphertext = memo.encrypted.get(secret.plaintext);
        if (ciphertext === undefined) memo.encrypted.set(secret.plaintext, (ciphertext = await crypter.encrypt(secret.plaintext)));
        encrypted.set(at, ciphertext);
      } else if (secret.form === 'ciphertext') {
        let verdict = memo.verdicts.get(secret.ciphertext);
        if (verdict === undefined) memo.verdicts.set(secret.ciphertext, (verdict = (await causeOf(secret.ciphertext, crypter, true)) ?? null));
        if (verdict) undecryptable.set(at, verdict);
      }
    }),
  );
  return { undecryptable, encrypted };
}

/** The passphrase salt state of a state's `secrets_providers`, when it names the passphrase provider with a salt. */
export function stateSaltState(structure: StateStructure): string | undefined {
  const provider = secretsProviderOf(structure);
  return provider && passphraseSaltOf(provider);
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
