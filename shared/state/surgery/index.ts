/**
 * State surgery: every `pulumi state` edit as a pure function over the state text (or its parsed
 * snapshot), returning minimal offset-based edits and a structured report (see outcome.ts);
 * operations.ts is the table of them that the CLI, the code actions and the palette read. No I/O: the CLI
 * (cli/commands/state.ts, with cli/stackTargets.ts and the backend kind's one stack writer) reads,
 * decompresses, locks and writes.
 */
export { openState } from './document';
export { setFlag } from './flags';
export { moveResources } from './move';
export { runSurgery } from './runs';
export { surgeryRow, SURGERY_OPERATIONS, SURGERY_TABLE } from './operations';
export type { SurgeryOutcome } from './outcome';
export { clearPending } from './pending';
export { removeResources } from './remove';
export { renameResource } from './rename';
export { repairState } from './repair';
