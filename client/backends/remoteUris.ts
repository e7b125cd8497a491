/**
 * How a remote backend's objects are named as VS Code files: `pulumi-<scheme>://…` (`pulumi-s3`,
 * …), one file system per scheme (bucketFileSystem.ts). Pure, so the language client's document
 * selector and the browser build can list the schemes too.
 */
import { REMOTE_SCHEMES, type RemoteBackendUrl } from '../../shared/backend/vocabulary';

const PREFIX = 'pulumi-';

/** The Uri scheme of a remote scheme's objects (`s3` → `pulumi-s3`). */
export const remoteUriScheme = (scheme: RemoteBackendUrl['scheme']): string => `${PREFIX}${scheme}`;

/** Every remote backend's Uri scheme. */
export const REMOTE_URI_SCHEMES: readonly string[] = REMOTE_SCHEMES.map(remoteUriScheme);

/** Whether `uri` names an object of a remote backend (not a folder of this machine). */
export const isRemoteUri = (uri: { scheme: string }): boolean => REMOTE_URI_SCHEMES.includes(uri.scheme);

/** The backend URL scheme of a remote Uri (`pulumi-s3` → `s3`). */
export const backendSchemeOf = (uri: { scheme: string }): string => uri.scheme.slice(PREFIX.length);
