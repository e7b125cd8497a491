/**
 * The one protocol module: custom LSP requests and notifications, imported by both the
 * client and the server so names and shapes are declared exactly once.
 */
import { NotificationType, RequestType, type Location, type Position, type WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { DocumentKind } from './documentKind';
import type { Severity } from './diagnostics';
import type { QuotaFileSummary, ForgejoVersionSource, EvaluationReport, AccountExplanation } from './quota';
import type { QuotaInfo } from './api/types';
import type { GraphView, GraphViewRequest, StateSchemaMode, SurgeryCall } from './state';

/** The `quotaState` settings section the server reads through `workspace/configuration`. */
export interface ServerSettings {
  diagnostics?: {
    /** Per-code severity override; `off` hides the code. */
    severity?: Record<string, Severity | 'off'>;
  };
  state?: {
    /** How state records are read: `pulumi` (default, as Pulumi's loader) or `seed-v3` (the seed's schema exactly). */
    schema?: StateSchemaMode;
  };
  files?: {
    /** Globs recognised as resource-state files (in addition to content detection). */
    state?: string[];
    /** Globs recognised as quota config files. */
    quota?: string[];
    /** Globs recognised as Forgejo server configuration files (default: any file named `app.ini`). */
    appIni?: string[];
  };
  appIni?: {
    /** The quota file whose groups app.ini's DEFAULT_GROUPS are checked against (absolute, or relative to the app.ini). */
    quotaFile?: string;
  };
  /** The Forgejo version whose quota rules previews follow when a quota file declares none (`quotaState.forgejoVersion`). */
  forgejoVersion?: string;
}

export const SETTINGS_SECTION = 'quotaState';

/** Client → server: the `quota-state evaluate --format json` result for a quota document. */
export interface EvaluationPreviewParams {
  uri: string;
  account?: string;
  subject?: string;
}
export const EvaluationPreviewRequest = new RequestType<EvaluationPreviewParams, EvaluationReport | null, void>('quotaState/evaluationPreview');

/**
 * Client → server: a quota file read by the server's analysis (the text as the client has it,
 * unsaved edits included), for Push and the dashboard's file preview.
 */
export interface QuotaFileParams {
  uri: string;
  text: string;
}
export const QuotaFileRequest = new RequestType<QuotaFileParams, QuotaFileSummary | null, void>('quotaState/quotaFile');

/**
 * Client → server: one account explained by the quota engine, which runs in the server only. The
 * account as a quota API answered for it (`quota`, with the version the server reported), or an
 * account of a quota file (`file`: its uri and the text the client read). Both ways the bigints
 * (limits and usage beyond 2^53) cross exactly, in `toWire`'s form (shared/api/json.ts).
 */
export interface ExplainAccountParams {
  account: string;
  /** The subjects to explain (none: only the groups). */
  subjects: string[];
  quota?: QuotaInfo;
  serverVersion?: string;
  file?: QuotaFileParams;
}
/** `refused: 'errors'`: the file has errors that stop evaluation; null: the server could not answer (its log says why). */
export type ExplainAccountResult = { explanation: AccountExplanation } | { refused: 'errors' };
export const ExplainAccountRequest = new RequestType<ExplainAccountParams, ExplainAccountResult | null, void>('quotaState/explainAccount');

/**
 * Client → server: the signed-in user's usage fetched from the quota API (GET /user/quota),
 * or `null` after sign-out. The server never talks to the network itself.
 */
export interface LiveUsageParams {
  account: string;
  /** Base URL of the API the usage came from, shown in previews. */
  server: string;
  quota: QuotaInfo;
  /** What the server answered to `GET /version` (e.g. `11.0.3+gitea-1.22.0`), when it answered. */
  version?: string;
}
export const LiveUsageNotification = new NotificationType<LiveUsageParams | null>('quotaState/liveUsage');

/**
 * Client → server: the quota group names of the server the user is signed in to as a site
 * admin (GET /admin/quota/groups), or `null` when there is none. app.ini's DEFAULT_GROUPS are
 * checked against them; the server never fetches them itself.
 */
export interface LiveGroupsParams {
  /** Base URL of the API the names came from, shown in messages. */
  server: string;
  groups: string[];
}
export const LiveGroupsNotification = new NotificationType<LiveGroupsParams | null>('quotaState/liveGroups');

/**
 * Client → server: a state file the editor cannot hand over (over VS Code's 50 MB sync limit,
 * or an open editor whose document never arrived). The server reads it from disk and
 * publishes diagnostics for its URI.
 */
export interface AnalyzeFromDiskParams {
  uri: string;
}
export const AnalyzeFromDiskNotification = new NotificationType<AnalyzeFromDiskParams>('quotaState/analyzeFromDisk');

/**
 * Server → client: the text of a workspace file (`null` when there is none), read through
 * `vscode.workspace.fs`, so it works on a virtual file system. The browser build's server reads
 * `.quota-state.json` this way; Node's reads the disk.
 */
export interface ReadWorkspaceFileParams {
  uri: string;
}
export const ReadWorkspaceFileRequest = new RequestType<ReadWorkspaceFileParams, string | null, void>('quotaState/readWorkspaceFile');

/** Server → client: the names of the files in a workspace folder (`null` when it cannot be read), as ReadWorkspaceFileRequest. */
export const ReadWorkspaceDirectoryRequest = new RequestType<ReadWorkspaceFileParams, string[] | null, void>('quotaState/readWorkspaceDirectory');

/** Server → client: what a document was recognised as, for the language status item. */
export interface DocumentStatusParams {
  uri: string;
  kind: DocumentKind | null;
  /** e.g. "export", "checkpoint", "deployment", "record", "quota config", "instance". */
  shape?: string;
  /** State files: the schema mode they were read in (`pulumi` or `seed-v3`). */
  schema?: StateSchemaMode;
  /** True when the server analysed the file from disk rather than from the editor. */
  fromDisk?: boolean;
  /** Features that are not available for this document, each with the reason. */
  unavailable?: Array<{ feature: string; reason: string }>;
  diagnosticCount?: number;
  /**
   * Milliseconds from this version's arrival (the decoded didOpen or didChange) to its diagnostics
   * being handed to the connection, debounce included: the server's own share of a validation.
   */
  validationMs?: number;
  /** Quota and app.ini files: the Forgejo rules in force ("Forgejo 11.0 rules") and where the version came from. */
  forgejo?: { rules: string; version: string; source: ForgejoVersionSource; description: string };
}
export const DocumentStatusNotification = new NotificationType<DocumentStatusParams>('quotaState/documentStatus');

/**
 * The command a state file's "N dependents" code lens runs (registered by the client): shows,
 * as a peek at `position`, where the records depending on `urn` refer to it.
 */
export const SHOW_DEPENDENTS_COMMAND = 'quotaState.showDependents';
export interface ShowDependentsArguments {
  uri: string;
  urn: string;
  /** Where the peek opens: the urn's definition. */
  position: Position;
}

/** Client → server: where the records depending on `urn` refer to it (aliases are not dependents). */
export interface DependentsParams {
  uri: string;
  urn: string;
}
export const DependentsRequest = new RequestType<DependentsParams, Location[], void>('quotaState/dependents');

/**
 * The command a state record's "graph" code lens, the editor title and the explorer run (registered
 * by the client): opens the resource graph beside the editor, focused on the lens's `{ uri, urn }`,
 * else on the record under the cursor, else on the stack.
 */
export const SHOW_RESOURCE_GRAPH_COMMAND = 'quotaState.showResourceGraph';

/** Client → server: the resource graph of a state document, focused, filtered and laid out. */
export interface ResourceGraphParams extends GraphViewRequest {
  uri: string;
  /** Also answer the whole graph as DOT, as `pulumi stack graph` writes it (the export). */
  dot?: boolean;
}
export interface ResourceGraphResult extends GraphView {
  /** The document version the picture is of. */
  version: number;
  /** Set when the text does not parse: the picture is of the last version that did. */
  stale?: string;
  dot?: string;
}
export const ResourceGraphRequest = new RequestType<ResourceGraphParams, ResourceGraphResult | null, void>('quotaState/resourceGraph');

/**
 * State surgery (shared/state/surgery) from the editor. The client's commands ask the server for
 * the edit of one operation; the answer is a WorkspaceEdit whose edits carry a change annotation
 * with `needsConfirmation`, so VS Code shows its refactor preview before anything changes.
 */
export interface SurgeryParams extends SurgeryCall {
  uri: string;
  /** A move's destination: its uri and its current text (the client reads it; the server does no I/O for it). */
  dest?: { uri: string; text: string; version?: number | null };
}
export interface SurgeryResult {
  /** Absent when the operation was refused or changed nothing. */
  edit?: WorkspaceEdit;
  status: 'applied' | 'unchanged' | 'refused';
  /** Pulumi's summary line, or why it was refused. */
  message: string;
  /** The report in one line, shown once the edit is applied. */
  description: string;
  errors: string[];
  notes: string[];
  dependentsRemoved: string[];
  remainingErrors: string[];
  /** What the editor's modal confirmation states before the edit is applied; present with `edit`. */
  confirmation?: SurgeryConfirmation;
}
/**
 * The one question asked before a surgery applies: what it removes, the dependents, the references
 * it cuts, the pending operations it clears, and the protected resources it overrides.
 */
export interface SurgeryConfirmation {
  /** The modal's message: the operation on its targets, and the protected resources it overrides. */
  question: string;
  /** One line per kind of effect, for the modal's detail. */
  details: string[];
  /** The button that applies it ("Remove 3 resources"; "Remove Anyway" when it overrides protection). */
  action: string;
  /** The protected resources the edit removes (`remove` without `force` is retried with it, and asks). */
  protectedOverridden: string[];
}
export const SurgeryRequest = new RequestType<SurgeryParams, SurgeryResult | null, void>('quotaState/surgery');

/** Client → server: the records of a state document for the quick picks (name, type, copy and flags). */
export interface SurgeryResourcesParams {
  uri: string;
  /** The cursor: the record under it is answered as `atCursor`. */
  position?: Position;
}
export interface SurgeryResource {
  urn: string;
  /** The argument naming this record: its urn, or `URN#N` when the file has several records with it. */
  target: string;
  name: string;
  type: string;
  /** 1-based position among the records with this urn. */
  copy: number;
  copies: number;
  delete: boolean;
  protect: boolean;
  taint: boolean;
  dependents: number;
  /** Where its urn is defined. */
  position: Position;
}
export interface SurgeryResourcesResult {
  resources: SurgeryResource[];
  pending: Array<{ target: string; type: string; urn: string }>;
  /** The target of the record under `position`, if any. */
  atCursor?: string;
}
export const SurgeryResourcesRequest = new RequestType<SurgeryResourcesParams, SurgeryResourcesResult | null, void>('quotaState/surgeryResources');

/** Client commands the server's code actions and lenses run (the client registers them; each operation's own are in the surgery table). */
export const SURGERY_COMMANDS = {
  /** Arguments: `{ uri, operation, targets, targetDependents?, force? }` (a SurgeryParams without dest): asks in a modal confirmation, then applies in one edit. */
  run: 'quotaState.state.run',
  /** Shows a refused operation's report. */
  showReport: 'quotaState.state.showReport',
} as const;

/**
 * Client → server: what restoring a state document into a DIY stack writes (the Backends view's
 * Restore This Version…). The server analyzes the document, as `pulumi stack import` would judge
 * it; the client writes the answer through its file system, under Pulumi's lock.
 */
export interface RestorePlanParams {
  /** The document to restore (a checkpoint, a backup, an export), inflated. */
  text: string;
  /** How messages name it. */
  display: string;
  project?: string;
  name: string;
}
export type RestorePlanResult = { checkpoint: string; problems: string[]; droppedPendingOperations: string[] } | { error: string };
export const RestorePlanRequest = new RequestType<RestorePlanParams, RestorePlanResult, void>('quotaState/restorePlan');

/**
 * Pulumi's passphrase secrets in state files (issue 57). The client keeps each passphrase in the
 * editor's SecretStorage, keyed by the salt state it opens (`v1:<salt>:<check value>`, the state's
 * `secrets_providers.state.salt`): the same passphrase opens every stack with that salt, and a
 * changed passphrase comes with a new salt. The server holds the keys in memory, checks every
 * passphrase against the salt before it keeps it, and never logs one; a revealed value goes only
 * into the hover it was revealed for.
 */

/** Server → client: the passphrase the client keeps for a salt state, without asking anyone; null when it keeps none. */
export interface StoredPassphraseParams {
  saltState: string;
}
export const StoredPassphraseRequest = new RequestType<StoredPassphraseParams, string | null, void>('quotaState/storedPassphrase');

/** Client → server: a passphrase a person typed for the stack of a state document; the server checks it against the document's salt. */
export interface UnlockSecretsParams {
  uri: string;
  passphrase: string;
}
/** `unlocked`: kept (the client then stores it under `saltState`); otherwise why not. */
export type UnlockSecretsResult = { unlocked: true; saltState: string } | { unlocked: false; reason: 'incorrect-passphrase' | 'no-passphrase-salt' | 'not-open' };
export const UnlockSecretsRequest = new RequestType<UnlockSecretsParams, UnlockSecretsResult, void>('quotaState/unlockSecrets');

/** Client → server: forget every passphrase and key, and every revealed value (the client has emptied its storage). */
export const ForgetPassphrasesNotification = new NotificationType<Record<string, never>>('quotaState/forgetPassphrases');

/** What a hover's Reveal link runs with, and asks the server: the ciphertext string at `offset` in that version of the document. */
export interface RevealSecretParams {
  uri: string;
  version: number;
  offset: number;
}
/** `revealed`: the next hover there shows the value; otherwise why not (`needs-passphrase`: ask, unlock, then again). */
export type RevealSecretResult = { revealed: true; position: Position } | { revealed: false; reason: 'needs-passphrase' | 'stale' | 'not-a-secret' | 'undecryptable' };
export const RevealSecretRequest = new RequestType<RevealSecretParams, RevealSecretResult, void>('quotaState/revealSecret');

/** The client's commands of secrets: a hover's Reveal link, asking for a stack's passphrase (a code action runs it with the document's uri), forgetting them all. */
export const SECRETS_COMMANDS = {
  reveal: 'quotaState.secrets.reveal',
  enterPassphrase: 'quotaState.secrets.enterPassphrase',
  forgetPassphrases: 'quotaState.secrets.forgetPassphrases',
} as const;
