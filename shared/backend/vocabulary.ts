/**
 * What a Pulumi DIY backend is, without the state analysis: the model read through an injected
 * store, its paths and locks, restore, prune and upgrade through a writable store, the diff of two
 * states, and the URL grammar of each scheme. The client bundles this door (the Backends view reads a
 * backend itself, through `vscode.workspace.fs` or a bucket); what needs the analysis (a restore's
 * plan judges the checkpoint) is index.ts's `createBackendService()`.
 */
export { BackendError, findStack, readBackend, readHistory, type Backend, type BackendProblem, type BackendStack, type HistoryEntry } from './backend';
export { lockFolderOf, stackFileOf } from './paths';
export {
  backendFolderProblem,
  listAll,
  objectUrl,
  readBytes,
  readIfPresent,
  StoreBusy,
  StoreConflict,
  StoreError,
  StoreMissing,
  type StoredObject,
  type StoreObject,
  type WritableBackendStore,
} from './store';
// The one writer of a stack file: Pulumi's lock, the version read, the `.bak`, the write only if unchanged.
export { withStackWrite, withStackWrites } from './stackWrite';
export { StackLockedError, type LockIdentity } from './stackLock';
export { DEFAULT_STALE_LOCK_AGE, judgeLock, lockAgeText, parseStaleLockAge, readStackLocks, type LockFacts, type StaleLockContext } from './staleLock';
// The words of a backend, written once: what the CLI prints and the Backends view shows.
export { describeEntry, describeLock, filesText, lastUpdateText, prunePlanText, pruneTotalText, sizeText, stacksText, upgradePlanText, upgradeTotalText, type LockDescription } from './describe';
// Removed stacks kept in `.pulumi/deleted/`, and renamed stacks (deleted.ts, rename.ts).
export { DeletedRefusal, listDeleted, removeStack, restoreDeleted, StackHasResources, type DeletedEntry } from './deleted';
export { renameStack } from './rename';
// `backend copy`: the plan, one stack's copy with its verification (and move), a new DST's meta.yaml.
export { copyStack, planCopy, writeNewDestinationMeta, type CopyPlan, type StackCopyPlan } from './copy';
export { applyRestore, RestoreError, type RestorePlan } from './restore';
export { applyPrune, planPrune, PruneRefusal, type PrunePlan } from './prune';
export { applyUpgrade, planUpgrade, refuseIfAnyStackLocked, type StackUpgrade } from './upgrade';
// A remote backend's URL (`s3://…`, …) read as Pulumi reads it: the CLI's and the editor's stores open it.
export { parseS3BackendUrl, type S3BackendUrl } from './s3Url';
export { type AzblobBackendUrl } from './azblobUrl';
export { parseRemoteBackendUrl, remoteSchemeOf, REMOTE_SCHEMES, RemoteUrlError, type RemoteBackendUrl } from './remoteUrl';
// A PostgreSQL backend's URL (`postgres://…`) read as Pulumi and lib/pq read it: the CLI's store opens it.
export { parsePostgresBackendUrl, type PostgresBackendUrl } from './postgresUrl';
// A Google Cloud Storage URL (`gs://…`) read as Pulumi reads it, and gcsblob's object keys.
export { gcsObjectKey, gcsObjectName, parseGcsBackendUrl, type GcsBackendUrl } from './gcsUrl';
// What changed between two states: a comparison of parsed values, no analysis (the State Diff view computes it too).
export { diffStates, diffSummary, type StateDiff } from './diff/diff';
// Which backend a URL names, and which one a command reads in Pulumi's order (the I/O injected).
export { backendUrlTarget, BackendUrlError, projectBackendUrl, resolveBackendUrl, type ResolvedBackendUrl } from './url';
// Pulumi's passphrase secrets provider, offline (secrets/, docs/pulumi-secrets.md): the key, a ciphertext, a state's secrets, their check.
export { CiphertextError, IncorrectPassphraseError, newPassphraseCrypter, passphraseCrypter, SecretsError, type PassphraseCrypter } from './secrets/crypter';
export { goTrimSpace, passphraseFromEnvironment, type Passphrase } from './secrets/passphrase';
export { formatPropertyPath, parsePropertyPath, PropertyPathError } from './secrets/propertyPath';
export { NotJsonSecretError, openCiphertexts, revealAt } from './secrets/reveal';
export { rekeyState } from './secrets/rekey';
// `secrets change-passphrase` and the Backends view's Change Passphrase...: one orchestration, the I/O injected.
export { changePassphrase, PassphraseChangeRefusal, type PassphraseChanged } from './secrets/changePassphrase';
export { configSecrets, passphraseSaltOf, secretsProviderOf } from './secrets/walk';
export {
  checkConfigSecrets,
  checkStateSecrets,
  newSecretsMemo,
  stateSaltState,
  stateSecretsPass,
  type SecretsMemo,
  type CiphertextProblem,
  type ConfigSecretFinding,
  type OtherSalt,
  type StateSecretFinding,
  type StateSecretsReport,
} from './secrets/check';
