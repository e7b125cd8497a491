/**
 * State surgery: every `pulumi state` edit as a pure function over the state text, returning
 * minimal offset-based edits and a structured report (see outcome.ts). No I/O: the CLI
 * (server/cli/stateCommands.ts) reads, decompresses, locks and writes.
 */
export { openState, SurgeryError, type SurgeryDocument } from './document';
export { setFlag, type FlagOperation } from './flags';
export { moveResources, type MoveOutcome } from './move';
export type { SurgeryChange, SurgeryOutcome, SurgeryStatus } from './outcome';
export { clearPending } from './pending';
export { removeResources, type RemoveOptions } from './remove';
export { renameResource } from './rename';
export { repairState } from './repair';
