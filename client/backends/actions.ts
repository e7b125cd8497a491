/**
 * The Backends view's writes: Restore This Version…, Prune History… and Upgrade Backend Layout….
 * Each is shared/backend's own (the CLI's `restore`, `backend prune`, `backend upgrade`),
 * run through `vscode.workspace.fs` (store.ts) under Pulumi's stack lock. Each first states what
 * it will do in a modal confirmation (the diff's summary, the files and bytes, the moves), and
 * what was confirmed is what is applied: a stack file that changed since is refused, not
 * overwritten. Prune and upgrade run with a cancellable progress notification.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { RestorePlanRequest } from '../../shared/protocol';
import { structureOf } from '../../shared/state/vocabulary';
import {
  applyPrune,
  applyRestore,
  applyUpgrade,
  diffStates,
  diffSummary,
  filesText,
  planPrune,
  planUpgrade,
  PruneRefusal,
  prunePlanText,
  readBackend,
  readBytes,
  readStackLocks,
  refuseIfAnyStackLocked,
  RestoreError,
  sizeText,
  StackLockedError,
  stacksText,
  StoreError,
  upgradePlanText,
  type BackendStack,
  type PrunePlan,
  type RestorePlan,
} from '../../shared/backend/vocabulary';
import { decodeFile } from '../../shared/text/inflate';
import { gzip } from '../compression';
import type { Notifier } from '../notifier';
import { backendFileWritten } from './documents';
import { confirmBreakingLocks } from './lockDialog';
import { lockIdentity } from '../../shared/node/lockIdentity';
import { workspaceBackendStore } from './store';

/** A core message (written for a terminal) as a dialog says it: code spans without their backticks. */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/`([^`]*)`/g, '$1');

/** A refusal the user can act on (a lock, a conflict, a bad document): said, never thrown on. */
const isRefusal = (error: unknown) => error instanceof StackLockedError || error instanceof StoreError || error instanceof RestoreError || error instanceof PruneRefusal;

export interface RestoreSource {
  root: vscode.Uri;
  stack: BackendStack;
  /** The document to restore: a history checkpoint or a backup. */
  file: vscode.Uri;
  /** How messages name it ("version 4", a backup's file name). */
  label: string;
}

export class BackendActions {
  constructor(
    private readonly client: Pick<LanguageClient, 'sendRequest'>,
    private readonly notifier: Notifier,
    private readonly refresh: () => void,
  ) {}

  /**
   * Restore: the server judges the document (as `pulumi stack import` would), the confirmation
   * states the diff's summary, and the stack file is replaced under the lock, its old bytes kept as
   * the `.bak`. A locked stack is named, with an offer to remove the lock. Resolves true when written.
   */
  async restore(source: RestoreSource): Promise<boolean> {
    const { stack, root } = source;
    if (!stack.file) {
      void this.notifier.error(vscode.l10n.t('{0} has no stack file to restore into.', stack.ref));
      return false;
    }
    const store = workspaceBackendStore(root);
    let plan: RestorePlan;
    let summary: string;
    let currentText: string;
    try {
      const sourceText = decodeFile(await vscode.workspace.fs.readFile(source.file), { name: source.file.path }).text;
      const answer = await this.client.sendRequest(RestorePlanRequest, { text: sourceText, display: source.label, project: stack.project, name: stack.name });
      if ('error' in answer) throw new RestoreError(answer.error);
      plan = { checkpoint: JSON.parse(answer.checkpoint) as RestorePlan['checkpoint'], text: answer.checkpoint, problems: answer.problems, droppedPendingOperations: answer.droppedPendingOperations };
      currentText = decodeFile(await readBytes(store, stack.file.name), { name: stack.file.name }).text;
      summary = diffSummary(diffStates(structureOf(JSON.parse(currentText)), structureOf(plan.checkpoint)));
    } catch (error) {
      if (!isRefusal(error) && !(error instanceof SyntaxError)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot restore {0} from {1}: {2}', stack.ref, source.label, messageOf(error)));
      return false;
    }
    const restore = vscode.l10n.t('Restore');
    const anyway = vscode.l10n.t('Restore Anyway');
    const details = [
      vscode.l10n.t('Changes to the current state: {0}.', summary),
      vscode.l10n.t('The state it replaces is kept in {0}.bak. No history entry is written, as with pulumi stack import.', stack.file.name.slice(stack.file.name.lastIndexOf('/') + 1)),
      ...plan.droppedPendingOperations,
    ];
    if (plan.problems.length) details.unshift(vscode.l10n.t('Pulumi would refuse this document without --force:'), ...plan.problems.map((p) => `  ${p}`), '');
    const answer = await this.notifier.confirm(vscode.l10n.t('Restore {0} to {1}?', stack.ref, source.label), details.join('\n'), plan.problems.length ? anyway : restore);
    if (answer === undefined) return false;
    return this.writeRestore(source, plan, currentText, summary, false);
  }

  private async writeRestore(source: RestoreSource, plan: RestorePlan, confirmedText: string, summary: string, breakLock: boolean): Promise<boolean> {
    const { stack, root } = source;
    const store = workspaceBackendStore(root);
    try {
      const { backup } = await applyRestore(store, stack, plan, {
        identity: lockIdentity(),
        breakLock,
        warn: (message) => void this.notifier.warning(message),
        compress: async (bytes, compression) => {
          if (compression === 'gzip') return gzip(bytes);
          throw new StoreError(vscode.l10n.t('{0} is zstd-compressed, which the editor cannot write; quota-state restore can.', stack.file!.name));
        },
        beforeWrite: (current) => {
          // Confirmed means applied: what changed since the question was asked is not overwritten.
          if (current !== confirmedText)
            throw new StoreError(vscode.l10n.t('{0} changed since the restore was confirmed; nothing was written. Restore again to see the new changes.', stack.file!.name));
        },
      });
      backendFileWritten(vscode.Uri.joinPath(root, ...stack.file!.name.split('/')));
      this.refresh();
      void this.notifier.info(vscode.l10n.t('Restored {0} to {1}: {2}. The state it replaced is in {3}.', stack.ref, source.label, summary, backup));
      return true;
    } catch (error) {
      if (error instanceof StackLockedError && !breakLock) {
        const locks = await readStackLocks(store, stack).catch(() => []);
        // Gone meanwhile (or our own lock could not be taken): said as it is, nothing broken.
        const confirmed =
          locks.length > 0 &&
          (await confirmBreakingLocks(this.notifier, stack.ref, locks, { breakStale: vscode.l10n.t('Remove Lock and Restore'), breakLive: vscode.l10n.t('Break Lock and Restore') }));
        if (locks.length === 0) void this.notifier.error(vscode.l10n.t('Cannot restore {0}: {1}', stack.ref, messageOf(error)));
        return confirmed && this.writeRestore(source, plan, confirmedText, summary, true);
      }
      if (!isRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot restore {0}: {1}', stack.ref, messageOf(error)));
      return false;
    }
  }

  /** Prune History…: the rule, a dry run in the confirmation, then the removal with progress. */
  async prune(root: vscode.Uri, only?: BackendStack): Promise<void> {
    const keep = await vscode.window.showInputBox({
      title: vscode.l10n.t('Prune History: how many of the newest entries to keep in each stack'),
      prompt: vscode.l10n.t('History entries (each with its checkpoint), backups and retained checkpoints beyond this many are removed. The newest entry always stays.'),
      value: '10',
      validateInput: (text) => (/^[1-9][0-9]*$/.test(text.trim()) ? undefined : vscode.l10n.t('A whole number of at least 1')),
    });
    if (keep === undefined) return;
    await this.pruneKeeping(root, Number(keep.trim()), only);
  }

  /** The confirmed prune of `keep` per stack (the test entry point: the input box is the only step before it). */
  async pruneKeeping(root: vscode.Uri, keep: number, only?: BackendStack): Promise<{ removed: number; cancelled: boolean } | undefined> {
    const store = workspaceBackendStore(root);
    let plans: Array<{ stack: BackendStack; plan: PrunePlan }>;
    try {
      const stacks = only ? [only] : (await readBackend(store)).stacks;
      plans = await Promise.all(stacks.map(async (stack) => ({ stack, plan: await planPrune(store, stack, { keep }) })));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot prune: {0}', messageOf(error)));
      return undefined;
    }
    const files = plans.reduce((sum, { plan }) => sum + plan.remove.length, 0);
    if (files === 0) {
      void this.notifier.info(vscode.l10n.t('Nothing to prune: every stack keeps {0} or fewer of each.', keep));
      return { removed: 0, cancelled: false };
    }
    const freed = plans.reduce((sum, { plan }) => sum + plan.freedBytes, 0);
    const details = plans.filter(({ plan }) => plan.remove.length).map(({ plan }) => prunePlanText(plan, 'plan'));
    const action = vscode.l10n.t('Prune');
    const question = vscode.l10n.t('Remove {0} ({1}) from the history of {2}?', filesText(files), sizeText(freed), stacksText(details.length));
    if ((await this.notifier.confirm(question, details.join('\n'), action)) !== action) return undefined;
    return this.withProgress(vscode.l10n.t('Pruning history'), async (control) => {
      let removed = 0;
      let total = 0;
      for (const { stack, plan } of plans) {
        if (!plan.remove.length) continue;
        let done: { removed: number; cancelled: boolean };
        try {
          done = await applyPrune(store, stack, plan, { identity: lockIdentity(), ...control(files) });
        } catch (error) {
          if (!isRefusal(error)) throw error;
          void this.notifier.error(vscode.l10n.t('Prune stopped at {0}: {1}. {2} files were removed before it.', stack.ref, messageOf(error), removed));
          return { removed, cancelled: false };
        }
        removed += done.removed;
        total++;
        if (done.cancelled) {
          void this.notifier.warning(vscode.l10n.t('Prune cancelled: {0} of {1} removed, in {2}; no history entry is left without its checkpoint.', removed, filesText(files), stacksText(total)));
          return { removed, cancelled: true };
        }
      }
      void this.notifier.info(vscode.l10n.t('Pruned {0} ({1}) in {2}.', filesText(removed), sizeText(freed), stacksText(total)));
      return { removed, cancelled: false };
    });
  }

  /** Upgrade Backend Layout…: every stack placed (else refused), the moves in the confirmation, then the moves with progress. */
  async upgrade(root: vscode.Uri): Promise<{ upgraded: number; cancelled: boolean } | undefined> {
    const store = workspaceBackendStore(root);
    const backend = await readBackend(store).catch((error: unknown) => {
      void this.notifier.error(messageOf(error));
      return undefined;
    });
    if (!backend) return undefined;
    if (backend.layout === 'project') {
      void this.notifier.info(vscode.l10n.t('{0} already has the project layout: nothing to upgrade.', root.path.split('/').pop() ?? root.toString()));
      return { upgraded: 0, cancelled: false };
    }
    try {
      const plans = await planUpgrade(store, backend, new Map());
      const unplaced = plans.filter((plan) => plan.skipped);
      if (unplaced.length) {
        void this.notifier.error(
          vscode.l10n.t(
            'Nothing was upgraded: {0}. The command quota-state backend upgrade --project-for STACK=PROJECT places such a stack.',
            unplaced.map((plan) => upgradePlanText(plan, 'plan')).join('; '),
          ),
        );
        return undefined;
      }
      await refuseIfAnyStackLocked(store, backend, plans);
      const files = plans.reduce((sum, plan) => sum + plan.moves.length, 0);
      const action = vscode.l10n.t('Upgrade');
      const details = [
        ...plans.map((plan) => upgradePlanText(plan, 'plan')),
        '',
        vscode.l10n.t('meta.yaml is written first (version 1); each old stack file is kept as its .bak. Pulumi refuses the legacy layout since v3.257.'),
      ];
      const question = vscode.l10n.t('Move {0} ({1}) to the project layout?', stacksText(plans.length), filesText(files));
      if ((await this.notifier.confirm(question, details.join('\n'), action)) !== action) return undefined;
      return await this.withProgress(vscode.l10n.t('Upgrading the backend layout'), async (control) => {
        const result = await applyUpgrade(store, backend, plans, { identity: lockIdentity(), ...control(files) });
        if (result.cancelled)
          void this.notifier.warning(vscode.l10n.t('Upgrade cancelled after {0} of {1}; each stack moved is whole. Run it again to move the rest.', result.upgraded, stacksText(plans.length)));
        else void this.notifier.info(vscode.l10n.t('Upgraded {0} to the project layout ({1} moved).', stacksText(result.upgraded), filesText(files)));
        return result;
      });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Nothing was upgraded: {0}', messageOf(error)));
      return undefined;
    }
  }

  /** A cancellable progress notification; `control(total)` gives the cancel check and the count of files done. */
  private withProgress<T>(title: string, run: (control: (total: number) => { cancelled(): boolean; progress(): void }) => Promise<T>): Thenable<T> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      let done = 0;
      const result = await run((total) => ({
        cancelled: () => token.isCancellationRequested,
        progress: () => {
          done++;
          progress.report({ message: vscode.l10n.t('{0} of {1}', done, filesText(total)), increment: 100 / total });
        },
      }));
      this.refresh();
      return result;
    });
  }
}
