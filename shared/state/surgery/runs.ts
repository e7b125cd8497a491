/**
 * The run of each row of the surgery table (operations.ts), keyed by its name: what the CLI and the
 * server call. Apart from the table because the client bundles the table, never the analysis an
 * operation runs.
 */
import type { EditableState, SurgeryInput } from './document';
import { setFlag } from './flags';
import { moveResources } from './move';
import type { SurgeryCall, SurgeryOperation } from './operations';
import type { SurgeryOutcome } from './outcome';
import { clearPending } from './pending';
import { removeResources } from './remove';
import { renameResource } from './rename';
import { repairState } from './repair';

type Run = (source: SurgeryInput, call: SurgeryCall, dest?: string | EditableState) => { source: SurgeryOutcome; dest?: SurgeryOutcome };

const flag =
  (operation: 'protect' | 'unprotect' | 'taint' | 'untaint'): Run =>
  (source, call) => ({ source: setFlag(source, operation, call.targets ?? [], { all: call.all }) });

const RUNS: Readonly<Record<SurgeryOperation, Run>> = {
  remove: (source, call) => ({ source: removeResources(source, call.targets ?? [], { all: call.all, targetDependents: call.targetDependents, force: call.force }) }),
  protect: flag('protect'),
  unprotect: flag('unprotect'),
  taint: flag('taint'),
  untaint: flag('untaint'),
  rename: (source, call) => ({ source: renameResource(source, call.targets?.[0] ?? '', call.newName ?? '') }),
  repair: (source) => ({ source: repairState(source) }),
  'clear-pending': (source, call) => ({ source: clearPending(source, call.targets ?? []) }),
  move: (source, call, dest) => {
    if (dest === undefined) throw new Error('a move needs the destination file');
    return moveResources(source, dest, call.targets ?? [], { includeParents: call.includeParents });
  },
};

/** Runs one call: its operation on `source` (and, for a move, `dest`). */
export function runSurgery(source: SurgeryInput, call: SurgeryCall, dest?: string | EditableState): { source: SurgeryOutcome; dest?: SurgeryOutcome } {
  const run = Object.hasOwn(RUNS, call.operation) ? RUNS[call.operation] : undefined;
  if (!run) throw new Error(`unknown state operation "${call.operation}"`);
  return run(source, call, dest);
}
