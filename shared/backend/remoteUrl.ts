/**
 * The DIY backends that are not a folder of this machine: object storage (`s3://` today; each
 * further scheme is one case here and one store in shared/node/) read as Pulumi reads their URLs.
 * `parseRemoteBackendUrl` dispatches on the scheme to that scheme's grammar; an error names the URL
 * as its `shown` form gives it, never a credential. Pure: no I/O, no Node built-ins.
 */
import { GcsUrlError, parseGcsBackendUrl, type GcsBackendUrl } from './gcsUrl';
import { isPostgresUrl, parsePostgresBackendUrl, PostgresUrlError, type PostgresBackendUrl } from './postgresUrl';
import { isObjectStorageUrl, parseS3BackendUrl, S3UrlError, type S3BackendUrl } from './s3Url';

/** One remote backend, tagged by its scheme; each variant holds its scheme's parsed URL. */
export type RemoteBackendUrl = { scheme: 's3'; s3: S3BackendUrl } | { scheme: 'gs'; gs: GcsBackendUrl } | { scheme: 'postgres'; postgres: PostgresBackendUrl };

/** The schemes quota-state reads besides `file://`, in the order messages list them. */
export const REMOTE_SCHEMES: ReadonlyArray<RemoteBackendUrl['scheme']> = ['s3', 'gs', 'postgres'];

/** A remote URL that names no backend as Pulumi reads it (a bad parameter, a missing bucket name). */
export class RemoteUrlError extends Error {}

/** The scheme of `url` when it is one of REMOTE_SCHEMES (Go lowercases schemes, so any case), else undefined. */
export function remoteSchemeOf(url: string): RemoteBackendUrl['scheme'] | undefined {
  if (isObjectStorageUrl(url)) return 's3';
  if (/^gs:/i.test(url)) return 'gs';
  if (isPostgresUrl(url)) return 'postgres';
  return undefined;
}

/** `url` read as Pulumi reads its scheme; undefined when it is not a remote scheme; a RemoteUrlError when it is one but invalid. */
export function parseRemoteBackendUrl(url: string, env: Readonly<Record<string, string | undefined>>): RemoteBackendUrl | undefined {
  try {
    switch (remoteSchemeOf(url)) {
      case 's3':
        return { scheme: 's3', s3: parseS3BackendUrl(url, { AWS_REQUEST_CHECKSUM_CALCULATION: env.AWS_REQUEST_CHECKSUM_CALCULATION }) };
      case 'gs':
        return { scheme: 'gs', gs: parseGcsBackendUrl(url, env) };
      case 'postgres':
        return { scheme: 'postgres', postgres: parsePostgresBackendUrl(url, env) };
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof S3UrlError || error instanceof GcsUrlError || error instanceof PostgresUrlError) throw new RemoteUrlError(error.message);
    throw error;
  }
}

/** The backend as messages name it: its URL without credentials. */
export function remoteBackendShown(remote: RemoteBackendUrl): string {
  switch (remote.scheme) {
    case 's3':
      return remote.s3.url;
    case 'gs':
      return remote.gs.shown;
    case 'postgres':
      return remote.postgres.shown;
  }
}
