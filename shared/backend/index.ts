/**
 * The front door of Pulumi DIY backends, as `createStateService()` is of state files: one object
 * offering the model, history, diff, restore, prune and upgrade over an injected store. It reads
 * state through shared/state's door (parsing, and the analysis a restore's plan needs); nothing
 * outside `shared/backend/` imports an inner file (dependency-cruiser's `one-door-per-kind`). The
 * client bundles vocabulary.ts, which holds all of this but the analysis.
 */
import { createStateService, type StateSnapshot } from '../state/index';
import { mapBounded, READ_CONCURRENCY, readBackend, readHistory, type BackendStack } from './backend';
import { diffMarkdown, diffStates, diffSummary, diffText, statesDiffer } from './diff/diff';
import { parseDuration } from './duration';
import { applyPrune, planPrune } from './prune';
import { applyRestore, planRestore } from './restore';
import { refuseIfStackLocked, withStackLock } from './stackLock';
import { listDeleted, listPulumiLeftovers, planPruneDeleted, removeDeletedEntry, removeStack, restoreDeleted } from './deleted';
import { renameStack } from './rename';
import { copyStack, planCopy, writeNewDestinationMeta } from './copy';
import { applyUpgrade, clearInterruptedUpgradeLocks, finishUpgrade, journalProjects, planUpgrade, readUpgradeJournal, refuseIfAnyStackLocked, UPGRADE_JOURNAL } from './upgrade';

export * from './vocabulary';

export function createBackendService() {
  const state = createStateService();
  return {
    /** A DIY backend read whole through a store (a folder, a bucket, the editor's file system). */
    read: readBackend,
    history: readHistory,
    /** Per-stack work over a backend, a bounded number at once (READ_CONCURRENCY), as the model reads its own. */
    eachStack: <R>(stacks: readonly BackendStack[], task: (stack: BackendStack) => Promise<R>) => mapBounded(stacks, READ_CONCURRENCY, task),
    planPrune,
    applyPrune,
    parseDuration,
    /** What restoring `snapshot` into a stack writes, and what Pulumi would refuse without --force (its integrity errors among them). */
    planRestore: (snapshot: StateSnapshot, stack: Pick<BackendStack, 'project' | 'name'>, display: string) =>
      planRestore(
        snapshot,
        state
          .analyzeSnapshot(snapshot)
          .diagnostics.filter((d) => d.severity === 'error')
          .map((d) => ({ line: d.range.start.line, code: String(d.code), message: d.message })),
        stack,
        display,
      ),
    applyRestore,
    planUpgrade,
    applyUpgrade,
    refuseIfAnyStackLocked,
    /** An interrupted upgrade: its journal (`UPGRADE_JOURNAL`), the locks it left, and finishing it. */
    upgradeJournal: UPGRADE_JOURNAL,
    readUpgradeJournal,
    journalProjects,
    clearInterruptedUpgradeLocks,
    finishUpgrade,
    withStackLock,
    /** `stack rm` into the deleted area, `stack restore-deleted`, and the area's listing and pruning (deleted.ts). */
    removeStack,
    restoreDeleted,
    listDeleted,
    listPulumiLeftovers,
    planPruneDeleted,
    removeDeletedEntry,
    /** `stack rename` as Pulumi's DIY backend renames, with our differences (rename.ts). */
    renameStack,
    /** `backend copy`: the plan, one stack's copy with its verification (and --move), and a new DST's meta.yaml (copy.ts). */
    planCopy,
    copyStack,
    writeNewDestinationMeta,
    /** Refuses (StackLockedError) when the stack is locked, naming each holder; takes no lock. */
    refuseIfLocked: refuseIfStackLocked,
    /** What changed between two states, and its text, Markdown and one-line forms. */
    diff: { states: diffStates, summary: diffSummary, text: diffText, markdown: diffMarkdown, differ: statesDiffer },
  };
}
