/**
 * Pulumi's DIY backends can gzip their stack files (`<stack>.json.gz`, with
 * PULUMI_DIY_BACKEND_GZIP). VS Code opens no compressed text, so "Open Compressed Stack File"
 * decompresses one with the platform's DecompressionStream (the same in Node and in a browser
 * worker) into an untitled JSON document, which the language server recognises and checks by its
 * content like any export. The file itself is never written.
 */
import * as vscode from 'vscode';
import type { Notifier } from './notifier';

export const OPEN_COMPRESSED_STATE_COMMAND = 'quotaState.openCompressedState';

/** The text of gzip-compressed UTF-8 bytes. */
export async function gunzipText(bytes: Uint8Array): Promise<string> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

export class CompressedStateCommands {
  constructor(private readonly notifier: Notifier) {}

  register(): vscode.Disposable[] {
    return [vscode.commands.registerCommand(OPEN_COMPRESSED_STATE_COMMAND, (target?: unknown) => this.open(target))];
  }

  /** Opens the decompressed text beside nothing else; returns the untitled document's URI. */
  async open(target?: unknown): Promise<vscode.Uri | undefined> {
    const uri = target instanceof vscode.Uri ? target : await this.pick();
    if (!uri) return undefined;
    let text: string;
    try {
      text = await gunzipText(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      void this.notifier.error(vscode.l10n.t('Could not decompress {0}: {1}', vscode.workspace.asRelativePath(uri), error instanceof Error ? error.message : String(error)));
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: text });
    await vscode.window.showTextDocument(document);
    return document.uri;
  }

  private async pick(): Promise<vscode.Uri | undefined> {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('Compressed stack files')]: ['gz'] }, title: vscode.l10n.t('Open Compressed Stack File') });
    return picked?.[0];
  }
}
