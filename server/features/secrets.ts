/**
 * Pulumi's passphrase secrets in open state documents (issue 57), the server's side:
 * - keys: a passphrase comes from the client (its SecretStorage, asked for silently once per salt
 *   state; or typed by a person, `UnlockSecretsRequest`), is checked against the salt state before it
 *   is kept (`passphraseCrypter`: "incorrect passphrase" otherwise), and is held as a key in memory per
 *   salt state, derived once (crypter.ts caches the PBKDF2 key per salt and passphrase);
 * - a second, asynchronous pass per document version once a key is known (shared/backend's
 *   `stateSecretsPass`, which `quota-state check` runs too): every ciphertext tried
 *   with it (`secret-undecryptable`), every plaintext secret encrypted under it (the fix of
 *   `secret-in-plaintext`), each result cached by its text so a keystroke decrypts only what is new.
 *   WebCrypto runs off this thread; the pass starts after the analysis's diagnostics are out and
 *   publishes again when done (`changed`), so it never holds the editor up;
 * - Reveal: a hover's link asks for one ciphertext's value, which is kept for that version of the
 *   document and shown by the next hover there, and nowhere else.
 * No passphrase, key or value goes into a log, a diagnostic or an error text.
 */
import * as l10n from '@vscode/l10n';
import type { Connection, Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CiphertextError, IncorrectPassphraseError, newSecretsMemo, passphraseCrypter, stateSaltState, stateSecretsPass, type PassphraseCrypter, type SecretsMemo } from '../../shared/backend';
import { compareDiagnostics, type Diagnostic } from '../../shared/diagnostics';
import {
  ForgetPassphrasesNotification,
  RevealSecretRequest,
  SECRETS_COMMANDS,
  StoredPassphraseRequest,
  UnlockSecretsRequest,
  type RevealSecretParams,
  type RevealSecretResult,
  type UnlockSecretsResult,
} from '../../shared/protocol';
import type { ServerWorkspace } from '../workspace';
import { createStateService, type SecretsPass, type StateSchemaMode, type StateSnapshot } from '../../shared/state';

const service = createStateService();

/** A ciphertext string under the cursor, as the value of a `"ciphertext"` member. */
const CIPHERTEXT_MEMBER = /"ciphertext"\s*:\s*"(v1:[A-Za-z0-9+/=]*:[A-Za-z0-9+/=]*)"/g;
/** A key and what it told of ciphertexts and plaintexts already met. */
interface Key {
  crypter: PassphraseCrypter;
  memo: SecretsMemo;
}

/** The documents' side the secrets need: their snapshot and a way to publish again. */
export interface SecretsHost {
  snapshot(document: TextDocument): StateSnapshot;
  document(uri: string): TextDocument | undefined;
  /** Validates `uri` again (its analysis is cached, so this costs the publish). */
  changed(uri: string): void;
  /** Every open state document's uri. */
  openUris(): string[];
}

/** The salt state of a snapshot's passphrase provider, when it has one. */
const saltStateOf = (snapshot: StateSnapshot): string | undefined => stateSaltState(snapshot.structure);

/** The `"ciphertext": "v1:…"` string around `offset` on its line: its span (the string with its quotes) and value. */
function ciphertextAt(text: string, offset: number): { offset: number; length: number; ciphertext: string } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  for (const match of line.matchAll(CIPHERTEXT_MEMBER)) {
    const start = lineStart + match.index + match[0].length - match[1].length - 2;
    if (offset >= start && offset <= start + match[1].length + 2) return { offset: start, length: match[1].length + 2, ciphertext: match[1] };
  }
  return undefined;
}

/** What a revealed secret's hover shows: the value (a string as it is), in a code block. */
function revealedMarkdown(plaintext: string): string {
  let shown = plaintext;
  try {
    const value: unknown = JSON.parse(plaintext);
    shown = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  } catch {
    // Shown as it is: not JSON, which `secret-undecryptable` says.
  }
  const fence = '`'.repeat(Math.max(3, ...Array.from(shown.matchAll(/`+/g), (m) => m[0].length + 1)));
  return [l10n.t('**Secret**, revealed for this version of the document:'), '', `${fence}text`, shown, fence].join('\n');
}

export class StateSecrets {
  private readonly keys = new Map<string, Key>();
  /** Salt states the client was asked for silently: it is not asked again until the passphrases are forgotten. */
  private readonly asked = new Map<string, Promise<Key | undefined>>();
  private readonly passes = new Map<string, { version: number; saltState: string; pass: SecretsPass }>();
  private readonly running = new Map<string, number>();
  private readonly revealed = new Map<string, { version: number; values: Map<number, string> }>();

  constructor(
    private readonly connection: Connection,
    private readonly host: SecretsHost,
  ) {}

  /** Answers the client's requests. */
  register(): void {
    this.connection.onRequest(UnlockSecretsRequest, ({ uri, passphrase }) => this.unlock(uri, passphrase));
    this.connection.onRequest(RevealSecretRequest, (params) => this.reveal(params));
    this.connection.onNotification(ForgetPassphrasesNotification, () => this.forgetAll());
  }

  /**
   * The analysis's diagnostics with those of the secret codes as the key of this version found them,
   * when its pass is done; otherwise as they are, and the pass starts (after this publish) when a key
   * may be had.
   */
  diagnostics(document: TextDocument, diagnostics: Diagnostic[], mode: StateSchemaMode): Diagnostic[] {
    const done = this.passes.get(document.uri);
    if (done && done.version === document.version && this.keys.has(done.saltState)) {
      const snapshot = this.host.snapshot(document);
      const others = diagnostics.filter((d) => !service.secrets.codes.has(d.code));
      return [...others, ...service.secrets.diagnostics(snapshot, mode, done.pass)].sort(compareDiagnostics);
    }
    if (this.running.get(document.uri) !== document.version) setTimeout(() => void this.startPass(document.uri, document.version), 0);
    return diagnostics;
  }

  /** The hover of a ciphertext: its value when revealed for this version, else a Reveal link. */
  hover(document: TextDocument, offset: number): Hover | null {
    const at = ciphertextAt(document.getText(), offset);
    if (!at) return null;
    const revealed = this.revealed.get(document.uri);
    const value = revealed?.version === document.version ? revealed.values.get(at.offset) : undefined;
    const args = encodeURIComponent(JSON.stringify([{ uri: document.uri, version: document.version, offset: at.offset } satisfies RevealSecretParams]));
    const markdown =
      value !== undefined ? revealedMarkdown(value) : `${l10n.t("**Secret**, encrypted with the stack's passphrase.")} [${l10n.t('Reveal')}](command:${SECRETS_COMMANDS.reveal}?${args})`;
    return { contents: { kind: 'markdown', value: markdown } };
  }

  forget(uri: string): void {
    this.passes.delete(uri);
    this.running.delete(uri);
    this.revealed.delete(uri);
  }

  private async startPass(uri: string, version: number): Promise<void> {
    const document = this.host.document(uri);
    if (!document || document.version !== version || this.running.get(uri) === version) return;
    const saltState = saltStateOf(this.host.snapshot(document));
    if (saltState === undefined) return;
    const key = this.keys.get(saltState);
    // No key yet: the client is asked for a stored passphrase, once, never waited for here (its answer publishes again).
    if (!key) return void this.askStored(saltState);
    this.running.set(uri, version);
    try {
      const pass = await stateSecretsPass(this.host.snapshot(document).structure, key.crypter, key.memo);
      if (this.host.document(uri)?.version !== version || this.running.get(uri) !== version || this.keys.get(saltState) !== key) return;
      this.passes.set(uri, { version, saltState, pass });
      this.host.changed(uri);
    } finally {
      if (this.running.get(uri) === version) this.running.delete(uri);
    }
  }

  /**
   * The client's stored passphrase for a salt state, asked for once (until the passphrases are
   * forgotten) and checked; when it opens the salt, the open documents are published again.
   */
  private askStored(saltState: string): Promise<Key | undefined> {
    let asking = this.asked.get(saltState);
    if (!asking) {
      asking = this.connection.sendRequest(StoredPassphraseRequest, { saltState }).then(
        async (passphrase) => {
          const key = typeof passphrase === 'string' && !this.keys.has(saltState) ? await this.keep(saltState, passphrase) : this.keys.get(saltState);
          if (key) for (const uri of this.host.openUris()) this.host.changed(uri);
          return key;
        },
        () => undefined,
      );
      this.asked.set(saltState, asking);
    }
    return asking;
  }

  /** Keeps the key of `passphrase` for `saltState` when it opens it; undefined when it does not. */
  private async keep(saltState: string, passphrase: string): Promise<Key | undefined> {
    let crypter: PassphraseCrypter;
    try {
      crypter = await passphraseCrypter(passphrase, saltState);
    } catch {
      // A wrong or stale stored passphrase, a malformed salt: as if none were stored.
      return undefined;
    }
    const key: Key = { crypter, memo: newSecretsMemo() };
    this.keys.set(saltState, key);
    return key;
  }

  private async unlock(uri: string, passphrase: string): Promise<UnlockSecretsResult> {
    const document = this.host.document(uri);
    if (!document) return { unlocked: false, reason: 'not-open' };
    const saltState = saltStateOf(this.host.snapshot(document));
    if (saltState === undefined) return { unlocked: false, reason: 'no-passphrase-salt' };
    try {
      await passphraseCrypter(passphrase, saltState);
    } catch (error) {
      if (error instanceof IncorrectPassphraseError) return { unlocked: false, reason: 'incorrect-passphrase' };
      return { unlocked: false, reason: 'no-passphrase-salt' };
    }
    await this.keep(saltState, passphrase);
    this.asked.delete(saltState);
    for (const open of this.host.openUris()) this.host.changed(open);
    return { unlocked: true, saltState };
  }

  private async reveal({ uri, version, offset }: RevealSecretParams): Promise<RevealSecretResult> {
    const document = this.host.document(uri);
    if (!document || document.version !== version) return { revealed: false, reason: 'stale' };
    const at = ciphertextAt(document.getText(), offset);
    const saltState = saltStateOf(this.host.snapshot(document));
    if (!at || saltState === undefined) return { revealed: false, reason: 'not-a-secret' };
    const key = this.keys.get(saltState) ?? (await this.askStored(saltState));
    if (!key) return { revealed: false, reason: 'needs-passphrase' };
    let plaintext: string;
    try {
      plaintext = await key.crypter.decrypt(at.ciphertext);
    } catch (error) {
      if (error instanceof CiphertextError) return { revealed: false, reason: 'undecryptable' };
      throw error;
    }
    if (this.host.document(uri)?.version !== version) return { revealed: false, reason: 'stale' };
    let revealed = this.revealed.get(uri);
    if (revealed?.version !== version) this.revealed.set(uri, (revealed = { version, values: new Map() }));
    revealed.values.set(at.offset, plaintext);
    return { revealed: true, position: document.positionAt(at.offset + 1) };
  }

  private forgetAll(): void {
    this.keys.clear();
    this.asked.clear();
    this.passes.clear();
    this.running.clear();
    this.revealed.clear();
    for (const uri of this.host.openUris()) this.host.changed(uri);
  }
}

/** The secrets of the workspace's open state documents, answering the client; `revalidate` publishes a document again. */
export function registerSecrets(workspace: ServerWorkspace, stateMode: { snapshot(document: TextDocument): StateSnapshot }, revalidate: (uri: string) => void): StateSecrets {
  const { connection, documents } = workspace;
  const secrets = new StateSecrets(connection, {
    snapshot: (document) => stateMode.snapshot(document),
    document: (uri) => documents.get(uri),
    changed: revalidate,
    openUris: () => documents.all().flatMap((document) => (workspace.kindOf(document) === 'state' ? [document.uri] : [])),
  });
  secrets.register();
  return secrets;
}
