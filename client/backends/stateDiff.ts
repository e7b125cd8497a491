/**
 * The State Diff view: what changed between two states, as `quota-state diff` computes it
 * (shared/state/diff): the summary line first, then the resources grouped as added, removed,
 * renamed, replaced and changed, each with its changed leaves (path, old → new, secrets masked). A
 * click on a resource reveals its record in the document that holds it; Open Text Diff opens VS
 * Code's diff editor on the two.
 */
import * as vscode from 'vscode';
import { structureOf } from '../../shared/state/vocabulary';
import { diffStates, diffSummary, type StateDiff } from '../../shared/backend/vocabulary';
import { backendDocumentUri } from './documents';

type Resource = StateDiff['resources'][number];
type Change = Resource['changes'][number];
type Kind = Resource['kind'];

export type StateDiffNode = { kind: 'summary' } | { kind: 'group'; group: Kind; resources: Resource[] } | { kind: 'resource'; resource: Resource } | { kind: 'change'; change: Change };

const GROUPS: Kind[] = ['added', 'removed', 'renamed', 'replaced', 'changed'];
const ICONS: Record<Kind, string> = { added: 'diff-added', removed: 'diff-removed', renamed: 'diff-renamed', replaced: 'replace', changed: 'diff-modified', same: 'circle-outline' };

function value(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

export class StateDiffView implements vscode.TreeDataProvider<StateDiffNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<StateDiffNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown: { left: vscode.Uri; right: vscode.Uri; title: string; diff: StateDiff } | undefined;
  private readonly view: vscode.TreeView<StateDiffNode>;

  constructor() {
    this.view = vscode.window.createTreeView('quotaState.stateDiff', { treeDataProvider: this, showCollapseAll: true });
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.stateDiff.openTextDiff', () => this.openTextDiff()),
      vscode.commands.registerCommand('quotaState.stateDiff.reveal', (resource: Resource) => this.reveal(resource)),
      this,
    ];
  }

  /** For tests: what the view shows. */
  current(): { title: string; summary: string; diff: StateDiff } | undefined {
    return this.shown && { title: this.shown.title, summary: diffSummary(this.shown.diff), diff: this.shown.diff };
  }

  /** Compares two backend files (their read-only documents) and shows the result. */
  async show(left: vscode.Uri, right: vscode.Uri, title: string): Promise<StateDiff> {
    const [before, after] = await Promise.all([left, right].map(async (uri) => JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(backendDocumentUri(uri)))) as unknown));
    const diff = diffStates(structureOf(before), structureOf(after));
    this.shown = { left, right, title, diff };
    await vscode.commands.executeCommand('setContext', 'quotaState.stateDiffShown', true);
    this.view.title = vscode.l10n.t('State Diff: {0}', title);
    this.view.description = diffSummary(diff);
    this.changed.fire(undefined);
    // Opened (and expanded) where the Explorer shows it; the diff editor that follows takes the focus.
    await vscode.commands.executeCommand('quotaState.stateDiff.focus');
    return diff;
  }

  getChildren(node?: StateDiffNode): StateDiffNode[] {
    const shown = this.shown;
    if (!shown) return [];
    if (!node) {
      const groups = GROUPS.map((group) => ({ kind: 'group' as const, group, resources: shown.diff.resources.filter((r) => r.kind === group) })).filter((g) => g.resources.length);
      return [{ kind: 'summary' }, ...groups];
    }
    if (node.kind === 'group') return node.resources.map((resource) => ({ kind: 'resource', resource }));
    if (node.kind === 'resource') return node.resource.changes.map((change) => ({ kind: 'change', change }));
    return [];
  }

  getTreeItem(node: StateDiffNode): vscode.TreeItem {
    switch (node.kind) {
      case 'summary':
        return Object.assign(new vscode.TreeItem(diffSummary(this.shown!.diff)), { iconPath: new vscode.ThemeIcon('info'), tooltip: this.shown!.title });
      case 'group':
        return Object.assign(new vscode.TreeItem(`${node.group} (${node.resources.length})`, vscode.TreeItemCollapsibleState.Expanded), { iconPath: new vscode.ThemeIcon(ICONS[node.group]) });
      case 'resource': {
        const { resource } = node;
        const item = new vscode.TreeItem(
          resource.key.slice(resource.key.lastIndexOf('::') + 2),
          resource.changes.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.description =
          resource.kind === 'renamed'
            ? vscode.l10n.t('from {0}', resource.oldUrn?.slice(resource.oldUrn.lastIndexOf('::') + 2) ?? '')
            : resource.kind === 'replaced'
              ? `${resource.oldId} → ${resource.newId}`
              : resource.type;
        item.tooltip = resource.key;
        item.iconPath = new vscode.ThemeIcon(ICONS[resource.kind]);
        item.command = { command: 'quotaState.stateDiff.reveal', title: vscode.l10n.t('Reveal'), arguments: [resource] };
        return item;
      }
      case 'change': {
        const { change } = node;
        const item = new vscode.TreeItem(change.path);
        item.description =
          change.kind === 'secret changed'
            ? vscode.l10n.t('[secret changed]')
            : change.kind === 'added'
              ? `+ ${value(change.new)}`
              : change.kind === 'removed'
                ? `- ${value(change.old)}`
                : `${value(change.old)} → ${value(change.new)}`;
        item.tooltip = item.description;
        return item;
      }
    }
  }

  /** Selects the resource's record in the document that holds it: the later one, or the earlier for a removed resource. */
  async reveal(resource: Resource): Promise<vscode.TextEditor | undefined> {
    if (!this.shown) return undefined;
    const uri = backendDocumentUri(resource.kind === 'removed' ? this.shown.left : this.shown.right);
    const document = await vscode.workspace.openTextDocument(uri);
    const text = document.getText();
    const copy = /#(\d+)$/.exec(resource.key);
    let at = -1;
    for (let n = copy ? Number(copy[1]) : 1; n > 0; n--) at = text.indexOf(`"urn": ${JSON.stringify(resource.urn)}`, at + 1);
    const editor = await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
    if (at >= 0) {
      const start = document.positionAt(at);
      editor.selection = new vscode.Selection(start, start);
      editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.InCenter);
    }
    return editor;
  }

  private async openTextDiff(): Promise<void> {
    if (!this.shown) return;
    await vscode.commands.executeCommand('vscode.diff', backendDocumentUri(this.shown.left), backendDocumentUri(this.shown.right), this.shown.title);
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}
