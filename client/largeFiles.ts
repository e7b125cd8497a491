/**
 * VS Code does not hand documents over 50 MB to extensions, so such a state file never reaches
 * the language server through didOpen. For every open tab whose document never arrives, ask the server to analyse the file from disk; ask again when
 * the file changes on disk.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DEFAULT_FILE_PATTERNS, matchesAny } from '../shared/documentKind';
import { AnalyzeFromDiskNotification, SETTINGS_SECTION } from '../shared/protocol';

/** How long a freshly opened tab may take to deliver its document before we call it unsynced. */
const ARRIVAL_GRACE_MS = 1500;

export class LargeFileWatcher implements vscode.Disposable {
  private readonly analysed = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: LanguageClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.json', true, false, true);
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.schedule()),
      watcher,
      watcher.onDidChange((uri) => {
        if (this.analysed.has(uri.toString())) void this.request(uri);
      }),
    );
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.scan(), ARRIVAL_GRACE_MS);
  }

  private async scan(): Promise<void> {
    const open = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') open.add(tab.input.uri.toString());
      }
    }
    for (const uri of [...this.analysed]) if (!open.has(uri)) this.analysed.delete(uri);
    const synced = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    for (const key of open) {
      if (this.analysed.has(key)) continue;
      const uri = vscode.Uri.parse(key);
      if (synced.has(key)) continue;
      if (!(await this.isStateCandidate(uri))) continue;
      this.analysed.add(key);
      await this.request(uri);
    }
  }

  /** A state file by name, or any JSON file the editor could not hand over (content decides on the server). */
  private async isStateCandidate(uri: vscode.Uri): Promise<boolean> {
    const patterns = vscode.workspace.getConfiguration(SETTINGS_SECTION, uri).get<string[]>('files.state') ?? DEFAULT_FILE_PATTERNS.state;
    return matchesAny(uri.fsPath, patterns) || uri.fsPath.endsWith('.json');
  }

  private async request(uri: vscode.Uri): Promise<void> {
    this.log.info(`Asking the language server to analyse ${uri.fsPath} from disk (the editor does not hand it to extensions).`);
    await this.client.sendNotification(AnalyzeFromDiskNotification, { uri: uri.toString() });
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
