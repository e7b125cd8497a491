/**
 * Pulumi's passphrase secrets in state files, the editor's side (issue 57): the passphrases, kept in
 * VS Code's SecretStorage (never in settings, logs or messages) under the salt state each opens
 * (`quotaState.passphrase:v1:<salt>:<check value>`): the same passphrase opens every stack with that
 * salt, and a passphrase changed with `pulumi stack change-secrets-provider` comes with a new salt,
 * so an old entry never stands for it. A stack's passphrase is asked for only when a person needs
 * it (Reveal, the encrypt fix, the command), once; the server checks it against the salt before it
 * is stored, and asks for stored ones itself (`StoredPassphraseRequest`). The salt states stored are
 * listed under one more key, so that Forget Passphrases finds them all.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  ForgetPassphrasesNotification,
  RevealSecretRequest,
  SECRETS_COMMANDS,
  StoredPassphraseRequest,
  UnlockSecretsRequest,
  type RevealSecretParams,
  type UnlockSecretsResult,
} from '../shared/protocol';
import { IncorrectPassphraseError, passphraseCrypter, SecretsError, type PassphraseCrypter } from '../shared/backend/vocabulary';
import type { Notifier } from './notifier';

const KEY_PREFIX = 'quotaState.passphrase:';
const INDEX_KEY = 'quotaState.passphrases';

/** The passphrases kept in SecretStorage, by salt state. */
class Passphrases {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(saltState: string): Promise<string | undefined> {
    return this.secrets.get(KEY_PREFIX + saltState);
  }

  async store(saltState: string, passphrase: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + saltState, passphrase);
    const index = await this.index();
    if (!index.includes(saltState)) await this.secrets.store(INDEX_KEY, JSON.stringify([...index, saltState]));
  }

  /** Forgets every passphrase; answers how many there were. */
  async forgetAll(): Promise<number> {
    const index = await this.index();
    for (const saltState of index) await this.secrets.delete(KEY_PREFIX + saltState);
    await this.secrets.delete(INDEX_KEY);
    return index.length;
  }

  private async index(): Promise<string[]> {
    try {
      const parsed: unknown = JSON.parse((await this.secrets.get(INDEX_KEY)) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : [];
    } catch {
      return [];
    }
  }
}

/** Commands run without a prompt when given the passphrase (tests and automation), as sign-in takes a token. */
interface PassphraseOptions {
  passphrase?: string;
}

/** The Enter Secrets Passphrase box: the passphrase typed, or undefined when it was dismissed. */
export function askPassphrase(stack?: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: stack ? vscode.l10n.t('Secrets passphrase of {0}', stack) : vscode.l10n.t("Pulumi stack's secrets passphrase"),
    prompt: vscode.l10n.t("The passphrase this stack's secrets were encrypted with (as PULUMI_CONFIG_PASSPHRASE). It is kept in the editor's secret storage."),
    password: true,
    ignoreFocusOut: true,
  });
}

/** Why a salt's key is not at hand: no passphrase given, one that does not open the salt, or a salt state that cannot be read. */
export type NoKey = 'unknown' | 'incorrect' | 'unusable';

/**
 * The editor's keys by salt, for what decrypts in the client itself (the State Diff view's Reveal,
 * Change Passphrase…): the passphrase kept in SecretStorage for the salt state, else asked once
 * (`ask`), checked against the salt (its check value must decrypt to "pulumi") before it is used or
 * stored. Nothing here logs or says a passphrase.
 */
export class SaltKeys {
  private readonly passphrases: Passphrases;

  constructor(secrets: vscode.SecretStorage) {
    this.passphrases = new Passphrases(secrets);
  }

  /** The salt's passphrase and crypter, the passphrase checked against the salt (and stored when it was asked for and opens it); why not. */
  async unlock(saltState: string, ask: () => Thenable<string | undefined>): Promise<{ passphrase: string; crypter: PassphraseCrypter } | NoKey> {
    const stored = await this.passphrases.get(saltState);
    if (stored !== undefined) {
      const crypter = await this.open(stored, saltState);
      if (typeof crypter !== 'string') return { passphrase: stored, crypter };
    }
    const given = await ask();
    if (given === undefined) return 'unknown';
    const crypter = await this.open(given, saltState);
    if (typeof crypter === 'string') return crypter;
    await this.passphrases.store(saltState, given);
    return { passphrase: given, crypter };
  }

  /** Keeps `passphrase` for `saltState` (a salt Change Passphrase… has just made with it). */
  remember(saltState: string, passphrase: string): Promise<void> {
    return this.passphrases.store(saltState, passphrase);
  }

  private async open(passphrase: string, saltState: string): Promise<PassphraseCrypter | NoKey> {
    try {
      return await passphraseCrypter(passphrase, saltState);
    } catch (error) {
      if (error instanceof IncorrectPassphraseError) return 'incorrect';
      if (error instanceof SecretsError) return 'unusable';
      throw error;
    }
  }
}

export class SecretsCommands {
  private readonly passphrases: Passphrases;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly client: LanguageClient,
    private readonly notifier: Notifier,
  ) {
    this.passphrases = new Passphrases(secrets);
    // Registered before the client starts; the server asks while it checks the first documents.
    client.onRequest(StoredPassphraseRequest, async ({ saltState }) => (await this.passphrases.get(saltState)) ?? null);
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(SECRETS_COMMANDS.reveal, (params: RevealSecretParams, options?: PassphraseOptions) => this.reveal(params, options)),
      vscode.commands.registerCommand(SECRETS_COMMANDS.enterPassphrase, (uri?: string | vscode.Uri, options?: PassphraseOptions) => this.enterPassphrase(uri, options)),
      vscode.commands.registerCommand(SECRETS_COMMANDS.forgetPassphrases, () => this.forgetPassphrases()),
    ];
  }

  /** Asks for the passphrase of the stack of `uri` (the active editor's document by default); true once the server took it. */
  async enterPassphrase(target?: string | vscode.Uri, options: PassphraseOptions = {}): Promise<boolean> {
    const uri = target === undefined ? vscode.window.activeTextEditor?.document.uri.toString() : target.toString();
    if (!uri) {
      void this.notifier.info(vscode.l10n.t('Open a Pulumi state file to enter its passphrase.'));
      return false;
    }
    const passphrase = options.passphrase ?? (await askPassphrase());
    if (passphrase === undefined) return false;
    const result: UnlockSecretsResult = await this.client.sendRequest(UnlockSecretsRequest, { uri, passphrase });
    if (result.unlocked) {
      await this.passphrases.store(result.saltState, passphrase);
      return true;
    }
    if (result.reason === 'incorrect-passphrase') void this.notifier.error(vscode.l10n.t("Incorrect passphrase: it does not open this stack's secrets."));
    else if (result.reason === 'no-passphrase-salt') void this.notifier.info(vscode.l10n.t('This state names no passphrase secrets provider (no salt in its `secrets_providers`).'));
    else void this.notifier.info(vscode.l10n.t('Open the Pulumi state file to enter its passphrase.'));
    return false;
  }

  /** A hover's Reveal: the server decrypts, keeps the value for this version, and the hover shown again holds it. */
  async reveal(params: RevealSecretParams, options: PassphraseOptions = {}): Promise<boolean> {
    let result = await this.client.sendRequest(RevealSecretRequest, params);
    if (!result.revealed && result.reason === 'needs-passphrase' && (await this.enterPassphrase(params.uri, options))) result = await this.client.sendRequest(RevealSecretRequest, params);
    if (result.revealed) {
      await this.showHoverAt(params.uri, result.position);
      return true;
    }
    if (result.reason === 'undecryptable') void this.notifier.warning(vscode.l10n.t("This secret does not decrypt with the stack's key, so it cannot be revealed."));
    else if (result.reason === 'stale') void this.notifier.info(vscode.l10n.t('The document changed: hover the secret again to reveal it.'));
    return false;
  }

  private async showHoverAt(uri: string, position: { line: number; character: number }): Promise<void> {
    const editor = vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === uri);
    if (!editor) return;
    const at = new vscode.Position(position.line, position.character);
    editor.selection = new vscode.Selection(at, at);
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await vscode.commands.executeCommand('editor.action.showHover');
  }

  async forgetPassphrases(): Promise<void> {
    const count = await this.passphrases.forgetAll();
    await this.client.sendNotification(ForgetPassphrasesNotification, {});
    void this.notifier.info(count === 1 ? vscode.l10n.t('Forgot 1 passphrase of Pulumi secrets.') : vscode.l10n.t('Forgot {0} passphrases of Pulumi secrets.', count));
  }
}
