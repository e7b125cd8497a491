/**
 * A remote backend's objects as VS Code files: `pulumi-s3://bucket/prefix/.pulumi/stacks/app/dev.json?<the
 * s3 URL's query>` is the object `.pulumi/stacks/app/dev.json` of `s3://bucket/prefix?<query>` (and
 * `pulumi-<scheme>://` the same for each scheme of remoteUris.ts). The
 * Pulumi Backends view reads a bucket through it (Open, Compare, Restore read their documents so),
 * and a stack object opens as an editable document: saving it writes back under Pulumi's lock
 * object, the old bytes first kept as the `.bak` object, and only if the object is still the one
 * read (its ETag), else nothing is saved and it says so.
 */
import * as vscode from 'vscode';
import { listAll, remoteSchemeOf, StackLockedError, StoreError, StoreMissing, withStackWrite, type WritableBackendStore } from '../../shared/backend/vocabulary';
import { bucketStore, passwordOf, rememberPassword, withoutPassword } from './bucketAccess';
import { backendSchemeOf, REMOTE_URI_SCHEMES, remoteUriScheme } from './remoteUris';
import { lockIdentity } from '../../shared/node/lockIdentity';

/**
 * `s3://bucket/prefix?query` (or any remote scheme's URL) → the Uri of the backend's root in this
 * file system. A password in the URL's authority stays out of the Uri (Uris are shown and remembered):
 * bucketAccess.ts keeps it for the session.
 */
export function bucketRootUri(url: string): vscode.Uri {
  const scheme = remoteSchemeOf(url);
  if (!scheme) throw new Error(vscode.l10n.t('{0} is not a remote backend URL', url));
  const at = url.indexOf('?');
  const rest = (at === -1 ? url : url.slice(0, at)).replace(/^[a-z0-9+.-]+:(?:\/\/)?/i, '');
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  // lib/pq also takes `password=` in the query: it stays out of the Uri as the user info's does.
  const query = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
  const inQuery = query.get('password') ?? undefined;
  query.delete('password');
  const uri = vscode.Uri.from({
    scheme: remoteUriScheme(scheme),
    authority: withoutPassword(authority),
    path: slash === -1 ? '/' : rest.slice(slash).replace(/\/+$/, '') || '/',
    query: inQuery === undefined ? (at === -1 ? '' : url.slice(at + 1)) : query.toString(),
  });
  const password = passwordOf(authority) ?? inQuery;
  if (password !== undefined) rememberPassword(bucketPartsOf(uri).url, password);
  return uri;
}

/** A remote Uri's backend URL (`s3://bucket/prefix?query`, without any password) and object name (`.pulumi/…`, '' for the root). */
export function bucketPartsOf(uri: vscode.Uri): { url: string; name: string } {
  const at = uri.path.indexOf('/.pulumi');
  const prefix = at === -1 ? uri.path : uri.path.slice(0, at);
  const name = at === -1 ? '' : uri.path.slice(at + 1);
  return { url: `${backendSchemeOf(uri)}://${uri.authority}${prefix === '/' ? '' : prefix}${uri.query ? `?${uri.query}` : ''}`, name };
}

const storeOf = (uri: vscode.Uri): { store: WritableBackendStore; name: string } => {
  const { url, name } = bucketPartsOf(uri);
  return { store: bucketStore(url), name };
};

const unavailable = (error: unknown) => vscode.FileSystemError.Unavailable(error instanceof Error ? error.message : String(error));

/** The stack a stack object belongs to (`.pulumi/stacks/<project>/<stack>.json`, or legacy `.pulumi/stacks/<stack>.json`). */
function stackOfName(name: string): { project?: string; name: string } | undefined {
  const match = /^\.pulumi\/stacks\/(?:([^/]+)\/)?([^/]+)\.json$/.exec(name);
  return match ? { project: match[1], name: match[2] } : undefined;
}

class BucketFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  /** The ETag of each object as last read: a save refuses an object changed since. */
  private readonly seen = new Map<string, string>();

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { store, name } = storeOf(uri);
    try {
      const objects = (await store.listPage(name)).objects;
      const exact = objects.find((o) => o.name === name);
      if (exact) return { type: vscode.FileType.File, ctime: exact.modifiedMs, mtime: exact.modifiedMs, size: exact.size };
      if (name === '' || objects.some((o) => o.name.startsWith(`${name}/`))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    } catch (error) {
      throw unavailable(error);
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  async readDirectory(uri: vscode.Uri): Promise<Array<[string, vscode.FileType]>> {
    const { store, name } = storeOf(uri);
    const folder = name === '' ? '' : `${name}/`;
    const children = new Map<string, vscode.FileType>();
    try {
      for (const object of await listAll(store, folder)) {
        const rest = object.name.slice(folder.length);
        const slash = rest.indexOf('/');
        children.set(slash === -1 ? rest : rest.slice(0, slash), slash === -1 ? vscode.FileType.File : vscode.FileType.Directory);
      }
    } catch (error) {
      throw unavailable(error);
    }
    return [...children];
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { store, name } = storeOf(uri);
    try {
      const { bytes, version } = await store.read(name);
      this.seen.set(uri.toString(), version);
      return bytes;
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      if (error instanceof StoreMissing) throw vscode.FileSystemError.FileNotFound(uri);
      throw unavailable(error);
    }
  }

  /** Only a plain stack object is saved, through the one writer: under Pulumi's lock, after its `.bak`, if unchanged since read. */
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { store, name } = storeOf(uri);
    const stack = stackOfName(name);
    if (!stack) throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Only a stack file of a bucket is saved from the editor: {0} is read-only.', name));
    const seen = this.seen.get(uri.toString());
    try {
      await withStackWrite(store, name, { identity: lockIdentity(), stack, create: true }, (current) => {
        if (seen !== undefined && current?.version !== seen) {
          throw new StoreError(vscode.l10n.t('{0} changed in the bucket since it was opened (another writer). Nothing was saved: reopen it and make the change again.', name));
        }
        return { bytes: content, value: undefined };
      });
      this.seen.set(uri.toString(), (await store.read(name, { length: 1 })).version);
    } catch (error) {
      if (error instanceof StackLockedError || error instanceof StoreError) throw unavailable(error);
      throw error;
    }
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(): void {
    // A bucket has no folders: objects are created with their names.
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Objects of a bucket are not deleted from the editor (Prune History… removes old history).'));
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Objects of a bucket are not renamed from the editor.'));
  }
}

/** One file system for every remote scheme (they differ only in the store bucketAccess.ts opens). */
export function registerBucketFileSystem(): vscode.Disposable {
  const system = new BucketFileSystem();
  return vscode.Disposable.from(...REMOTE_URI_SCHEMES.map((scheme) => vscode.workspace.registerFileSystemProvider(scheme, system, { isCaseSensitive: true })));
}
