/**
 * Commands behind the first-run walkthrough: open an example state file and jump to a quick fix,
 * open an example quota file. The examples open as untitled documents, so nothing is written to
 * the user's folders (the language server recognises both kinds by their content).
 */
import * as vscode from 'vscode';
import exampleState from '../examples/webshop.state.json';

/** A small quota file: a default group, an assigned one, and bob over the free plan. */
const EXAMPLE_QUOTA = `// An example quota file: hover a rule, a group or an account; the hints show each account's verdict.
{
  "defaultGroups": ["free"],
  "rules": [
    { "name": "repos-100m", "limit": "100 MiB", "subjects": ["size:repos:all"] },
    { "name": "lfs-50m", "limit": "50 MiB", "subjects": ["size:git:lfs"] },
    { "name": "pro-total-5g", "limit": "5 GiB", "subjects": ["size:all"] }
  ],
  "groups": [
    { "name": "free", "rules": ["repos-100m", "lfs-50m"] },
    { "name": "pro", "rules": ["pro-total-5g"] }
  ],
  "assignments": { "carol": ["pro"] },
  "usage": {
    "alice": { "size:repos:public": "12 MiB" },
    "bob": { "size:repos:private": "140 MiB", "size:git:lfs": "2 MiB" },
    "carol": { "size:repos:public": "800 MiB", "size:git:lfs": "2 GiB" }
  }
}
`;

export class WalkthroughCommands {
  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.walkthrough.openExampleState', () => this.openExampleState()),
      vscode.commands.registerCommand('quotaState.walkthrough.showFix', () => this.showFix()),
      vscode.commands.registerCommand('quotaState.walkthrough.openExampleQuota', () => this.openExampleQuota()),
    ];
  }

  async openExampleState(): Promise<vscode.Uri> {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(exampleState, null, 4)}\n` });
    await vscode.window.showTextDocument(document);
    return document.uri;
  }

  async openExampleQuota(): Promise<vscode.Uri> {
    const document = await vscode.workspace.openTextDocument({ language: 'jsonc', content: EXAMPLE_QUOTA });
    await vscode.window.showTextDocument(document);
    return document.uri;
  }

  /** Puts the cursor on the active editor's first problem that has a fix and opens the quick fix menu; returns that problem's code. */
  async showFix(): Promise<string | undefined> {
    const editor = vscode.window.activeTextEditor ?? (await this.openExampleEditor());
    const problems = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'quota-state');
    for (const problem of problems) {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, problem.range);
      if (!actions?.some((action) => action.kind?.contains(vscode.CodeActionKind.QuickFix) || action.edit)) continue;
      editor.selection = new vscode.Selection(problem.range.start, problem.range.start);
      editor.revealRange(problem.range, vscode.TextEditorRevealType.InCenter);
      await vscode.commands.executeCommand('editor.action.quickFix');
      const code = typeof problem.code === 'object' ? String(problem.code.value) : String(problem.code);
      return code;
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('No problem with a quick fix here yet: open the example state file and wait for its diagnostics.'));
    return undefined;
  }

  private async openExampleEditor(): Promise<vscode.TextEditor> {
    await this.openExampleState();
    return vscode.window.activeTextEditor!;
  }
}
