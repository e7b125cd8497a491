/**
 * State surgery in the editor: the refactor code actions on the resource under the cursor, the
 * quick fix per pending operation, and the custom requests the client's commands use. Every edit
 * goes back as a WorkspaceEdit whose edits carry one change annotation with `needsConfirmation`,
 * so VS Code shows its refactor preview (a diff) before anything changes; the annotation's
 * description is the operation's report. The operations themselves are shared/state/surgery's.
 */
import * as l10n from '@vscode/l10n';
import { CodeActionKind, ErrorCodes, LSPErrorCodes, ResponseError, type AnnotatedTextEdit, type CodeAction, type CodeActionContext, type Range, type TextDocumentEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SurgeryRequest, SurgeryResourcesRequest, SURGERY_COMMANDS, type SurgeryParams, type SurgeryResult, type SurgeryResourcesResult } from '../../shared/protocol';
import type { StateDocument } from '../../shared/state/services/context';
import { resourceName } from '../../shared/state/services/context';
import { describeReport, pendingAt, pendingOperations, reportOf, runSurgery, SURGERY_OPERATIONS, surgeryTargetAt, targetOf } from '../../shared/state/services/surgery';
import type { SurgeryOutcome } from '../../shared/state/surgery';
import { LineIndex } from '../../shared/text/lineIndex';
import { toLspEdits } from '../convert';
import type { ServerWorkspace } from '../workspace';
import { runSafe } from './runSafe';

/** The one change annotation id of a surgery edit. */
const SURGERY_ANNOTATION = 'quotaState.surgery';

/** Code action kinds: `refactor.rewrite.state.<operation>`. */
const SURGERY_KIND = (operation: string) => `${CodeActionKind.RefactorRewrite}.state.${operation}`;

export interface SurgeryHost {
  /** The parsed state document (snapshot + navigation) of an open state document. */
  stateDocument(document: TextDocument): StateDocument;
  /** Whether the last validation of `uri` found an error `pulumi state repair` would act on. */
  needsRepair(uri: string): boolean;
}

const TITLES: Record<string, (what: string) => string> = {
  remove: (what) => l10n.t('Remove {0}', what),
  protect: (what) => l10n.t('Protect {0}', what),
  unprotect: (what) => l10n.t('Unprotect {0}', what),
  taint: (what) => l10n.t('Taint {0}', what),
  untaint: (what) => l10n.t('Untaint {0}', what),
  move: (what) => l10n.t('Move {0}', what),
};

function annotatedEdits(text: string, outcome: SurgeryOutcome): AnnotatedTextEdit[] {
  return toLspEdits(new LineIndex(text), outcome.edits).map((e) => ({ ...e, annotationId: SURGERY_ANNOTATION }));
}

function labelOf(params: SurgeryParams): string {
  const what = params.all ? l10n.t('all resources') : (params.targets ?? []).map((t) => resourceName(t.replace(/#\d+$/, ''))).join(', ');
  switch (params.operation) {
    case 'remove':
      return params.targetDependents ? l10n.t('Remove {0} and its dependents', what) : l10n.t('Remove {0}', what);
    case 'rename':
      return l10n.t('Rename {0} to {1}', what, params.newName ?? '');
    case 'repair':
      return l10n.t('Repair state');
    case 'clear-pending':
      return what ? l10n.t('Clear pending operations on {0}', what) : l10n.t('Clear all pending operations');
    default:
      return (TITLES[params.operation] ?? TITLES.remove)(what);
  }
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

/** Runs the operation of `params` on `document` (and its destination) and builds the previewed edit. */
function surgeryResult(document: TextDocument, params: SurgeryParams): SurgeryResult {
  validSurgeryParams(params);
  if (params.operation === 'move' && !params.dest) throw new ResponseError(ErrorCodes.InvalidParams, 'A move needs its destination ({ uri, text })');
  const text = document.getText();
  const { source, dest } = runSurgery(text, params, params.dest?.text);
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
  if (source.status === 'applied') documentChanges.push({ textDocument: { uri: document.uri, version: document.version }, edits: annotatedEdits(text, source) });
  if (dest && dest.status === 'applied' && params.dest) {
    documentChanges.push({ textDocument: { uri: params.dest.uri, version: params.dest.version ?? null }, edits: annotatedEdits(params.dest.text, dest) });
  }
  result.edit = {
    documentChanges,
    changeAnnotations: { [SURGERY_ANNOTATION]: { label: labelOf(params), description, needsConfirmation: true } },
  };
  return result;
}

interface ActionData {
  quotaStateSurgery: { params: SurgeryParams; version: number };
}

function isActionData(data: unknown): data is ActionData {
  return typeof data === 'object' && data !== null && typeof (data as ActionData).quotaStateSurgery?.params?.uri === 'string';
}

/** The surgery code actions for `range` in a state document: refactors on the record under the cursor, a quick fix on a pending operation. */
export function surgeryCodeActions(host: SurgeryHost, deferred: boolean, document: TextDocument, range: Range, context: CodeActionContext): CodeAction[] {
  const only = context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const current = host.stateDocument(document);
  const { snapshot } = current;
  if (snapshot.parsedWith !== 'json') return [];
  const start = snapshot.lines.offsetAt(range.start);
  const end = snapshot.lines.offsetAt(range.end);
  const actions: CodeAction[] = [];
  const action = (title: string, kind: string, params: SurgeryParams): CodeAction => {
    const base: CodeAction = { title, kind };
    if (deferred) return { ...base, data: { quotaStateSurgery: { params, version: document.version } } satisfies ActionData };
    return resolveInto(base, document, params);
  };
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
    const protectedRecord = target.record.protect === true;
    const pendingDelete = target.record.delete === true;
    const offer = (op: string, title: string, params: Omit<SurgeryParams, 'uri'>) => {
      const kind = SURGERY_KIND(op);
      if (wants(kind)) actions.push(action(title, kind, { uri, targets, ...params }));
    };
    if (target.dependents === 0)
      offer('remove', protectedRecord ? l10n.t('Remove protected resource {0}', named) : l10n.t('Remove resource {0}', named), { operation: 'remove', force: protectedRecord });
    else {
      offer('removeWithDependents', l10n.t('Remove {0} with its dependents ({1} direct)', named, target.dependents), {
        operation: 'remove',
        targetDependents: true,
        force: protectedRecord,
      });
    }
    if (!pendingDelete) {
      if (protectedRecord) offer('unprotect', l10n.t('Unprotect {0}', name), { operation: 'unprotect' });
      else offer('protect', l10n.t('Protect {0}', name), { operation: 'protect' });
      if (target.record.taint === true) offer('untaint', l10n.t('Untaint {0}', name), { operation: 'untaint' });
      else offer('taint', l10n.t('Taint {0} (replace on the next update)', name), { operation: 'taint' });
    }
    const renameKind = SURGERY_KIND('rename');
    if (target.copies === 1 && wants(renameKind)) {
      actions.push({
        title: l10n.t('Rename {0} (and re-URN its children)…', name),
        kind: renameKind,
        command: { title: l10n.t('Rename'), command: SURGERY_COMMANDS.rename, arguments: [{ uri, target: target.target }] },
      });
    }
    const moveKind = SURGERY_KIND('move');
    if (wants(moveKind)) {
      actions.push({ title: l10n.t('Move {0} to another state file…', name), kind: moveKind, command: { title: l10n.t('Move'), command: SURGERY_COMMANDS.move, arguments: [{ uri, targets }] } });
    }
    const pendingOnIt = pendingOperations(current).filter((p) => p.urn === target.urn);
    for (const p of pendingOnIt) {
      offer('clearPending', l10n.t("Clear pending operation '{0}' on {1}", p.type, name), { operation: 'clear-pending', targets: [p.target] });
    }
  }
  if (host.needsRepair(document.uri) && wants(SURGERY_KIND('repair'))) {
    actions.push(action(l10n.t('Repair state (reorder, prune dangling references)'), SURGERY_KIND('repair'), { uri: document.uri, operation: 'repair' }));
  }
  return actions;
}

/** The action with its edit, or (refused, unchanged) with a command that shows why. */
function resolveInto(action: CodeAction, document: TextDocument, params: SurgeryParams): CodeAction {
  const result = surgeryResult(document, params);
  if (result.edit) return { ...action, edit: result.edit };
  return { ...action, command: { title: l10n.t('Show report'), command: SURGERY_COMMANDS.showReport, arguments: [result] } };
}

export function registerSurgery(workspace: ServerWorkspace, host: SurgeryHost): void {
  const { connection } = workspace;
  const stateDocumentOf = (uri: string) => {
    const document = workspace.documents.get(uri);
    if (!document || workspace.kindOf(document) !== 'state') return undefined;
    return document;
  };
  connection.onCodeActionResolve((action, token) =>
    runSafe(workspace, 'Code action resolve', token, action, () => {
      if (!isActionData(action.data)) return action;
      const { params, version } = action.data.quotaStateSurgery;
      const document = stateDocumentOf(params.uri);
      if (!document) return action;
      if (document.version !== version) throw new ResponseError(LSPErrorCodes.ContentModified, 'The document changed; ask for the code actions again');
      const { data: _data, ...rest } = action;
      return resolveInto(rest, document, params);
    }),
  );
  connection.onRequest(SurgeryRequest, (params, token) =>
    runSafe(workspace, 'State surgery', token, null, () => {
      if (typeof params?.uri !== 'string' || typeof params.operation !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'Malformed request parameters');
      const document = stateDocumentOf(params.uri);
      if (!document) throw new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not an open state document`);
      return surgeryResult(document, params);
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
