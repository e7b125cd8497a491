/**
 * The State Diff view: what changed between two states, as `quota-state diff` computes it
 * (shared/state/diff): the summary line first, then the resources grouped as added, removed,
 * renamed, replaced and changed, each with its changed leaves (path, old → new, secrets masked). A
 * click on a resource reveals its record in the document that holds it; Open Text Diff opens VS
 * Code's diff editor on the two.
 *
 * A changed secret shows `[secret changed]` until Reveal Secrets: then each side's ciphertexts are
 * opened with the key of that side's own salt (a checkpoint written before a passphrase change has
 * another), as `quota-state diff --show-secrets` opens them (shared/backend's `openCiphertexts`, then
 * the diff of the opened states), and the row shows old → new, in this view only. A side whose
 * passphrase is not known or is wrong says so in the row, with no value.
 */
import * as vscode from 'vscode';
import { findSecrets, structureOf, type StateStructure } from '../../shared/state/vocabulary';
import { diffStates, diffSummary, openCiphertexts, passphraseSaltOf, secretsProviderOf, type StateDiff } from '../../shared/backend/vocabulary';
import { askPassphrase, type NoKey, type SaltKeys } from '../secrets';
import { backendDocumentUri } from './documents';

type Resource = StateDiff['resources'][number];
type Change = Resource['changes'][number];
type Kind = Resource['kind'];

export type StateDiffNode = { kind: 'summary' } | { kind: 'group'; group: Kind; resources: Resource[] } | { kind: 'resource'; resource: Resource } | { kind: 'change'; change: Change };

/** What Reveal Secrets made of one side: its ciphertexts opened (`unopened` of them did not decrypt), none to open, or why not. */
type SideSecrets = { opened: true; unopened: number } | { opened: false; reason: NoKey | 'no-passphrase-salt' };

/** Reveal Secrets without the input box (tests and automation): the answers of the passphrase prompts, in order (undefined: dismissed). */
export interface RevealOptions {
  answers?: Array<string | undefined>;
}

const GROUPS: Kind[] = ['added', 'removed', 'renamed', 'replaced', 'changed'];
const ICONS: Record<Kind, string> = { added: 'diff-added', removed: 'diff-removed', renamed: 'diff-renamed', replaced: 'replace', changed: 'diff-modified', same: 'circle-outline' };

function value(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

const hasCiphertexts = (structure: StateStructure) => findSecrets(structure).some((site) => site.secret.form === 'ciphertext');

/** Whether any change of the diff is a secret's (the resources that count as the same list theirs too). */
const hasSecretChanges = (diff: StateDiff) => [...diff.resources.flatMap((r) => r.changes), ...diff.manifest].some((change) => change.kind === 'secret changed');

/** Why a changed secret shows no value after Reveal Secrets: each side that was not opened, or a ciphertext its salt's key did not open. */
function unrevealedReason(sides: readonly SideSecrets[]): string {
  const why = (side: SideSecrets) => {
    if (side.opened) return undefined;
    if (side.reason === 'unknown') return vscode.l10n.t('passphrase not known');
    if (side.reason === 'incorrect') return vscode.l10n.t('incorrect passphrase');
    if (side.reason === 'unusable') return vscode.l10n.t('its salt cannot be read');
    return vscode.l10n.t('no passphrase salt');
  };
  const [before, after] = sides.map(why);
  const parts = [before && vscode.l10n.t('old: {0}', before), after && vscode.l10n.t('new: {0}', after)].filter(Boolean);
  return parts.length ? vscode.l10n.t('[secret changed] ({0})', parts.join('; ')) : vscode.l10n.t("[secret changed] (a ciphertext does not decrypt with its salt's key)");
}

export class StateDiffView implements vscode.TreeDataProvider<StateDiffNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<StateDiffNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown: { left: vscode.Uri; right: vscode.Uri; title: string; diff: StateDiff; texts: [string, string]; revealed?: SideSecrets[] } | undefined;
  private readonly view: vscode.TreeView<StateDiffNode>;

  constructor(private readonly keys: SaltKeys) {
    this.view = vscode.window.createTreeView('quotaState.stateDiff', { treeDataProvider: this, showCollapseAll: true });
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.stateDiff.openTextDiff', () => this.openTextDiff()),
      vscode.commands.registerCommand('quotaState.stateDiff.reveal', (resource: Resource) => this.reveal(resource)),
      vscode.commands.registerCommand('quotaState.stateDiff.revealSecrets', () => this.revealSecrets()),
      this,
    ];
  }

  /** For tests: what the view shows. */
  current(): { title: string; summary: string; diff: StateDiff } | undefined {
    return this.shown && { title: this.shown.title, summary: diffSummary(this.shown.diff), diff: this.shown.diff };
  }

  /** Compares two backend files (their read-only documents) and shows the result. */
  async show(left: vscode.Uri, right: vscode.Uri, title: string): Promise<StateDiff> {
    const texts = (await Promise.all([left, right].map(async (uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(backendDocumentUri(uri)))))) as [string, string];
    const [before, after] = texts.map((text) => structureOf(JSON.parse(text)));
    const diff = diffStates(before, after);
    this.shown = { left, right, title, diff, texts };
    await vscode.commands.executeCommand('setContext', 'quotaState.stateDiffShown', true);
    await vscode.commands.executeCommand('setContext', 'quotaState.stateDiffHasSecrets', hasSecretChanges(diff));
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
        if (change.kind === 'secret changed') {
          const revealed = this.shown?.revealed;
          item.description = 'old' in change ? `${value(change.old)} → ${value(change.new)}` : revealed ? unrevealedReason(revealed) : vscode.l10n.t('[secret changed]');
          item.iconPath = new vscode.ThemeIcon('key');
          // Reveal Secrets inline, until it has been run on this diff.
          if (!revealed) item.contextValue = 'secretChange';
          item.tooltip = item.description;
          return item;
        }
        item.description = change.kind === 'added' ? `+ ${value(change.new)}` : change.kind === 'removed' ? `- ${value(change.old)}` : `${value(change.old)} → ${value(change.new)}`;
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

  /**
   * Reveal Secrets: each side's ciphertexts opened with its own salt's key (the passphrase from
   * SecretStorage, else asked once per salt and checked before use), the two compared again by their
   * values, and the view showing that. Answers what each side came to (none when nothing is shown).
   */
  async revealSecrets(options: RevealOptions = {}): Promise<SideSecrets[] | undefined> {
    const shown = this.shown;
    if (!shown) return undefined;
    const answers = options.answers ? [...options.answers] : undefined;
    const sides = shown.texts.map((text) => structureOf(JSON.parse(text)));
    const labels = [vscode.l10n.t('{0} (old side)', shown.title), vscode.l10n.t('{0} (new side)', shown.title)];
    const revealed: SideSecrets[] = [];
    for (const [index, side] of sides.entries()) revealed.push(await this.openSide(side, () => (answers ? Promise.resolve(answers.shift()) : askPassphrase(labels[index]))));
    const diff = diffStates(sides[0], sides[1], { showSecrets: true });
    // The opened states are dropped here: only the diff's changed values stay, in this view.
    this.shown = { ...shown, diff, revealed };
    this.view.description = diffSummary(diff);
    this.changed.fire(undefined);
    return revealed;
  }

  /** One side's ciphertexts opened in place with its salt's key; why not when they cannot be. */
  private async openSide(side: StateStructure, ask: () => Thenable<string | undefined>): Promise<SideSecrets> {
    if (!hasCiphertexts(side)) return { opened: true, unopened: 0 };
    const provider = secretsProviderOf(side);
    const saltState = provider && passphraseSaltOf(provider);
    if (!saltState) return { opened: false, reason: 'no-passphrase-salt' };
    const key = await this.keys.unlock(saltState, ask);
    if (typeof key === 'string') return { opened: false, reason: key };
    return { opened: true, unopened: await openCiphertexts(side, key.crypter.decrypt) };
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
