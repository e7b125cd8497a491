/**
 * Compressed DIY stack files (`<stack>.json.gz`, which Pulumi's file backend writes with
 * `PULUMI_DIY_BACKEND_GZIP=1`) open as decompressed JSON through a file system of ours:
 * `pulumi-gz:/path/to/dev.json` is `file:///path/to/dev.json.gz` decompressed. The document is
 * JSON, so the language server checks it in full; saving compresses it back. The original is
 * untouched until then; on save its old bytes are kept as `dev.json.gz.bak` (as the CLI and
 * Pulumi's DIY backend keep them) and the new file replaces it by rename, holding the file's lock
 * (`dev.json.gz.lock`, as `quota-state` takes it) and only if the file is still what was read.
 *
 * Reading decompresses gzip or zstd within the 256 MiB limit (shared/text/inflate.ts), writing
 * compresses with the Web Compression Streams API (Node ≥ 18 and browsers), and all I/O goes
 * through `vscode.workspace.fs`, so this also works where the extension has no Node.
 */
import * as vscode from 'vscode';
import { gzip } from './compression';
import { acquireFolderLock } from '../shared/folderLock';
import { folderLockIo } from './workspaceLock';
import { compressionOf, inflate } from '../shared/text/inflate';
import { writeLockPath } from '../shared/writeLock';

export const COMPRESSED_SCHEME = 'pulumi-gz';
const OPEN_COMPRESSED_COMMAND = 'quotaState.state.openCompressed';

/**
 * `file:///…/dev.json.gz` → `pulumi-gz:/…/dev.json?file`: the query keeps the original's scheme, so a
 * stack file of a remote or virtual workspace (`vscode-remote:`, `vscode-vfs:` in the browser) is
 * read and written where it lives.
 */
export function compressedUriOf(original: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: COMPRESSED_SCHEME, authority: original.authority, path: original.path.replace(/\.gz$/, ''), query: original.scheme });
}

/** `pulumi-gz:/…/dev.json?file` → `file:///…/dev.json.gz`. */
export function compressedOriginal(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: uri.query || 'file', authority: uri.authority, path: `${uri.path}.gz` });
}

class CompressedStateFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  watch(uri: vscode.Uri): vscode.Disposable {
    const original = compressedOriginal(uri);
    const folder = original.with({ path: original.path.slice(0, original.path.lastIndexOf('/')) });
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, original.path.slice(original.path.lastIndexOf('/') + 1)));
    const fire = (type: vscode.FileChangeType) => () => this.changed.fire([{ type, uri }]);
    return vscode.Disposable.from(watcher, watcher.onDidChange(fire(vscode.FileChangeType.Changed)), watcher.onDidDelete(fire(vscode.FileChangeType.Deleted)));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const stat = await vscode.workspace.fs.stat(compressedOriginal(uri));
    return { ...stat, permissions: stat.permissions };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const original = compressedOriginal(uri);
    await this.remember(original);
    const bytes = await vscode.workspace.fs.readFile(original);
    if (!compressionOf(bytes)) throw vscode.FileSystemError.Unavailable(vscode.l10n.t('{0} is not gzip- or zstd-compressed.', original.fsPath));
    try {
      // Within the limit of a plain file (256 MiB): a compression bomb is refused, not held in memory.
      return inflate(bytes, { name: original.fsPath });
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(error instanceof Error ? error.message : String(error));
    }
  }

  /** The original's stat when it was last read or written by us: a save refuses if it changed since. */
  private readonly seen = new Map<string, { mtime: number; size: number }>();

  private async remember(original: vscode.Uri): Promise<void> {
    const { mtime, size } = await vscode.workspace.fs.stat(original);
    this.seen.set(original.toString(), { mtime, size });
  }

  /**
   * Saves holding the original's lock (`<file>.lock`, as `quota-state` takes it; see fileLock.ts),
   * so that a save and a CLI edit of the same stack file never lose one another's change.
   */
  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const original = compressedOriginal(uri);
    const lockUri = original.with({ path: writeLockPath(original.path) });
    const lock = await acquireFolderLock(folderLockIo(lockUri));
    if (!lock) {
      throw vscode.FileSystemError.Unavailable(
        vscode.l10n.t('{0} is being written by another program: its lock {1} was not released within 5 seconds. Nothing was saved; save again in a moment.', original.fsPath, lockUri.fsPath),
      );
    }
    try {
      await this.replace(uri, original, content, options);
    } finally {
      await lock.release();
    }
  }

  /**
   * Holding the lock: the old bytes go to `<file>.bak` and the new content over the original, each
   * by rename, and only if the original is still what was read (same mtime and size).
   */
  private async replace(uri: vscode.Uri, original: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    let old: Uint8Array | undefined;
    try {
      old = await vscode.workspace.fs.readFile(original);
    } catch {
      if (!options.create) throw vscode.FileSystemError.FileNotFound(original);
    }
    if (old && !options.overwrite) throw vscode.FileSystemError.FileExists(original);
    const compressed = await gzip(content);
    const folder = original.path.slice(0, original.path.lastIndexOf('/'));
    const name = original.path.slice(original.path.lastIndexOf('/') + 1);
    const temporary = original.with({ path: `${folder}/.${name}.quota-state.tmp` });
    const backupTemporary = original.with({ path: `${folder}/.${name}.quota-state.bak.tmp` });
    await vscode.workspace.fs.writeFile(temporary, compressed);
    try {
      if (old) {
        await vscode.workspace.fs.writeFile(backupTemporary, old);
        await this.refuseIfChanged(original);
        await vscode.workspace.fs.rename(backupTemporary, original.with({ path: `${original.path}.bak` }), { overwrite: true });
      }
      await vscode.workspace.fs.rename(temporary, original, { overwrite: true });
    } catch (error) {
      for (const leftover of [temporary, backupTemporary]) await vscode.workspace.fs.delete(leftover).then(undefined, () => undefined);
      throw error;
    }
    await this.remember(original);
    this.changed.fire([{ type: old ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  private async refuseIfChanged(original: vscode.Uri): Promise<void> {
    const seen = this.seen.get(original.toString());
    if (!seen) return;
    const { mtime, size } = await vscode.workspace.fs.stat(original);
    if (mtime !== seen.mtime || size !== seen.size) {
      throw vscode.FileSystemError.Unavailable(
        vscode.l10n.t('{0} changed on disk since it was opened (another program wrote it). Nothing was saved: reopen the file and make the change again.', original.fsPath),
      );
    }
  }

  readDirectory(): [string, vscode.FileType][] {
    throw vscode.FileSystemError.NoPermissions('pulumi-gz: opens single stack files only');
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('pulumi-gz: opens single stack files only');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('pulumi-gz: delete the .json.gz file itself');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('pulumi-gz: rename the .json.gz file itself');
  }
}

/** The provider and the explorer's "Open Pulumi Stack File" command (resolves with the opened document). */
export function registerCompressedState(): vscode.Disposable[] {
  return [
    vscode.workspace.registerFileSystemProvider(COMPRESSED_SCHEME, new CompressedStateFileSystem(), { isCaseSensitive: true }),
    vscode.commands.registerCommand(OPEN_COMPRESSED_COMMAND, async (given?: unknown) => {
      let original = given instanceof vscode.Uri ? given : undefined;
      if (!original) {
        const picked = await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Open a compressed Pulumi stack file'),
          filters: { [vscode.l10n.t('Compressed stack files')]: ['gz'] },
          canSelectMany: false,
        });
        original = picked?.[0];
      }
      if (!original) return undefined;
      if (!original.path.endsWith('.json.gz')) {
        void vscode.window.showErrorMessage(vscode.l10n.t('{0} is not a .json.gz stack file.', original.path.slice(original.path.lastIndexOf('/') + 1)));
        return undefined;
      }
      const document = await vscode.workspace.openTextDocument(compressedUriOf(original));
      await vscode.window.showTextDocument(document);
      return document;
    }),
  ];
}
