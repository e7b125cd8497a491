/**
 * What resource-state files say that needs none of their analysis: the schema modes and codes, the
 * surgery table (its names, switches and palette commands), the DIY lock-folder rule and the DIY
 * backend model (a folder read through an injected store). The client
 * bundles this door, never index.ts's service; everything else outside the kind goes through index.ts.
 */
export { isStateSchemaMode, STATE_CODES, STATE_SCHEMA_MODES, stateSchemaModeOf, type StateSchemaMode } from './codes';
export type { StateShape } from './model/structure';
export { lockFolderOf, stackFileOf } from './surgery/diyBackend';
export { surgeryRow, SURGERY_OPERATIONS, SURGERY_TABLE, type SurgeryCall, type SurgeryPaletteCommand, type SurgeryRow, type SurgerySwitch } from './surgery/operations';
export { GRAPH_EDGE_KINDS, GRAPH_GROUP_BYS, GROUP_ID_PREFIX, type GraphEdgeKind, type GraphGroupBy } from './graph/kinds';
// The DIY backend model reads through an injected store and does no analysis: the editor's view reads it too.
export { BackendError, findStack, readBackend, readHistory, type Backend, type BackendStack, type HistoryEntry } from './backend/backend';
export { backendFolderProblem, StoreConflict, StoreError, type BackendStore, type StoreObject, type WritableBackendStore } from './backend/store';
// Restore, prune and upgrade through a writable store, under Pulumi's stack lock: the Backends view runs them too.
export { StackLockedError, withStackLock, type LockIdentity } from './backend/stackLock';
export { DEFAULT_STALE_LOCK_AGE, judgeLock, lockAgeText, parseStaleLockAge, readStackLocks, type LockFacts, type LockVerdict, type StaleLockContext } from './backend/staleLock';
export { applyRestore, RestoreError, writeKeepingBackup, type RestorePlan } from './backend/restore';
export { applyPrune, planPrune, PruneRefusal, type PrunePlan } from './backend/prune';
export { applyUpgrade, planUpgrade, refuseIfAnyStackLocked, type StackUpgrade } from './backend/upgrade';
// A bucket's URL (`s3://…`) read as Pulumi reads it: the CLI's and the editor's object store open it.
export { isObjectStorageUrl, parseS3BackendUrl, S3UrlError, type S3BackendUrl } from './backend/s3Url';
// What changed between two states: a comparison of parsed values, no analysis (the State Diff view computes it too).
export { diffStates, diffSummary, type StateDiff } from './diff/diff';
export { buildStateStructure as structureOf } from './model/structure';
