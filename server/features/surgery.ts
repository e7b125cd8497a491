/**
 * State surgery in the editor: the refactor code actions on the resource under the cursor, the
 * quick fix per pending operation, and the custom requests the client's commands use. Every code
 * action runs the client's surgery command, which asks this server for the edit and its
 * `confirmation` (what it removes, the dependents, the references cut, the pending operations
 * cleared, the protected resources it overrides), asks the user in a modal, and applies the edit in
 * one step: a plain WorkspaceEdit, without annotations needing confirmation, so it cannot be half
 * applied and one undo reverts it. The operations themselves are shared/state/surgery's.
 */
import * as l10n from '@vscode/l10n';
import type { CodeAction, CodeActionContext, Range, TextDocumentEdit } from 'vscode-languageserver';
import { CodeActionKind, ErrorCodes, ResponseError } from '../lsp';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SurgeryRequest, SurgeryResourcesRequest, SURGERY_COMMANDS, type SurgeryConfirmation, type SurgeryParams, type SurgeryResult, type SurgeryResourcesResult } from '../../shared/protocol';
import { createStateService, SurgeryError, surgeryRow, SURGERY_OPERATIONS, SURGERY_TABLE, type StateDocument, type SurgeryInput, type SurgeryOutcome, type SurgeryReport } from '../../shared/state';
import { LineIndex } from '../../shared/text/lineIndex';
import { toLspEdits } from '../convert';

const { resourceName, surgery } = createStateService();
const { cutReferenceLabel, describe: describeReport, pendingAt, pendingLabel, pendingOperations, report: reportOf, targetAt: surgeryTargetAt, targetOf, open: openState, run: runSurgery } = surgery;
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

/** Code action kinds: `refactor.rewrite.state.<operation>`. */
const SURGERY_KIND = (operation: string) => `${CodeActionKind.RefactorRewrite}.state.${operation}`;

export interface SurgeryHost {
  /** The parsed state document (snapshot + navigation) of an open state document. */
  stateDocument(document: TextDocument): StateDocument;
  /** Whether the last validation of `uri` found an error `pulumi state repair` would act on. */
  needsRepair(uri: string): boolean;
}

function labelOf(params: SurgeryParams): string {
  const what = params.all ? l10n.t('all resources') : (params.targets ?? []).map((t) => resourceName(t.replace(/#\d+$/, ''))).join(', ');
  return surgeryRow(params.operation)!.label(what, params);
}

const isStrings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
const optional = (value: unknown, type: 'string' | 'boolean') => value === undefined || typeof value === type;

/** Parameters come from clients (and code action data a client echoes back): checked before any operation reads them. */
function validSurgeryParams(params: SurgeryParams): void {
  const dest = params.dest as { uri?: unknown; text?: unknown; version?: unknown } | undefined;
  const ok =
    SURGERY_OPERATIONS.includes(params.operation) &&
    (params.targets === undefined || isStrings(params.targets)) &&
    optional(params.newName, 'string') &&
    optional(params.all, 'boolean') &&
    optional(params.targetDependents, 'boolean') &&
    optional(params.force, 'boolean') &&
    optional(params.includeParents, 'boolean') &&
    (dest === undefined ||
      (typeof dest === 'object' &&
        dest !== null &&
        typeof dest.uri === 'string' &&
        typeof dest.text === 'string' &&
        (dest.version === undefined || dest.version === null || typeof dest.version === 'number')));
  if (!ok) throw new ResponseError(ErrorCodes.InvalidParams, 'Malformed state operation parameters');
}

/**
 * A `remove` that Pulumi refuses only because a resource it removes is protected is run again with
 * `force`, and the protected resources go into the confirmation, so the editor asks once ("orders-db
 * is protected: Remove Anyway") instead of naming a flag it cannot take.
 */
function runWithProtectionAsked(current: StateDocument, params: SurgeryParams) {
  // The document's snapshot, parsed (and for a small file analysed) already: opened once for both runs.
  const source = openedOrText(current);
  const run = runSurgery(source, params, params.dest?.text);
  const forced = params.operation === 'remove' && !params.force && run.source.status === 'refused' ? runSurgery(source, { ...params, force: true }) : undefined;
  const chosen = forced?.source.status === 'applied' ? forced : run;
  const overrides = params.operation === 'remove' && (params.force === true || chosen === forced);
  const records = current.snapshot.structure.resources;
  const protectedOverridden = overrides
    ? chosen.source.changes.filter((c) => c.action === 'removed' && (records[c.index]?.value as { protect?: unknown } | undefined)?.protect === true).map((c) => c.urn)
    : [];
  return { ...chosen, protectedOverridden };
}

/** The document opened for surgery from its snapshot; one that cannot be opened goes as its snapshot, and the operation says why. */
function openedOrText({ snapshot }: StateDocument): SurgeryInput {
  try {
    return openState(snapshot);
  } catch (error) {
    if (error instanceof SurgeryError) return snapshot;
    throw error;
  }
}

/** Runs the operation of `params` on `document` (and its destination) and builds the edit with its confirmation. */
function surgeryResult(host: SurgeryHost, document: TextDocument, params: SurgeryParams): SurgeryResult {
  validSurgeryParams(params);
  if (params.operation === 'move' && !params.dest) throw new ResponseError(ErrorCodes.InvalidParams, 'A move needs its destination ({ uri, text })');
  const current = host.stateDocument(document);
  const { source, dest, protectedOverridden } = runWithProtectionAsked(current, params);
  const outcomes = dest ? [source, dest] : [source];
  const refused = outcomes.find((o) => o.status === 'refused');
  const applied = !refused && outcomes.some((o) => o.status === 'applied');
  const report = reportOf(refused ?? source);
  if (dest && !refused) {
    report.referencesCut = [...source.referencesCut, ...dest.referencesCut];
    report.notes = [...new Set([...source.notes, ...dest.notes])];
    report.remainingErrors = [...source.remainingErrors, ...dest.remainingErrors.map((e) => l10n.t('destination {0}', e))];
  }
  const description = describeReport(report);
  const result: SurgeryResult = {
    status: refused ? 'refused' : applied ? 'applied' : 'unchanged',
    message: refused ? refused.message : source.message,
    description,
    errors: refused?.errors ?? [],
    notes: report.notes,
    dependentsRemoved: report.dependentsRemoved,
    remainingErrors: report.remainingErrors,
  };
  if (!applied) return result;
  const documentChanges: TextDocumentEdit[] = [];
  if (source.status === 'applied') documentChanges.push({ textDocument: { uri: document.uri, version: document.version }, edits: toLspEdits(current.snapshot.lines, source.edits) });
  if (dest && dest.status === 'applied' && params.dest) {
    documentChanges.push({ textDocument: { uri: params.dest.uri, version: params.dest.version ?? null }, edits: toLspEdits(new LineIndex(params.dest.text), dest.edits) });
  }
  result.edit = { documentChanges };
  result.confirmation = confirmationOf(params, source, report, protectedOverridden);
  return result;
}

/** At most this many names per line of the confirmation; the rest are counted. */
const LISTED = 8;

function listed(names: string[]): string {
  const shown = names.slice(0, LISTED).join(', ');
  return names.length > LISTED ? l10n.t('{0} and {1} more', shown, names.length - LISTED) : shown;
}

/** `one` for a single item, else `many` of the count (a translation may place the number anywhere). */
function countOf(count: number, one: string, many: (count: number) => string): string {
  return count === 1 ? one : many(count);
}

/** The button that applies the operation, named by what it does. */
function actionOf(params: SurgeryParams, source: SurgeryOutcome, protectedOverridden: string[]): string {
  const records = new Set(source.changes.map((c) => c.index)).size;
  return surgeryRow(params.operation)!.action(records, source.pendingCleared.length, protectedOverridden.length > 0);
}

/** The modal's words: the operation, then one line per kind of effect, the protected resources first. */
function confirmationOf(params: SurgeryParams, source: SurgeryOutcome, report: SurgeryReport, protectedOverridden: string[]): SurgeryConfirmation {
  const names = (urns: string[]) => listed(urns.map(resourceName));
  const removed = source.changes.filter((c) => c.action === 'removed' && !report.dependentsRemoved.includes(c.urn)).map((c) => c.urn);
  const details: string[] = [];
  if (protectedOverridden.length) {
    details.push(
      countOf(protectedOverridden.length, l10n.t('{0} is protected: removing it overrides its protect flag, as pulumi state delete --force does.', names(protectedOverridden)), () =>
        l10n.t('{0} are protected: removing them overrides their protect flag, as pulumi state delete --force does.', names(protectedOverridden)),
      ),
    );
  }
  if (params.operation === 'remove' && removed.length) details.push(l10n.t('Removes: {0}', names(removed)));
  if (report.dependentsRemoved.length) details.push(l10n.t('Dependents removed with it: {0}', names(report.dependentsRemoved)));
  if (report.referencesCut.length) details.push(l10n.t('References cut: {0}', listed(report.referencesCut.map(cutReferenceLabel))));
  if (report.pendingCleared.length) details.push(l10n.t('Pending operations cleared: {0}', listed(report.pendingCleared.map(pendingLabel))));
  if (report.remainingErrors.length) details.push(l10n.t('Errors that remain after it: {0}', report.remainingErrors.length));
  // Pulumi's own note on a forced deletion names --force, a flag the editor does not take; the first line says it.
  details.push(...report.notes.filter((note) => !protectedOverridden.some((urn) => note.includes(urn))));
  details.push(l10n.t('It applies as one edit: one undo reverts it.'));
  const question = protectedOverridden.length
    ? l10n.t(
        '{0}: {1}?',
        countOf(protectedOverridden.length, l10n.t('{0} is protected', names(protectedOverridden)), () => l10n.t('{0} are protected', names(protectedOverridden))),
        labelOf(params),
      )
    : l10n.t('{0}?', labelOf(params));
  return { question, details, action: actionOf(params, source, protectedOverridden), protectedOverridden };
}

/** The surgery code actions for `range` in a state document: refactors on the record under the cursor, a quick fix on a pending operation. */
export function surgeryCodeActions(host: SurgeryHost, document: TextDocument, range: Range, context: CodeActionContext): CodeAction[] {
  const only = context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const current = host.stateDocument(document);
  const { snapshot } = current;
  if (snapshot.parsedWith !== 'json') return [];
  const start = snapshot.lines.offsetAt(range.start);
  const end = snapshot.lines.offsetAt(range.end);
  const actions: CodeAction[] = [];
  // The client's command asks, then applies: a code action's own edit would apply unasked.
  const action = (title: string, kind: string, params: SurgeryParams): CodeAction => ({ title, kind, command: { title, command: SURGERY_COMMANDS.run, arguments: [params] } });
  const pending = pendingAt(current, start, end);
  if (pending && wants(CodeActionKind.QuickFix)) {
    actions.push(
      action(l10n.t("Clear pending operation '{0}' on {1}", pending.type, resourceName(pending.urn)), CodeActionKind.QuickFix, {
        uri: document.uri,
        operation: 'clear-pending',
        targets: [pending.target],
      }),
    );
  }
  const target = pending ? undefined : surgeryTargetAt(current, start);
  if (target) {
    const name = resourceName(target.urn);
    // One of several records with this urn: which copy.
    const named = target.copies > 1 ? l10n.t('{0} (copy {1} of {2})', name, target.target.slice(target.urn.length + 1), target.copies) : name;
    const uri = document.uri;
    const targets = [target.target];
    const seen = { named, name, record: target.record, dependents: target.dependents, copies: target.copies };
    for (const row of SURGERY_TABLE) {
      for (const offered of row.codeActions?.(seen) ?? []) {
        const kind = SURGERY_KIND(offered.kind);
        if (!wants(kind)) continue;
        // A row without a call asks first (a new name, a destination): its palette command takes the target.
        const asks = row.commands[0];
        actions.push(
          offered.call
            ? action(offered.title, kind, { uri, targets, operation: row.operation, ...offered.call })
            : { title: offered.title, kind, command: { title: asks.title(), command: asks.id, arguments: [{ uri, targets }] } },
        );
      }
    }
    const pendingOnIt = pendingOperations(current).filter((p) => p.urn === target.urn);
    for (const p of pendingOnIt) {
      if (wants(SURGERY_KIND('clearPending'))) {
        actions.push(action(l10n.t("Clear pending operation '{0}' on {1}", p.type, name), SURGERY_KIND('clearPending'), { uri, operation: 'clear-pending', targets: [p.target] }));
      }
    }
  }
  if (host.needsRepair(document.uri) && wants(SURGERY_KIND('repair'))) {
    actions.push(action(l10n.t('Repair state (reorder, prune dangling references)'), SURGERY_KIND('repair'), { uri: document.uri, operation: 'repair' }));
  }
  return actions;
}

export function registerSurgery(workspace: ServerWorkspace, host: SurgeryHost): void {
  const { connection } = workspace;
  const stateDocumentOf = (uri: string) => {
    const document = workspace.documents.get(uri);
    if (!document || workspace.kindOf(document) !== 'state') return undefined;
    return document;
  };
  // Every code action arrives whole (surgery's run the client's command), so resolving returns it as it is.
  connection.onCodeActionResolve((action) => action);
  connection.onRequest(SurgeryRequest, (params, token) =>
    runSafe(workspace, 'State surgery', token, null, () => {
      if (typeof params?.uri !== 'string' || typeof params.operation !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'Malformed request parameters');
      const document = stateDocumentOf(params.uri);
      if (!document) throw new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not an open state document`);
      return surgeryResult(host, document, params);
    }),
  );
  connection.onRequest(SurgeryResourcesRequest, (params, token) =>
    runSafe(workspace, 'State resources', token, null, (): SurgeryResourcesResult | null => {
      const document = typeof params?.uri === 'string' ? stateDocumentOf(params.uri) : undefined;
      if (!document) return null;
      const current = host.stateDocument(document);
      const definitions = current.navigation.allDefinitions();
      const resources: SurgeryResourcesResult['resources'] = [];
      current.snapshot.structure.resources.forEach((_, index) => {
        const target = targetOf(current, index);
        const definition = definitions.get(index);
        if (!target || !definition) return;
        resources.push({
          urn: target.urn,
          target: target.target,
          name: resourceName(target.urn),
          type: typeof target.record.type === 'string' ? target.record.type : '',
          copy: target.copies > 1 ? Number(target.target.slice(target.urn.length + 1)) : 1,
          copies: target.copies,
          delete: target.record.delete === true,
          protect: target.record.protect === true,
          taint: target.record.taint === true,
          dependents: target.dependents,
          position: current.snapshot.lines.positionAt(definition.span.offset),
        });
      });
      const pending = pendingOperations(current).map(({ target, type, urn }) => ({ target, type, urn }));
      const cursor = params.position && surgeryTargetAt(current, current.snapshot.lines.offsetAt(params.position));
      return { resources, pending, ...(cursor ? { atCursor: cursor.target } : {}) };
    }),
  );
}
