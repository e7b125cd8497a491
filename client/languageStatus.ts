/**
 * Shows what the language server recognised the active file as (resource state, quota config,
 * or neither), how many problems it found, and which features are unavailable and why.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DocumentStatusNotification, type DocumentStatusParams } from '../shared/protocol';
import { DOCUMENT_SELECTOR } from './languageClient';

const kindLabel = (kind: NonNullable<DocumentStatusParams['kind']>): string =>
  ({ state: vscode.l10n.t('Resource state'), quota: vscode.l10n.t('Quota config'), appIni: vscode.l10n.t('Forgejo app.ini') })[kind];

function describeStatus(status: DocumentStatusParams): { text: string; detail: string; warn: boolean } {
  const kind = status.kind ? kindLabel(status.kind) : vscode.l10n.t('Not a quota or state file');
  const shaped = status.shape && status.kind ? `${kind} (${status.shape})` : kind;
  // The rules in force matter as much as the kind: a Forgejo 11 server decides differently from 15.
  const text = status.forgejo && status.kind ? `${shaped} · ${status.forgejo.rules}` : shaped;
  const details: string[] = [];
  if (status.forgejo && status.kind) details.push(status.forgejo.description);
  if (status.diagnosticCount !== undefined && status.kind) {
    details.push(status.diagnosticCount === 0 ? vscode.l10n.t('no problems') : status.diagnosticCount === 1 ? vscode.l10n.t('1 problem') : vscode.l10n.t('{0} problems', status.diagnosticCount));
  }
  if (status.schema && status.kind === 'state') details.push(vscode.l10n.t('schema mode: {0}', status.schema));
  if (status.fromDisk) details.push(vscode.l10n.t('analysed from disk'));
  for (const missing of status.unavailable ?? []) details.push(vscode.l10n.t('{0} unavailable: {1}', missing.feature, missing.reason));
  return { text, detail: details.join('; '), warn: Boolean(status.fromDisk || status.unavailable?.length) };
}

export class LanguageStatus implements vscode.Disposable {
  private readonly statuses = new Map<string, DocumentStatusParams>();
  private readonly item: vscode.LanguageStatusItem;
  private itemShown = false;
  /** For files the editor never hands to extensions (over 50 MB) there is no document to attach a language status to. */
  private readonly diskItem: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<DocumentStatusParams>();
  readonly onDidChange = this.changed.event;

  constructor(client: LanguageClient) {
    this.item = vscode.languages.createLanguageStatusItem('quotaState.documentKind', []);
    this.item.name = vscode.l10n.t('Quota & State: file kind');
    this.item.command = { title: vscode.l10n.t('Show Log'), command: 'quotaState.showLog' };
    this.diskItem = vscode.window.createStatusBarItem('quotaState.fromDisk', vscode.StatusBarAlignment.Right, 100);
    this.diskItem.name = vscode.l10n.t('Quota & State: large file');
    this.disposables.push(
      this.item,
      this.diskItem,
      this.changed,
      client.onNotification(DocumentStatusNotification, (status) => {
        this.statuses.set(status.uri, status);
        this.changed.fire(status);
        this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.refresh()),
    );
    this.refresh();
  }

  status(uri: string): DocumentStatusParams | undefined {
    return this.statuses.get(uri);
  }

  forget(uri: string): void {
    this.statuses.delete(uri);
  }

  private refresh(): void {
    const editor = vscode.window.activeTextEditor;
    const status = editor ? this.statuses.get(editor.document.uri.toString()) : undefined;
    // Every JSON file reaches the server, but only state and quota files get the item: an empty
    // selector hides it for the rest, so ordinary JSON shows nothing of this extension.
    const recognised = Boolean(status?.kind);
    if (recognised !== this.itemShown) {
      this.itemShown = recognised;
      this.item.selector = recognised ? DOCUMENT_SELECTOR : [];
    }
    if (status) {
      const { text, detail, warn } = describeStatus(status);
      this.item.text = text;
      this.item.detail = detail;
      this.item.severity = warn ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
    }

    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const tabUri = tab?.input instanceof vscode.TabInputText ? tab.input.uri.toString() : undefined;
    const diskStatus = tabUri && !editor ? this.statuses.get(tabUri) : undefined;
    if (diskStatus?.fromDisk) {
      const { text, detail } = describeStatus(diskStatus);
      this.diskItem.text = vscode.l10n.t('$(warning) {0}', text);
      this.diskItem.tooltip = vscode.l10n.t(
        '{0}. The file is too large for VS Code to hand to extensions, so it was analysed from disk: problems are listed, editor features are not available.',
        detail,
      );
      this.diskItem.show();
    } else {
      this.diskItem.hide();
    }
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
