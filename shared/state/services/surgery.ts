/**
 * State surgery in the editor: the resource (or pending operation) under the cursor, the report of
 * an operation shared/state/surgery ran (its table is surgery/operations.ts), and the words the
 * confirmation and the hover show. Pure: the server turns the result into a WorkspaceEdit and its confirmation.
 */
import * as l10n from '@vscode/l10n';
import type { Span } from '../../diagnostics';
import { pathKey } from '../model/locate';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import type { SurgeryOutcome } from '../surgery';
import { resourceName, type StateDocument } from './context';
import { lazyTable } from '../../text/lazyTable';

/** The part of an outcome the editor shows (no text, no edits). */
export interface SurgeryReport {
  operation: string;
  status: SurgeryOutcome['status'];
  message: string;
  dependentsRemoved: string[];
  referencesCut: Array<{ from: string; kind: string; target: string; key?: string }>;
  pendingCleared: Array<{ type: string; urn: string }>;
  notes: string[];
  errors: string[];
  remainingErrors: string[];
}

export function reportOf(outcome: SurgeryOutcome): SurgeryReport {
  const { operation, status, message, dependentsRemoved, referencesCut, pendingCleared, notes, errors, remainingErrors } = outcome;
  return { operation, status, message, dependentsRemoved, referencesCut, pendingCleared, notes, errors, remainingErrors };
}

/** How the report and the confirmation name a cut reference: `from → target (kind key)`. */
export const cutReferenceLabel = (r: SurgeryReport['referencesCut'][number]): string => `${resourceName(r.from)} → ${resourceName(r.target)} (${r.kind}${r.key ? ` ${r.key}` : ''})`;

/** How the report and the confirmation name a cleared pending operation: `type name`. */
export const pendingLabel = (p: SurgeryReport['pendingCleared'][number]): string => `${p.type} ${resourceName(p.urn)}`;

/** The report in one line (the toast once applied): what the operation did besides its edits, one clause per kind. */
export function describeReport(report: SurgeryReport): string {
  const parts = [report.message];
  if (report.dependentsRemoved.length) parts.push(l10n.t('dependents removed: {0}', report.dependentsRemoved.map(resourceName).join(', ')));
  if (report.referencesCut.length) {
    parts.push(l10n.t('references cut: {0}', report.referencesCut.map(cutReferenceLabel).join(', ')));
  }
  if (report.pendingCleared.length) parts.push(l10n.t('pending operations cleared: {0}', report.pendingCleared.map(pendingLabel).join(', ')));
  if (report.remainingErrors.length) {
    const shown = `${report.remainingErrors.slice(0, 3).join('; ')}${report.remainingErrors.length > 3 ? '; …' : ''}`;
    parts.push(l10n.t('errors that remain: {0} ({1})', report.remainingErrors.length, shown));
  }
  if (report.notes.length) parts.push(report.notes.join(' '));
  return parts.join(' · ');
}

/** The record under the cursor, and how the CLI names it (`URN#N` when the file holds several records with its urn). */
export interface SurgeryTarget {
  index: number;
  urn: string;
  /** The argument naming exactly this record. */
  target: string;
  record: JsonObject;
  /** Records whose urn is this one's, this one included. */
  copies: number;
  /** Records that refer to it (what the dependents lens counts). */
  dependents: number;
}

export function surgeryTargetAt({ snapshot, navigation }: StateDocument, offset: number): SurgeryTarget | undefined {
  if (snapshot.parsedWith !== 'json') return undefined;
  const index = navigation.recordAt(offset);
  if (index === undefined) return undefined;
  const value = snapshot.structure.resources[index]?.value;
  if (!isObject(value) || typeof value.urn !== 'string' || value.urn === '') return undefined;
  return targetOf({ snapshot, navigation }, index);
}

export function targetOf({ snapshot, navigation }: StateDocument, index: number): SurgeryTarget | undefined {
  const value = snapshot.structure.resources[index]?.value;
  if (!isObject(value) || typeof value.urn !== 'string' || value.urn === '') return undefined;
  const urn = value.urn;
  const same = navigation.definingRecords(urn);
  const all = same.length ? same : [index];
  const n = all.indexOf(index) + 1;
  return { index, urn, target: all.length > 1 ? `${urn}#${n}` : urn, record: value, copies: all.length, dependents: navigation.dependentCount(urn) };
}

/** A pending operation: its index, type, urn and where it sits in the text. */
export interface PendingAt {
  index: number;
  type: string;
  urn: string;
  /** The urn as clear-pending names it (`URN#N` when several pending operations share it). */
  target: string;
  span: Span;
}

/** Located once per snapshot: code actions ask on every cursor move. */
const pendingCache = new WeakMap<object, PendingAt[]>();

export function pendingOperations({ snapshot }: Pick<StateDocument, 'snapshot'>): PendingAt[] {
  let found = pendingCache.get(snapshot);
  if (!found) pendingCache.set(snapshot, (found = locatePending(snapshot)));
  return found;
}

function locatePending(snapshot: StateDocument['snapshot']): PendingAt[] {
  const { structure } = snapshot;
  if (!structure.deploymentPath || snapshot.parsedWith !== 'json') return [];
  const list = valueAt(structure.root, [...structure.deploymentPath, 'pending_operations']);
  if (!Array.isArray(list) || list.length === 0) return [];
  const paths = list.map((_, i) => [...structure.deploymentPath!, 'pending_operations', i]);
  const found = snapshot.locator.locateAll(paths);
  const seen = new Map<string, number>();
  const urns = list.map((op) => (isObject(op) && isObject(op.resource) && typeof op.resource.urn === 'string' ? op.resource.urn : ''));
  const result: PendingAt[] = [];
  list.forEach((op, i) => {
    const node = found.get(pathKey(paths[i]));
    const urn = urns[i];
    const n = (seen.get(urn) ?? 0) + 1;
    seen.set(urn, n);
    if (!node || !urn) return;
    const several = urns.filter((u) => u === urn).length > 1;
    result.push({ index: i, type: isObject(op) && typeof op.type === 'string' ? op.type : '', urn, target: several ? `${urn}#${n}` : urn, span: node.value });
  });
  return result;
}

export function pendingAt(doc: Pick<StateDocument, 'snapshot'>, start: number, end = start): PendingAt | undefined {
  return pendingOperations(doc).find((p) => start <= p.span.offset + p.span.length && end >= p.span.offset);
}

/** What Pulumi does with a pending operation of `type`, for the hover. */
const PENDING_EXPLAINED: Readonly<Record<string, string>> = lazyTable({
  creating: () =>
    l10n.t(
      'An update was interrupted while **creating** this resource: the cloud resource may exist, but Pulumi never learnt its id. `pulumi refresh` does not clear a pending create: clear it here, then check the provider and `pulumi import` the resource if it was created (otherwise the next `pulumi up` creates it again).',
    ),
  updating: () =>
    l10n.t(
      'An update was interrupted while **updating** this resource: the change may or may not have reached the cloud. `pulumi refresh` clears it and reads the actual state; clearing it here is safe too, and the next `pulumi up` retries the update.',
    ),
  deleting: () =>
    l10n.t(
      'An update was interrupted while **deleting** this resource: it may already be gone. `pulumi refresh` clears it (and drops the resource if it is gone); clearing it here is safe, and the next `pulumi up` retries the delete.',
    ),
  reading: () => l10n.t('An update was interrupted while **reading** this resource. Nothing changed in the cloud: clear it here, or `pulumi refresh` clears it; the next update reads it again.'),
  importing: () => l10n.t('An update was interrupted while **importing** this resource. Nothing was created: clear it here, or `pulumi refresh` clears it; the next `pulumi up` retries the import.'),
});

export function pendingHoverText(pending: PendingAt): string {
  const explained =
    PENDING_EXPLAINED[pending.type] ?? l10n.t('A pending operation of an unknown type ({0}): Pulumi refuses to update the stack while it is here; clear it.', JSON.stringify(pending.type));
  return [
    l10n.t('**Pending operation: {0}** on `{1}`', pending.type || l10n.t('(no type)'), resourceName(pending.urn)),
    '',
    `\`${pending.urn}\``,
    '',
    explained,
    '',
    l10n.t(
      'While any pending operation is in the file, `pulumi up` refuses to run; `pulumi stack import` and `pulumi state edit` drop them all. Use the quick fix **Clear this pending operation** to remove just this one (previewed first).',
    ),
  ].join('\n');
}
