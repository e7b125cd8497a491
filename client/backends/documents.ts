/**
 * Read-only documents of a DIY backend's files: `pulumi-backend:/…/dev-<id>.checkpoint.json?<original>`
 * is the original file (a stack file, a history checkpoint, a backup; plain, gzip or zstd)
 * decompressed within the shared limit and pretty-printed when it is one minified line, as Pulumi
 * writes them. The language server checks and navigates them like any state file.
 */
import * as vscode from 'vscode';
import { decodeFile } from '../../shared/text/inflate';

export const BACKEND_DOCUMENT_SCHEME = 'pulumi-backend';

/** The read-only document of `original`; its name ends in `.json`, so it opens as JSON. */
export function backendDocumentUri(original: vscode.Uri): vscode.Uri {
  const path = original.path.replace(/\.(gz|zst)$/, '').replace(/(\.json)?$/, '.json');
  return vscode.Uri.from({ scheme: BACKEND_DOCUMENT_SCHEME, path, query: original.toString() });
}

/** The file a backend document shows (`pulumi-backend:…?<original>` → `<original>`). */
export function backendDocumentOriginal(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(uri.query, true);
}

/** Pretty-printed when the file is one long line (Pulumi writes compact JSON), else as it is. */
function readable(text: string): string {
  const newline = text.indexOf('\n');
  if (newline !== -1 && newline < text.trimEnd().length) return text;
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}

/** Told when the view wrote a backend file (a restore), so its open document shows the new content. */
const written = new vscode.EventEmitter<vscode.FileChangeEvent[]>();

export function backendFileWritten(original: vscode.Uri): void {
  written.fire([{ type: vscode.FileChangeType.Changed, uri: backendDocumentUri(original) }]);
}

class BackendDocuments implements vscode.FileSystemProvider {
  readonly onDidChangeFile = written.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const stat = await vscode.workspace.fs.stat(backendDocumentOriginal(uri));
    return { ...stat, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const original = backendDocumentOriginal(uri);
    const bytes = await vscode.workspace.fs.readFile(original);
    try {
      return new TextEncoder().encode(readable(decodeFile(bytes, { name: original.path }).text));
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(error instanceof Error ? error.message : String(error));
    }
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('pulumi-backend: opens single files only');
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('a backend file is read-only here');
  }
  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('a backend file is read-only here');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('a backend file is read-only here');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('a backend file is read-only here');
  }
}

export function registerBackendDocuments(): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(BACKEND_DOCUMENT_SCHEME, new BackendDocuments(), { isCaseSensitive: true, isReadonly: true });
}
