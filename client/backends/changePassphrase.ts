/**
 * The Backends view's Change Passphrase… on a stack: `quota-state secrets change-passphrase STACK
 * [--include-history]`, the same shared/backend `changePassphrase`, through the view's store. The
 * current passphrase is the one SecretStorage keeps for the stack's salt, else asked and checked; the
 * new one is asked twice; a pick says whether the history is rewritten too; `Pulumi.<stack>.yaml` is
 * the one of the workspace project named as the stack's project, else picked: without it nothing is
 * written, as the CLI refuses. A held lock goes through the lock dialog. Once done, the new
 * passphrase is kept in SecretStorage for the new salt.
 */
import * as vscode from 'vscode';
import {
  changePassphrase,
  IncorrectPassphraseError,
  passphraseSaltOf,
  PassphraseChangeRefusal,
  projectBackendUrl,
  readBytes,
  readStackLocks,
  secretsProviderOf,
  StackLockedError,
  StoreError,
  type BackendStack,
  type PassphraseChanged,
} from '../../shared/backend/vocabulary';
import { structureOf } from '../../shared/state/vocabulary';
import { decodeFile } from '../../shared/text/inflate';
import { lockIdentity } from '../../shared/node/lockIdentity';
import { gzip } from '../compression';
import type { Notifier } from '../notifier';
import { askPassphrase, type SaltKeys } from '../secrets';
import { backendFileWritten } from './documents';
import { confirmBreakingLocks } from './lockDialog';
import { messageOf } from './stackActions';
import { workspaceBackendStore } from './store';

/** Change Passphrase… without its prompts (tests and automation): each answer given is not asked for. */
export interface ChangePassphraseOptions {
  current?: string;
  next?: string;
  includeHistory?: boolean;
  configFile?: vscode.Uri;
}

const encoder = new TextEncoder();

/** `Pulumi.<stack>.yaml` beside each workspace project file whose `name` is the stack's project (any project for a legacy stack). */
async function stackConfigFiles(stack: BackendStack): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  for (const project of await vscode.workspace.findFiles('**/Pulumi.{yaml,yml}', '**/node_modules/**', 100)) {
    let name: string | undefined;
    try {
      name = projectBackendUrl(new TextDecoder().decode(await vscode.workspace.fs.readFile(project))).name;
    } catch {
      continue;
    }
    if (stack.project !== undefined && name !== stack.project) continue;
    const extension = project.path.slice(project.path.lastIndexOf('.'));
    const config = vscode.Uri.joinPath(project, '..', `Pulumi.${stack.name.replace(/\//g, '-')}${extension}`);
    if (
      await vscode.workspace.fs.stat(config).then(
        () => true,
        () => false,
      )
    )
      found.push(config);
  }
  return found;
}

export class ChangePassphraseAction {
  constructor(
    private readonly notifier: Notifier,
    private readonly keys: SaltKeys,
    private readonly refresh: () => void,
  ) {}

  /** Change Passphrase…; resolves what it changed, or undefined when it stopped (said why) or was dismissed. */
  async run(root: vscode.Uri, stack: BackendStack, options: ChangePassphraseOptions = {}): Promise<PassphraseChanged | undefined> {
    const fail = (why: string) => {
      void this.notifier.error(vscode.l10n.t('Cannot change the passphrase of {0}: {1}', stack.ref, why));
      return undefined;
    };
    if (!stack.file) return fail(vscode.l10n.t('it has no stack file'));
    const store = workspaceBackendStore(root);
    let saltState: string | undefined;
    try {
      const provider = secretsProviderOf(structureOf(JSON.parse(decodeFile(await readBytes(store, stack.file.name), { name: stack.file.name }).text)));
      saltState = provider && passphraseSaltOf(provider);
    } catch (error) {
      if (!(error instanceof StoreError || error instanceof SyntaxError)) throw error;
      return fail(messageOf(error));
    }
    if (!saltState) return fail(vscode.l10n.t('its state is not under the passphrase secrets provider'));
    const key = await this.keys.unlock(saltState, () => (options.current !== undefined ? Promise.resolve(options.current) : askPassphrase(stack.ref)));
    if (key === 'unknown') return undefined;
    if (key === 'incorrect') return fail(vscode.l10n.t("incorrect passphrase: it does not open the salt of the stack's secrets; nothing was written"));
    if (key === 'unusable') return fail(vscode.l10n.t('its secrets salt cannot be read; nothing was written'));
    const next = options.next ?? (await this.askNewPassphrase(stack));
    if (next === undefined) return undefined;
    const includeHistory = options.includeHistory ?? (await this.askScope());
    if (includeHistory === undefined) return undefined;
    const config = options.configFile ?? (await this.findConfig(stack));
    if (!config)
      return fail(
        vscode.l10n.t('Pulumi.{0}.yaml is not at hand (open the project folder, or pick the file): its encryptionsalt and secure values would stay under the old key; nothing was written', stack.name),
      );
    return this.apply(root, stack, { current: key.passphrase, next, includeHistory, config }, false);
  }

  private async askNewPassphrase(stack: BackendStack): Promise<string | undefined> {
    const first = await vscode.window.showInputBox({
      title: vscode.l10n.t('New secrets passphrase of {0}', stack.ref),
      prompt: vscode.l10n.t('The new passphrase (Pulumi accepts an empty one). It is kept in the secret storage of the editor.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (first === undefined) return undefined;
    return vscode.window.showInputBox({
      title: vscode.l10n.t('New secrets passphrase of {0}, again', stack.ref),
      prompt: vscode.l10n.t('Enter the new passphrase again.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (again) => (again === first ? undefined : vscode.l10n.t('The passphrases do not match.')),
    });
  }

  private async askScope(): Promise<boolean | undefined> {
    const current = { label: vscode.l10n.t('Current state only'), history: false };
    const all = { label: vscode.l10n.t('Current state and its whole history (rewrites history files)'), history: true };
    return (await vscode.window.showQuickPick([current, all], { title: vscode.l10n.t('Re-encrypt which states?'), ignoreFocusOut: true }))?.history;
  }

  private async findConfig(stack: BackendStack): Promise<vscode.Uri | undefined> {
    const found = await stackConfigFiles(stack);
    if (found.length === 1) return found[0];
    if (found.length > 1)
      return (
        await vscode.window.showQuickPick(
          found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
          { title: vscode.l10n.t('Which Pulumi.{0}.yaml?', stack.name) },
        )
      )?.uri;
    const [picked] = (await vscode.window.showOpenDialog({ canSelectFiles: true, filters: { YAML: ['yaml', 'yml'] }, title: vscode.l10n.t('Pulumi.{0}.yaml of {1}', stack.name, stack.ref) })) ?? [];
    return picked;
  }

  private async apply(
    root: vscode.Uri,
    stack: BackendStack,
    change: { current: string; next: string; includeHistory: boolean; config: vscode.Uri },
    breakLock: boolean,
  ): Promise<PassphraseChanged | undefined> {
    const store = workspaceBackendStore(root);
    const config = change.config;
    try {
      const before = await vscode.workspace.fs.readFile(config);
      const changed = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Changing the passphrase of {0}', stack.ref) }, () =>
        changePassphrase(
          {
            store,
            compress: async (bytes, compression) => {
              if (compression === 'gzip') return gzip(bytes);
              throw new StoreError(vscode.l10n.t('{0} is zstd-compressed, which the editor cannot write; quota-state secrets change-passphrase can.', stack.file!.name));
            },
            writeConfig: async (text) => {
              const backup = config.with({ path: `${config.path}.bak` });
              await vscode.workspace.fs.writeFile(backup, before);
              const temporary = config.with({ path: `${config.path}.quota-state.tmp` });
              await vscode.workspace.fs.writeFile(temporary, encoder.encode(text));
              await vscode.workspace.fs.rename(temporary, config, { overwrite: true });
              return vscode.workspace.asRelativePath(backup);
            },
          },
          {
            stack,
            current: change.current,
            next: change.next,
            config: { display: vscode.workspace.asRelativePath(config), text: new TextDecoder().decode(before) },
            includeHistory: change.includeHistory,
            lock: { identity: lockIdentity(), breakLock, warn: (message) => void this.notifier.warning(message) },
          },
        ),
      );
      await this.keys.remember(changed.saltState, change.next);
      backendFileWritten(vscode.Uri.joinPath(root, ...stack.file!.name.split('/')));
      this.refresh();
      void this.notifier.info(
        vscode.l10n.t(
          'Changed the passphrase of {0}: {1} secrets of its state and {2} secure config values re-encrypted under a new salt; the old files are kept in {3} and {4}.',
          stack.ref,
          changed.state,
          changed.config,
          changed.backups.state,
          changed.backups.config,
        ),
      );
      if (changed.history.objects) void this.notifier.info(vscode.l10n.t('Rewrote {0} history and backup files ({1} secrets re-encrypted).', changed.history.objects, changed.history.secrets));
      if (changed.history.unopened.length) void this.notifier.warning(vscode.l10n.t('Left as they were (the old passphrase does not open them): {0}', changed.history.unopened.join('; ')));
      return changed;
    } catch (error) {
      if (error instanceof StackLockedError && !breakLock) {
        const locks = await readStackLocks(store, stack).catch(() => []);
        const labels = { breakStale: vscode.l10n.t('Remove Lock and Change Passphrase'), breakLive: vscode.l10n.t('Break Lock and Change Passphrase') };
        if (locks.length && (await confirmBreakingLocks(this.notifier, stack.ref, locks, labels))) return this.apply(root, stack, change, true);
        if (locks.length) return undefined;
      }
      if (!(error instanceof IncorrectPassphraseError || error instanceof PassphraseChangeRefusal || error instanceof StackLockedError || error instanceof StoreError)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot change the passphrase of {0}: {1}', stack.ref, messageOf(error)));
      return undefined;
    }
  }
}
