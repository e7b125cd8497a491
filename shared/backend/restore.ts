/**
 * Restore: a DIY stack's current state becomes another state document (a history checkpoint, a
 * backup, an export), as `pulumi stack import` of it makes it (pkg/cmd/pulumi/stack/io.go's
 * SaveSnapshot, diy's ImportDeployment). The plan says what Pulumi would refuse without --force
 * (integrity errors, resources of another stack) and which pending operations it drops; applying
 * it writes the checkpoint over the stack file under the stack's Pulumi lock, the old bytes kept
 * as the `.bak` first, and the new written only if the stack file is still the one read (checked
 * before the `.bak` is touched: a refused write leaves it as it was).
 */
import * as l10n from '@vscode/l10n';
import { compressionOf, decodeFile, InflateError, type Compression } from '../text/inflate';
import type { StateSnapshot } from '../state/index';
import type { BackendStack } from './backend';
import type { LockIdentity, StackLockOptions } from './stackLock';
import { withStackWrite } from './stackWrite';
import { StoreMissing, type WritableBackendStore } from './store';

/** The document is not a state (no deployment in it); nothing was written. */
export class RestoreError extends Error {}

export interface RestorePlan {
  /** The versioned checkpoint, as ImportDeployment writes it (values nested past the analysis's bound read as empty: for diffs). */
  checkpoint: { version: number; features?: unknown[]; checkpoint: { stack: string; latest: Record<string, unknown> } };
  /** The text to write: the checkpoint serialised from the document's whole value, at every depth. */
  text?: string;
  /** What Pulumi refuses to import without --force; empty when it imports it. */
  problems: string[];
  /** The pending operations SaveSnapshot drops, each named as Pulumi names it. */
  droppedPendingOperations: string[];
}

/** An error of the document's own analysis, as restore names it. */
export interface RestoreAnalysisError {
  line: number;
  code: string;
  message: string;
}

/** The stack segment of a urn (`urn:pulumi:<stack>::<project>::…`). */
const stackOfUrn = (urn: string): string | undefined => /^urn:pulumi:([^:]*)::/.exec(urn)?.[1];

/**
 * What restoring `snapshot` into `stack` writes and what Pulumi would say of it. `errors` are the
 * document's integrity errors (its analysis, by the caller); `display` names the document.
 */
export function planRestore(snapshot: StateSnapshot, errors: RestoreAnalysisError[], stack: Pick<BackendStack, 'project' | 'name'>, display: string): RestorePlan {
  const { structure } = snapshot;
  if (!structure.deploymentPath) throw new RestoreError(l10n.t('{0} is not a state: it holds no deployment (an export, a checkpoint or a deployment)', display));
  const plan = checkpointOf(structure, stack);
  // The analysis reads values nested past its bound as empty: the text written is the document's whole value.
  const limited = snapshot.parsedWith === 'json' && snapshot.syntax.length > 0;
  let text: string;
  try {
    text = JSON.stringify(limited ? checkpointOf({ ...structure, root: JSON.parse(snapshot.text) as unknown }, stack).checkpoint : plan.checkpoint);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new RestoreError(l10n.t('{0} is nested too deeply to be restored exactly; nothing was written', display));
  }
  const problems: string[] = [];
  for (const error of errors.slice(0, 5)) problems.push(l10n.t('line {0}: {1}: {2}', error.line + 1, error.code, error.message));
  if (errors.length > 5) problems.push(l10n.t('and {0} more errors (`quota-state check` lists them)', errors.length - 5));
  for (const entry of structure.resources) {
    const other = entry.urn && stackOfUrn(entry.urn);
    if (other !== undefined && other !== stack.name) problems.push(l10n.t("resource '{0}' is from a different stack ({1} != {2})", entry.urn!, other, stack.name));
  }
  return { checkpoint: plan.checkpoint, text, problems, droppedPendingOperations: plan.droppedPendingOperations };
}

/** The checkpoint ImportDeployment writes of a document's value, and the pending operations it drops. */
function checkpointOf(structure: StateSnapshot['structure'], stack: Pick<BackendStack, 'project' | 'name'>): Pick<RestorePlan, 'checkpoint' | 'droppedPendingOperations'> {
  let deployment: unknown = structure.root;
  for (const step of structure.deploymentPath!) deployment = (deployment as Record<string | number, unknown>)[step];
  const root = structure.root as Record<string, unknown>;
  const version = structure.shape === 'deployment' || typeof root.version !== 'number' ? 3 : root.version;
  const latest = { ...(deployment as Record<string, unknown>) };
  const droppedPendingOperations = (Array.isArray(latest.pending_operations) ? (latest.pending_operations as Array<{ type?: unknown; resource?: { urn?: unknown } }>) : []).map(
    (op) => `removing pending operation '${String(op.type)}' on '${String(op.resource?.urn)}' from snapshot`,
  );
  delete latest.pending_operations;
  // A version-4 document's `features` stay with it, as MarshalUntypedDeploymentToVersionedCheckpoint keeps them.
  const features = Array.isArray(root.features) && root.features.length ? { features: root.features as unknown[] } : {};
  return { checkpoint: { version, ...features, checkpoint: { stack: stack.project ? `organization/${stack.project}/${stack.name}` : stack.name, latest } }, droppedPendingOperations };
}

export interface RestoreApplyOptions extends StackLockOptions {
  identity: LockIdentity;
  /** Compresses the new text as the stack file was (Pulumi sniffs the bytes, so the name stays valid). */
  compress(bytes: Uint8Array, compression: Compression): Promise<Uint8Array>;
  maxInflatedBytes?: number;
  /** Called first under the lock, before the stack file is read: a last refusal (the history entry restored is still the one named). */
  underLock?(): void | Promise<void>;
  /** Called with the state being replaced, under the lock, before anything is written (a diff, a last refusal). */
  beforeWrite?(currentText: string): void | Promise<void>;
  /**
   * With this, a stack file that cannot be decompressed (truncated, a bomb) is replaced all the same, its
   * bytes kept unchanged as the `.bak`: called with why, instead of beforeWrite. Without it, that is an error.
   */
  damaged?(reason: string): void | Promise<void>;
}

/** Writes the plan's checkpoint over the stack file through the one writer; answers the `.bak` that keeps what it replaced. */
export async function applyRestore(store: WritableBackendStore, stack: BackendStack, plan: RestorePlan, options: RestoreApplyOptions): Promise<{ backup: string }> {
  const file = stack.file?.name;
  if (!file) throw new RestoreError(l10n.t('the stack "{0}" has no stack file to restore into', stack.ref));
  const outcome = await withStackWrite(store, file, { ...options, stack }, async (current) => {
    if (!current) throw new RestoreError(l10n.t('{0} was removed meanwhile; nothing was written', file));
    const compression = compressionOf(current.bytes);
    let currentText: string | undefined;
    try {
      currentText = decodeFile(current.bytes, { name: file, maxBytes: options.maxInflatedBytes }).text;
    } catch (error) {
      if (!(error instanceof InflateError) || !options.damaged) throw error;
      await options.damaged(error.message);
    }
    if (currentText !== undefined) await options.beforeWrite?.(currentText);
    const text = new TextEncoder().encode(plan.text ?? JSON.stringify(plan.checkpoint));
    return { bytes: compression ? await options.compress(text, compression) : text, value: undefined };
  }).catch((error: unknown) => {
    if (error instanceof StoreMissing) throw new RestoreError(l10n.t('{0} was removed meanwhile; nothing was written', file));
    throw error;
  });
  return { backup: outcome.backup! };
}
