/**
 * State surgery from the editor: palette and context-menu commands on the resource under the
 * cursor (or picked from a list of urns by name and type, copies by position and `delete` flag),
 * and the commands the server's code actions and lenses run. The server computes every edit
 * (shared/state/surgery) and what it does; a modal confirmation states that (what is removed, the
 * dependents, the references cut, the pending operations cleared, the protected resources it
 * overrides) with the action, "Show Diff…" (VS Code's diff editor of the text and the result, then
 * the question again) and Cancel. Confirmed, the edit applies in one step, as one WorkspaceEdit, so
 * it cannot be half applied and one undo reverts it. Before editing a file of a DIY backend whose
 * stack holds a lock, the user is warned.
 */
import * as vscode from 'vscode';
import { SURGERY_COMMANDS, SurgeryRequest, SurgeryResourcesRequest, type SurgeryConfirmation, type SurgeryParams, type SurgeryResource, type SurgeryResult } from '../shared/protocol';
import { applyEdits } from '../shared/edits';
import { SURGERY_TABLE, type SurgeryPaletteCommand, type SurgeryRow } from '../shared/state/vocabulary';
import { readStackLocks, stackFileOf } from '../shared/backend/vocabulary';
import { argumentsOf, stringArgument, type CommandContext } from './commands/context';
import { judgeStackLock } from './backends/lockDialog';
import { stackFileLocation } from './backends/stackFiles';
import { workspaceBackendStore } from './backends/store';
import { COMPRESSED_SCHEME, compressedUriOf } from './compressedState';

type Operation = SurgeryParams['operation'];

/** The scheme of a surgery's result, the right side of "Show Diff…". */
const RESULT_SCHEME = 'quota-state-surgery-result';

export class StateSurgeryCommands {
  /** The texts "Show Diff…" shows, by their result uri, until their document closes. */
  private readonly results = new Map<string, string>();
  private diffs = 0;

  constructor(
    private readonly context: CommandContext,
    /** Whether the server recognised `uri` as a state file (the language status), and when that changes. */
    private readonly isStateDocument: (uri: vscode.Uri) => boolean = () => false,
    private readonly onStatusChange?: vscode.Event<unknown>,
  ) {}

  /** Keeps the `quotaState.activeStateFile` context key (menus, palette) in step with the active editor. */
  private trackActiveEditor(): vscode.Disposable[] {
    const update = () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      void vscode.commands.executeCommand('setContext', 'quotaState.activeStateFile', uri !== undefined && this.isStateDocument(uri));
    };
    update();
    return [vscode.window.onDidChangeActiveTextEditor(update), ...(this.onStatusChange ? [this.onStatusChange(update)] : [])];
  }

  register(): vscode.Disposable[] {
    return [
      ...this.trackActiveEditor(),
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, { provideTextDocumentContent: (uri) => this.results.get(uri.toString()) ?? '' }),
      // A result is a whole state file's text: it is kept only while its diff is open.
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === RESULT_SCHEME) this.results.delete(document.uri.toString());
      }),
      vscode.commands.registerCommand(SURGERY_COMMANDS.run, (args?: unknown) => this.runGiven(args)),
      vscode.commands.registerCommand(SURGERY_COMMANDS.showReport, (args?: unknown) => this.showReport(argumentsOf<SurgeryResult>(args))),
      // The surgery table's commands: each asks for what its operation needs, then runs it.
      ...SURGERY_TABLE.flatMap((row) => row.commands.map((command) => vscode.commands.registerCommand(command.id, (args?: unknown) => this.command(row, command, args)))),
    ];
  }

  private command(row: SurgeryRow, command: SurgeryPaletteCommand, args: unknown): Promise<boolean> {
    switch (command.asks) {
      case 'new-name':
        return this.rename(command, args);
      case 'destination':
        return this.move(command, args);
      case 'pending':
        return this.clearPending(command, args);
      case 'nothing':
        return this.simple(row.operation, args);
      case undefined:
        return this.palette(row.operation, command, args);
    }
  }

  /** `{ uri, targets? }` from a caller, else the active state editor. */
  private documentOf(args: unknown): vscode.Uri | undefined {
    const given = stringArgument(argumentsOf<{ uri: string }>(args)?.uri);
    if (given) return vscode.Uri.parse(given);
    if (args instanceof vscode.Uri) return args;
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void this.context.notifier.error(vscode.l10n.t('Open a state file first.'));
      return undefined;
    }
    return editor.document.uri;
  }

  private async resources(uri: vscode.Uri) {
    const position = vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? vscode.window.activeTextEditor.selection.active : undefined;
    const result = await this.context.languageClient.sendRequest(SurgeryResourcesRequest, {
      uri: uri.toString(),
      ...(position ? { position: { line: position.line, character: position.character } } : {}),
    });
    if (!result) void this.context.notifier.error(vscode.l10n.t('{0} is not a state file the language server has open.', vscode.workspace.asRelativePath(uri)));
    return result;
  }

  /** A resource quick pick: name and type, copies by their position and `delete` flag; the record under the cursor first. */
  private async pick(uri: vscode.Uri, title: string, many: boolean, filter: (r: SurgeryResource) => boolean = () => true): Promise<string[] | undefined> {
    const listed = await this.resources(uri);
    if (!listed) return undefined;
    const candidates = listed.resources.filter(filter);
    if (candidates.length === 0) {
      void this.context.notifier.info(vscode.l10n.t('No resource in this file can take "{0}".', title));
      return undefined;
    }
    const items = candidates.map((r) => ({
      label: r.name + (r.copies > 1 ? ` #${r.copy}` : ''),
      description: r.type,
      detail:
        [
          r.copies > 1
            ? r.delete
              ? vscode.l10n.t('copy {0} of {1}, pending deletion (delete: true)', r.copy, r.copies)
              : vscode.l10n.t('copy {0} of {1}, live', r.copy, r.copies)
            : r.delete
              ? vscode.l10n.t('pending deletion (delete: true)')
              : '',
          r.protect ? vscode.l10n.t('protected') : '',
          r.taint ? vscode.l10n.t('tainted') : '',
          r.dependents ? (r.dependents === 1 ? vscode.l10n.t('1 dependent') : vscode.l10n.t('{0} dependents', r.dependents)) : '',
        ]
          .filter(Boolean)
          .join(' · ') || undefined,
      target: r.target,
      picked: r.target === listed.atCursor,
    }));
    const atCursor = items.findIndex((i) => i.picked);
    if (atCursor > 0) items.unshift(...items.splice(atCursor, 1));
    if (many) {
      const chosen = await vscode.window.showQuickPick(items, { title, canPickMany: true, matchOnDescription: true, matchOnDetail: true, placeHolder: vscode.l10n.t('Resources, by name and type') });
      return chosen?.length ? chosen.map((c) => c.target) : undefined;
    }
    const chosen = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true, placeHolder: vscode.l10n.t('A resource, by name and type') });
    return chosen && [chosen.target];
  }

  private async palette(operation: Operation, command: SurgeryPaletteCommand, args: unknown): Promise<boolean> {
    const uri = this.documentOf(args);
    if (!uri) return false;
    const targets = givenTargets(args) ?? (await this.pick(uri, command.title(), command.many, command.offers));
    if (!targets) return false;
    return this.apply({ uri: uri.toString(), operation, targets, ...command.call });
  }

  private async simple(operation: Operation, args: unknown): Promise<boolean> {
    const uri = this.documentOf(args);
    return uri ? this.apply({ uri: uri.toString(), operation }) : false;
  }

  private async clearPending(command: SurgeryPaletteCommand, args: unknown): Promise<boolean> {
    const uri = this.documentOf(args);
    if (!uri) return false;
    const listed = await this.resources(uri);
    if (!listed) return false;
    if (listed.pending.length === 0) {
      void this.context.notifier.info(vscode.l10n.t('This file has no pending operations.'));
      return false;
    }
    const items = listed.pending.map((p) => ({ label: `${p.type} ${p.urn.slice(p.urn.lastIndexOf('::') + 2)}`, description: p.target, target: p.target, picked: true }));
    const chosen = await vscode.window.showQuickPick(items, { title: command.title(), canPickMany: true });
    if (!chosen?.length) return false;
    return this.apply({ uri: uri.toString(), operation: 'clear-pending', targets: chosen.length === items.length ? [] : chosen.map((c) => c.target) });
  }

  /** A lens's or a caller's complete SurgeryParams. */
  private async runGiven(args: unknown): Promise<boolean> {
    const params = argumentsOf<SurgeryParams>(args);
    if (!params?.uri || !params.operation) return false;
    return this.apply(params as SurgeryParams);
  }

  private async rename(command: SurgeryPaletteCommand, args: unknown): Promise<boolean> {
    const uri = this.documentOf(args);
    if (!uri) return false;
    const given = argumentsOf<{ newName: string }>(args);
    // Only a urn that names one record can be renamed: copies are not offered.
    const target = (givenTargets(args) ?? (await this.pick(uri, command.title(), false, (r) => r.copies === 1)))?.[0];
    if (!target) return false;
    const current = target.slice(target.lastIndexOf('::') + 2);
    const newName =
      stringArgument(given?.newName) ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Rename {0}', current),
        prompt: vscode.l10n.t('The new name (not a URN): the URN, its children and every reference are rewritten'),
        value: current,
        validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('A name is required') : value.includes('::') ? vscode.l10n.t('A name, not a URN') : undefined),
      }));
    if (!newName || newName === current) return false;
    return this.apply({ uri: uri.toString(), operation: 'rename', targets: [target], newName });
  }

  /** Moves resources into another state file: both files in one WorkspaceEdit. */
  private async move(command: SurgeryPaletteCommand, args: unknown): Promise<boolean> {
    const uri = this.documentOf(args);
    if (!uri) return false;
    const given = argumentsOf<{ dest: string; includeParents: boolean }>(args);
    const targets = givenTargets(args) ?? (await this.pick(uri, command.title(), command.many));
    if (!targets) return false;
    let destUri: vscode.Uri | undefined = stringArgument(given?.dest) ? vscode.Uri.parse(given!.dest!) : undefined;
    if (!destUri) {
      const picked = await vscode.window.showOpenDialog({
        title: vscode.l10n.t('The state file to move the resources into'),
        openLabel: vscode.l10n.t('Move Here'),
        canSelectMany: false,
        filters: { [vscode.l10n.t('State files')]: ['json', 'gz'] },
      });
      destUri = picked?.[0];
    }
    if (!destUri) return false;
    if (destUri.scheme !== COMPRESSED_SCHEME && destUri.path.endsWith('.json.gz')) destUri = compressedUriOf(destUri);
    const dest = await vscode.workspace.openTextDocument(destUri);
    if (dest.uri.toString() === uri.toString()) {
      void this.context.notifier.error(vscode.l10n.t('The destination is the file the resources are in.'));
      return false;
    }
    return this.apply({
      uri: uri.toString(),
      operation: 'move',
      targets,
      includeParents: given?.includeParents === true,
      dest: { uri: dest.uri.toString(), text: dest.getText(), version: dest.version },
    });
  }

  private showReport(result: Partial<SurgeryResult> | undefined): void {
    if (!result) return;
    const lines = result.errors?.length ? result.errors : [result.message ?? ''];
    if (result.status === 'refused') void this.context.notifier.error(vscode.l10n.t('Not applied: {0}', lines.join('\n')));
    else void this.context.notifier.info(result.message ?? vscode.l10n.t('Nothing to change.'));
  }

  /** Asks the server, warns about a locked stack, asks for confirmation, and applies in one edit. Resolves true when applied. */
  async apply(params: SurgeryParams): Promise<boolean> {
    const client = this.context.languageClient;
    const result = await client.sendRequest(SurgeryRequest, params);
    if (!result) return false;
    if (!result.edit || !result.confirmation) {
      this.showReport(result);
      return false;
    }
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(result.edit);
    for (const [uri] of edit.entries()) if (!(await this.lockedStackConfirmed(uri))) return false;
    if (!(await this.confirmed(result.confirmation, edit))) return false;
    this.context.log.info(`State surgery: ${result.description}`);
    // Files with no unsaved changes are saved once the edit is in: confirmed means on disk. A file
    // with unsaved changes of the user's stays unsaved (saving it would write those too).
    const clean = edit
      .entries()
      .map(([uri]) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()))
      .filter((d): d is vscode.TextDocument => d !== undefined && !d.isDirty);
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) {
      void this.context.notifier.error(vscode.l10n.t('Not applied: the file changed meanwhile. Run the command again.'));
      return false;
    }
    const unsaved = (
      await Promise.all(
        clean.map((document) =>
          document.save().then(
            (saved) => (saved ? undefined : document),
            () => document,
          ),
        ),
      )
    ).filter((d): d is vscode.TextDocument => d !== undefined);
    // Spoken only once the edit is in: a toast before it would announce what may not happen.
    if (unsaved.length)
      void this.context.notifier.warning(vscode.l10n.t('{0} Applied, but not saved: {1}.', result.description, unsaved.map((d) => vscode.workspace.asRelativePath(d.uri)).join(', ')));
    else void this.context.notifier.info(result.description);
    return true;
  }

  /** The modal question, asked again after "Show Diff…"; true when the action was chosen. */
  private async confirmed(confirmation: SurgeryConfirmation, edit: vscode.WorkspaceEdit): Promise<boolean> {
    const showDiff = vscode.l10n.t('Show Diff…');
    for (;;) {
      const answer = await this.context.notifier.confirm(confirmation.question, confirmation.details.join('\n'), confirmation.action, showDiff);
      if (answer !== showDiff) return answer === confirmation.action;
      await this.showDiff(edit);
    }
  }

  /** VS Code's diff editor of each edited file's text (left) and the surgery's result (right). */
  private async showDiff(edit: vscode.WorkspaceEdit): Promise<void> {
    for (const [uri, edits] of edit.entries()) {
      const document = await vscode.workspace.openTextDocument(uri);
      const result = resultOf(document, edits);
      const right = vscode.Uri.from({ scheme: RESULT_SCHEME, path: uri.path, query: String(++this.diffs) });
      this.results.set(right.toString(), result);
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      await vscode.commands.executeCommand('vscode.diff', uri, right, vscode.l10n.t('{0} ↔ after the state operation', name), { preview: true });
    }
  }

  /**
   * Warns when `uri` is a DIY stack file whose stack holds a lock, under the one stale-lock rule
   * (lockDialog.ts): a stale lock is named as such; a lock whose holder may be running asks in a
   * modal whose default button leaves the file unchanged.
   */
  private async lockedStackConfirmed(uri: vscode.Uri): Promise<boolean> {
    const location = stackFileLocation(uri);
    const stack = location && stackFileOf(location.file.path);
    if (!location || !stack) return true;
    let locks: Awaited<ReturnType<typeof readStackLocks>>;
    try {
      locks = await readStackLocks(workspaceBackendStore(location.root), stack);
    } catch {
      return true;
    }
    if (locks.length === 0) return true;
    const now = Date.now();
    const judged = locks.map((lock) => judgeStackLock(lock, now));
    const lines = judged.map((lock) => lock.line).join('\n');
    const name = vscode.workspace.asRelativePath(location.file);
    const edit = vscode.l10n.t('Edit Anyway');
    if (judged.every((lock) => lock.stale)) {
      const answer = await this.context.notifier.warning(vscode.l10n.t("{0}'s stack holds a stale lock: {1}. Run pulumi cancel to remove it.", name, lines), edit);
      return answer === edit;
    }
    const leave = vscode.l10n.t('Leave Unchanged');
    const answer = await this.context.notifier.confirm(vscode.l10n.t("{0}'s stack is locked, and its holder may still be running an update.", name), lines, leave, edit);
    return answer === edit;
  }
}

/** The text after `edits`, through the one `applyEdits` (shared/edits.ts). */
function resultOf(document: vscode.TextDocument, edits: readonly vscode.TextEdit[]): string {
  const offsets = edits.map((e) => ({ offset: document.offsetAt(e.range.start), length: document.offsetAt(e.range.end) - document.offsetAt(e.range.start), newText: e.newText }));
  return applyEdits(document.getText(), offsets);
}

/** The `targets` a caller (a code action, a test) gave, when it gave some. */
function givenTargets(args: unknown): string[] | undefined {
  const given = argumentsOf<{ targets: unknown }>(args)?.targets;
  return Array.isArray(given) && given.length && given.every((t) => typeof t === 'string') ? (given as string[]) : undefined;
}
