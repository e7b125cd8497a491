/**
 * The Backends view's Copy to Backend… and Move to Backend…: `quota-state backend copy SRC DST
 * [--move] [--overwrite]` (shared/backend/copy.ts) between two of the view's backends, each through
 * its workspace store (a folder or a bucket, store.ts). A pick of the other backends, a modal with
 * the plan (the stacks, their objects, what is skipped and what is overwritten: Overwrite is offered
 * only when DST holds another state of a stack), the copy with progress in a notification, and the
 * result with the salt a passphrase stack needs.
 */
import * as vscode from 'vscode';
import {
  copyStack,
  planCopy,
  readBackend,
  readStackLocks,
  sizeText,
  StackLockedError,
  stacksText,
  writeNewDestinationMeta,
  type Backend,
  type BackendStack,
  type CopyPlan,
  type StackCopyPlan,
  type WritableBackendStore,
} from '../../shared/backend/vocabulary';
import { lockIdentity } from '../../shared/node/lockIdentity';
import type { Notifier } from '../notifier';
import { confirmBreakingLocks } from './lockDialog';
import { bucketPartsOf } from './bucketFileSystem';
import { isRemoteUri } from './remoteUris';
import { isStackRefusal, messageOf } from './stackActions';
import { workspaceBackendStore } from './store';

/** How messages and the pick name a backend: its URL, or its folder. */
function backendName(root: vscode.Uri): string {
  if (isRemoteUri(root)) return bucketPartsOf(root).url.replace(/\?.*$/, '');
  return root.scheme === 'file' ? root.fsPath : root.toString();
}

/** What the copy of each stack will do, in the confirmation's words. */
function planLine(stack: StackCopyPlan): string {
  const where = stack.target === stack.stack ? stack.stack : `${stack.stack} → ${stack.target}`;
  const what = vscode.l10n.t('{0} objects, {1}', stack.objects.length, sizeText(stack.bytes));
  if (stack.destination === 'different') return vscode.l10n.t("{0}: {1}; DST holds another state: Overwrite replaces it, keeping it in DST's .pulumi/deleted/ (else it is skipped)", where, what);
  if (stack.refused) return vscode.l10n.t('{0}: skipped ({1})', where, messageOf(stack.refused));
  if (stack.destination === 'same') return vscode.l10n.t('{0}: {1}; DST holds it already, each object is checked and the same bytes are skipped', where, what);
  return `${where}: ${what}`;
}

/** The salt a passphrase stack needs, as the CLI says it. */
function saltLine(stack: StackCopyPlan): string | undefined {
  if (!stack.secrets?.salt) return undefined;
  return vscode.l10n.t(
    "{0}: secrets by passphrase; the state's salt travels with it ({1}). Pulumi.{2}.yaml's encryptionsalt, if it has one, is not in the backend: carry that file with the project, and the same passphrase.",
    stack.target,
    stack.secrets.salt,
    stack.to.name,
  );
}

/** Asks the project of a legacy stack whose project cannot be told (the CLI's `--project-for`); undefined cancels. */
export type AskProject = (stack: StackCopyPlan) => Thenable<string | undefined>;

/** A Pulumi project name, as `pulumi new` and Pulumi.yaml take it. */
const PROJECT_NAME = /^[A-Za-z0-9_.-]+$/;

function askProjectInInputBox(stack: StackCopyPlan): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Project of {0}', stack.stack),
    prompt: vscode.l10n.t('{0} holds no resources, so its project cannot be told; the project layout of the destination needs one (the CLI: --project-for {1}=PROJECT).', stack.stack, stack.from.name),
    validateInput: (text) => (PROJECT_NAME.test(text.trim()) ? undefined : vscode.l10n.t('A project name is letters, digits, -, _ and .')),
  });
}

/** The stacks a legacy SRC cannot place in a project-layout DST without being told their project. */
const unplacedStacks = (plan: CopyPlan) => (plan.layout === 'project' ? plan.stacks.filter((stack) => !stack.to.project) : []);

interface Opened {
  src: WritableBackendStore;
  srcBackend: Backend;
  dst: WritableBackendStore;
  dstBackend: Backend | undefined;
}

export class CopyActions {
  constructor(
    private readonly notifier: Notifier,
    private readonly roots: () => Promise<vscode.Uri[]>,
    private readonly refresh: () => void,
  ) {}

  /** Copy to Backend… / Move to Backend…: the destination picked among the view's other backends. */
  async copy(root: vscode.Uri, stacks: BackendStack[] | undefined, move: boolean): Promise<void> {
    const others = (await this.roots()).filter((other) => other.toString() !== root.toString());
    if (others.length === 0) {
      void this.notifier.info(vscode.l10n.t('Add another backend to the view first (Add Backend…): there is none to copy to.'));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      others.map((other) => ({ label: backendName(other), root: other })),
      { title: move ? vscode.l10n.t('Move to which backend?') : vscode.l10n.t('Copy to which backend?') },
    );
    if (picked) await this.copyTo(root, stacks, picked.root, move);
  }

  /** The confirmed copy into `target` (the test entry point: the pick is the only step before it). */
  async copyTo(
    root: vscode.Uri,
    stacks: BackendStack[] | undefined,
    target: vscode.Uri,
    move: boolean,
    askProject: AskProject = askProjectInInputBox,
  ): Promise<{ copied: number; differences: number } | undefined> {
    let opened: Opened;
    let plan: CopyPlan;
    const projectFor = new Map<string, string>();
    try {
      opened = await this.open(root, target);
      plan = await planCopy(opened.src, opened.srcBackend, opened.dst, opened.dstBackend, { stacks });
      for (const unplaced of unplacedStacks(plan)) {
        const project = (await askProject(unplaced))?.trim();
        if (!project) return undefined;
        projectFor.set(unplaced.from.name, project);
      }
      if (projectFor.size) plan = await planCopy(opened.src, opened.srcBackend, opened.dst, opened.dstBackend, { stacks, projectFor });
    } catch (error) {
      if (!isStackRefusal(error)) throw error;
      void this.notifier.error(vscode.l10n.t('Cannot copy to {0}: {1}', backendName(target), messageOf(error)));
      return undefined;
    }
    const overwrite = await this.confirm(plan, target, move);
    if (overwrite === undefined) return undefined;
    if (overwrite) plan = await planCopy(opened.src, opened.srcBackend, opened.dst, opened.dstBackend, { stacks, projectFor, overwrite: true });
    return this.apply(opened, plan, target, { move, overwrite });
  }

  private async open(root: vscode.Uri, target: vscode.Uri): Promise<Opened> {
    const src = workspaceBackendStore(root);
    const dst = workspaceBackendStore(target);
    // A DST without `.pulumi/` is new: the copy writes its meta.yaml (the project layout).
    const dstBackend = (await dst.listPage('.pulumi/').then((page) => page.objects.length > 0)) ? await readBackend(dst) : undefined;
    return { src, srcBackend: await readBackend(src), dst, dstBackend };
  }

  /** The plan in a modal; resolves whether to overwrite, or undefined when cancelled or nothing can be copied. */
  private async confirm(plan: CopyPlan, target: vscode.Uri, move: boolean): Promise<boolean | undefined> {
    const copyable = plan.stacks.filter((stack) => !stack.refused);
    const different = plan.stacks.filter((stack) => stack.refused && stack.destination === 'different');
    if (copyable.length === 0 && different.length === 0) {
      void this.notifier.error(vscode.l10n.t('Nothing can be copied to {0}: {1}', backendName(target), plan.stacks.map(planLine).join('; ')));
      return undefined;
    }
    const details = [
      ...plan.stacks.map(planLine),
      ...plan.stacks.map(saltLine).filter((line): line is string => line !== undefined),
      '',
      plan.newDestination ? vscode.l10n.t('DST has no backend yet: meta.yaml (the project layout) is written first.') : '',
      vscode.l10n.t('History is written first and each stack file last, then read back and compared; each stack is locked in both backends meanwhile.'),
      move ? vscode.l10n.t("Once verified, each stack moves into this backend's .pulumi/deleted/, from where Restore brings it back.") : '',
    ].filter((line, index, all) => line !== '' || (index > 0 && all[index - 1] !== ''));
    const action = move ? vscode.l10n.t('Move') : vscode.l10n.t('Copy');
    const overwrite = vscode.l10n.t('Overwrite');
    const actions = different.length ? (copyable.length ? [action, overwrite] : [overwrite]) : [action];
    const question = move
      ? vscode.l10n.t('Move {0} to {1}?', stacksText(copyable.length + different.length), backendName(target))
      : vscode.l10n.t('Copy {0} to {1}?', stacksText(copyable.length + different.length), backendName(target));
    const answer = await this.notifier.confirm(question, details.join('\n'), ...actions);
    return answer === undefined ? undefined : answer === overwrite;
  }

  private async apply(opened: Opened, plan: CopyPlan, target: vscode.Uri, options: { move: boolean; overwrite: boolean }) {
    const stacks = plan.stacks.filter((stack) => !stack.refused);
    const total = stacks.reduce((sum, stack) => sum + stack.objects.length, 0);
    const title = options.move ? vscode.l10n.t('Moving stacks to {0}', backendName(target)) : vscode.l10n.t('Copying stacks to {0}', backendName(target));
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async (progress) => {
      let written = 0;
      let skipped = 0;
      const differences: string[] = [];
      const done: string[] = [];
      try {
        if (plan.newDestination) await writeNewDestinationMeta(opened.dst);
        for (const stack of stacks) {
          const copyOne = (breakLock: boolean) =>
            copyStack(opened.src, opened.dst, stack, {
              identity: lockIdentity(),
              nowMs: Date.now(),
              breakLock,
              warn: (message) => void this.notifier.warning(message),
              ...options,
              progress: (name) => progress.report({ message: vscode.l10n.t('{0}: {1} of {2} objects', name, written + skipped + 1, total), increment: 100 / Math.max(total, 1) }),
            });
          const outcome = await copyOne(false).catch(async (error: unknown) => {
            if (!(error instanceof StackLockedError) || !(await this.confirmBreaking(opened, stack, options.move))) throw error;
            return copyOne(true);
          });
          written += outcome.written;
          skipped += outcome.skipped;
          differences.push(...outcome.differences.map((difference) => `${outcome.target}: ${difference}`));
          done.push(outcome.target);
        }
      } catch (error) {
        this.refresh();
        if (!isStackRefusal(error)) throw error;
        void this.notifier.error(vscode.l10n.t('The copy stopped after {0}: {1}. Run it again to resume; objects already there are skipped.', stacksText(done.length), messageOf(error)));
        return { copied: done.length, differences: differences.length };
      }
      this.refresh();
      this.report(stacks, { written, skipped, differences, move: options.move, target });
      return { copied: done.length, differences: differences.length };
    });
  }

  /** A stack locked in SRC or DST: the one lock dialog, naming the holders of both; true to break them. */
  private async confirmBreaking(opened: Opened, stack: StackCopyPlan, move: boolean): Promise<boolean> {
    const lockedIn = async (store: WritableBackendStore, name: StackCopyPlan['from']) => readStackLocks(store, name).catch(() => []);
    const locks = [...(await lockedIn(opened.src, stack.from)), ...(await lockedIn(opened.dst, stack.to))];
    // Gone meanwhile (or our own lock could not be taken): the refusal is said as it is, nothing broken.
    if (locks.length === 0) return false;
    const labels = move
      ? { breakStale: vscode.l10n.t('Remove Lock and Move'), breakLive: vscode.l10n.t('Break Lock and Move') }
      : { breakStale: vscode.l10n.t('Remove Lock and Copy'), breakLive: vscode.l10n.t('Break Lock and Copy') };
    return confirmBreakingLocks(this.notifier, stack.stack, locks, labels);
  }

  private report(stacks: StackCopyPlan[], result: { written: number; skipped: number; differences: string[]; move: boolean; target: vscode.Uri }): void {
    const salts = stacks.map(saltLine).filter((line): line is string => line !== undefined);
    if (result.differences.length) {
      void this.notifier.error(vscode.l10n.t('Copied to {0}, but the read-back differs: {1}', backendName(result.target), result.differences.join('; ')));
      return;
    }
    const summary = vscode.l10n.t('{0} objects written, {1} skipped (already there with the same bytes); all verified', result.written, result.skipped);
    const text = result.move
      ? vscode.l10n.t('Moved {0} to {1}: {2}. The originals are in this backend\u2019s Deleted.', stacksText(stacks.length), backendName(result.target), summary)
      : vscode.l10n.t('Copied {0} to {1}: {2}.', stacksText(stacks.length), backendName(result.target), summary);
    void this.notifier.info([text, ...salts].join(' '));
  }
}
