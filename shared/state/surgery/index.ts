/**
 * State surgery: every `pulumi state` edit as a pure function over the state text, returning
 * minimal offset-based edits and a structured report (see outcome.ts). No I/O: the CLI
 * (server/cli/commands/state.ts, with server/cli/stateFiles.ts) reads, decompresses, locks and writes.
 */
export { openState, SurgeryError, type EditableState } from './document';
export { setFlag } from './flags';
export { moveResources } from './move';
export type { SurgeryOutcome } from './outcome';
export { clearPending } from './pending';
export { removeResources } from './remove';
export { renameResource } from './rename';
export { repairState } from './repair';
