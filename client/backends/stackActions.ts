/**
 * The Backends view's stack writes: Rename Stack…, Remove Stack… and Restore on a Deleted entry.
 * Each is shared/backend's own (the CLI's `stack rename`, `stack rm`, `stack restore-deleted`), run
 * through `vscode.workspace.fs` or a bucket (store.ts) under Pulumi's stack lock, confirmed first in
 * a modal that names what is kept. Copy to Backend… and Move to Backend… are copyActions.ts's.
 */
import * as vscode from 'vscode';
import {
  DeletedRefusal,
  readBackend,
  removeStack,
  renameStack,
  restoreDeleted,
  StackHasResources,
  StackLockedError,
  StoreError,
  type BackendStack,
  type DeletedEntry,
} from '../../shared/backend/vocabulary';
import { lockIdentity } from '../../shared/node/lockIdentity';
import type { Notifier } from '../notifier';
import { workspaceBackendStore } from './store';

/** A core message (written for a terminal) as a dialog says it: code spans without their backticks. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/`([^`]*)`/g, '$1');

/** A refusal the user can act on (a lock, a conflict, nothing to restore): said, never thrown on. */
export const isStackRefusal = (error: unknown) => error instanceof StackLockedError || error instanceof StoreError || error instanceof DeletedRefusal;

/** Pulumi's ValidateStackName: letters, digits, `-`, `_` and `.`, at most 100 characters. */
const STACK_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
/** As Pulumi's project names: letters, digits, `-`, `_` and `.`. */
const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * A new name as `pulumi stack rename` takes it: `name`, or `organization/<project>/<name>` in the
 * project layout (a new project). An error text when it is not one.
 */
function parseNewStackName(text: string, stack: BackendStack): { project?: string; name: string } | string {
  const parts = text.trim().split('/');
  if (parts.length === 1) {
    if (!STACK_NAME.test(parts[0])) return vscode.l10n.t('A stack name may only contain alphanumeric, hyphens, underscores, or periods (at most 100 characters).');
    return { ...(stack.project ? { project: stack.project } : {}), name: parts[0] };
  }
  if (!stack.project) return vscode.l10n.t('A legacy backend names a stack by its name alone.');
  if (parts.length !== 3 || parts[0] !== 'organization') return vscode.l10n.t('A stack in a DIY backend is named NAME or organization/PROJECT/NAME (the organization is always "organization").');
  if (!PROJECT_NAME.test(parts[1])) return vscode.l10n.t('A project name may only contain alphanumeric, hyphens, underscores, or periods.');
  if (!STACK_NAME.test(parts[2])) return vscode.l10n.t('A stack name may only contain alphanumeric, hyphens, underscores, or periods (at most 100 characters).');
  return { project: parts[1], name: parts[2] };
}

const refOf = (stack: { project?: string; name: string }) => (stack.project ? `organization/${stack.project}/${stack.name}` : stack.name);

export class StackActions {
  constructor(
    private readonly notifier: Notifier,
    private readonly refresh: () => void,
  ) {}

  /** Rename Stack…: the new name in an input box validated as Pulumi validates it. */
  async rename(root: vscode.Uri, stack: BackendStack): Promise<void> {
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Rename {0}', stack.ref),
      prompt: stack.project
        ? vscode.l10n.t('The new name, or organization/PROJECT/NAME to move it to another project. Its history, backups and tags go with it; the old stack file is kept as its .bak.')
        : vscode.l10n.t('The new name. Its history, backups and tags go with it; the old stack file is kept as its .bak.'),
      value: stack.name,
      validateInput: (value) => {
        const parsed = parseNewStackName(value, stack);
        if (typeof parsed === 'string') return parsed;
        return refOf(parsed) === stack.ref ? vscode.l10n.t('The same name') : undefined;
      },
    });
    if (text === undefined) return;
    await this.renameTo(root, stack, text);
  }

  /** The rename to `text` (the test entry point: the input box is the only step before it). Resolves true when renamed. */
  async renameTo(root: vscode.Uri, stack: BackendStack, text: string): Promise<boolean> {
    const to = parseNewStackName(text, stack);
    if (typeof to === 'string') {
      void this.notifier.error(vscode.l10n.t('Cannot rename {0}: {1}', stack.ref, to));
      return false;
    }
    try {
      const report = await renameStack(workspaceBackendStore(root), { project: stack.project, name: stack.name }, to, { identity: lockIdentity() });
      this.refresh();
      const moved = [vscode.l10n.t('{0} history files', report.historyFiles), vscode.l10n.t('{0} backups', report.backups), report.tags ? vscode.l10n.t('its tags') : undefined].filter(Boolean);
      void this.notifier.info(
        vscode.l10n.t('Renamed {0} to {1} with {2}; the old stack file is kept as {3}. Rename Pulumi.{4}.yaml in the project too.', report.from, report.to, moved.join(', '), report.bak, stack.name),
      );
      if (report.recompressed) void this.notifier.warning(messageOf(report.recompressed));
      return true;
    } catch (error) {
      if (!isStackRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot rename {0}: {1}', stack.ref, messageOf(error)));
      return false;
    }
  }

  /**
   * Remove Stack…: a modal naming what is kept in `.pulumi/deleted/`; a stack with resources is
   * refused as Pulumi refuses it, unless the user then confirms Force. Resolves true when removed.
   */
  async remove(root: vscode.Uri, stack: BackendStack, force = false): Promise<boolean> {
    const action = force ? vscode.l10n.t('Force Remove') : vscode.l10n.t('Remove');
    const kept = [
      stack.file ? stack.file.name : undefined,
      stack.bak,
      vscode.l10n.t('{0} history entries', stack.historyIds.length),
      vscode.l10n.t('{0} backups', stack.backups.length),
      vscode.l10n.t('its tags, if any'),
    ].filter(Boolean);
    const detail = [
      vscode.l10n.t('Kept in .pulumi/deleted/{0}/{1}/, from where Restore brings it back: {2}.', stack.project ?? '.legacy', stack.name, kept.join(', ')),
      vscode.l10n.t('Pulumi.{0}.yaml in the project is not touched.', stack.name),
    ];
    if (force) detail.unshift(vscode.l10n.t('{0} still has resources: they stay in the cloud, and Pulumi no longer sees them once the stack is removed.', stack.ref), '');
    if ((await this.notifier.confirm(vscode.l10n.t('Remove {0}?', stack.ref), detail.join('\n'), action)) !== action) return false;
    try {
      const { folder } = await removeStack(workspaceBackendStore(root), { project: stack.project, name: stack.name }, { identity: lockIdentity(), force, nowMs: Date.now(), reason: 'stack rm' });
      this.refresh();
      void this.notifier.info(vscode.l10n.t('Removed {0}: it is kept in {1}; Restore on its Deleted entry brings it back.', stack.ref, folder));
      return true;
    } catch (error) {
      if (error instanceof StackHasResources && !force) return this.remove(root, stack, true);
      if (!isStackRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot remove {0}: {1}', stack.ref, messageOf(error)));
      return false;
    }
  }

  /** Restore on a Deleted entry: the stack back with its history, what could not be recovered said. */
  async restoreDeleted(root: vscode.Uri, entry: DeletedEntry): Promise<boolean> {
    const store = workspaceBackendStore(root);
    try {
      const backend = await readBackend(store);
      const report = await restoreDeleted(store, { project: entry.project, name: entry.name }, { identity: lockIdentity(), id: entry.id, projectLayout: backend.layout === 'project' });
      this.refresh();
      const recovered = vscode.l10n.t('{0} history entries, {1} backups{2}', report.recovered.historyEntries, report.recovered.backups, report.recovered.tags ? vscode.l10n.t(', its tags') : '');
      void this.notifier.info(vscode.l10n.t('Restored {0} into {1} with {2}.', entry.stack, report.stackFile, recovered));
      if (report.lost.length) void this.notifier.warning(vscode.l10n.t('Not recovered: {0}', report.lost.join('; ')));
      return true;
    } catch (error) {
      if (!isStackRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot restore {0}: {1}', entry.stack, messageOf(error)));
      return false;
    }
  }
}
