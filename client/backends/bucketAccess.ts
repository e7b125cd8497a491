/**
 * A remote backend (`s3://…`, each scheme of shared/backend/remoteUrl.ts) as the backend model's
 * store, in the Node extension host: the CLI's own stores (shared/node/remoteStore.ts, each scheme's
 * SDK a bundle of its own), required only when such a backend is opened, so the extension's start
 * never runs an SDK. Credentials come from each SDK's chain in the editor's environment; the extension
 * never writes them. A password given in a URL (`postgres://u:secret@…`) is kept in memory for the
 * session, never in a Uri, a setting or a message. client/web/bucketAccess.ts is the browser's twin.
 */
import { parseRemoteBackendUrl, RemoteUrlError, type WritableBackendStore } from '../../shared/backend/vocabulary';
import { openRemoteStore, remoteTimeoutMs } from '../../shared/node/remoteStore';

const stores = new Map<string, WritableBackendStore>();
const passwords = new Map<string, string>();

/** Whether this host can reach remote backends at all (the browser's cannot). */
export const bucketsSupported = true;

/** `user:secret@host` → `secret`; undefined when the authority holds no password. */
export function passwordOf(authority: string): string | undefined {
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  return at !== -1 && colon !== -1 && colon < at ? authority.slice(colon + 1, at) : undefined;
}

/** `user:secret@host` → `user@host`. */
export function withoutPassword(authority: string): string {
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  return at !== -1 && colon !== -1 && colon < at ? `${authority.slice(0, colon)}${authority.slice(at)}` : authority;
}

/** Keeps the password of the backend `url` names (without it) for this session. */
export function rememberPassword(url: string, password: string): void {
  passwords.set(url, password);
  stores.delete(url);
}

/** `url` with its remembered password put back into the authority, for the store only. */
function withPassword(url: string): string {
  const password = passwords.get(url);
  if (password === undefined) return url;
  const start = url.indexOf('://') + 3;
  const at = url.indexOf('@', start);
  const slash = url.slice(start).search(/[/?]/);
  if (at === -1 || (slash !== -1 && at > start + slash)) return `${url}${url.includes('?') ? '&' : '?'}password=${encodeURIComponent(password)}`;
  return `${url.slice(0, at)}:${password}${url.slice(at)}`;
}

/** The store of `url`, one per URL; throws RemoteUrlError naming a bad parameter. */
export function bucketStore(url: string): WritableBackendStore {
  let store = stores.get(url);
  if (!store) {
    const remote = parseRemoteBackendUrl(withPassword(url), process.env);
    if (!remote) throw new RemoteUrlError(`${url} is not a remote backend URL`);
    stores.set(url, (store = openRemoteStore(remote, { timeoutMs: remoteTimeoutMs() })));
  }
  return store;
}
