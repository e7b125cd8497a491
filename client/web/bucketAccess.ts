/**
 * The browser's twin of client/backends/bucketAccess.ts: a web extension host cannot sign requests
 * with the machine's credentials (it has no environment, no ~/.aws, no Azure or Google credential
 * chain), cannot open a PostgreSQL connection, and a bucket's endpoint rarely allows a browser's
 * cross-origin requests, so remote backends stay hidden here and say why when named.
 */
import type { WritableBackendStore } from '../../shared/backend/vocabulary';

export const bucketsSupported = false;

export function bucketStore(url: string): WritableBackendStore {
  throw new Error(
    `${url}: remote backends (s3://, azblob://, gs://, postgres://) are read by the desktop editor and the CLI, not in the browser: it has no credential chain and no database connection`,
  );
}

export const passwordOf = (): undefined => undefined;
export const withoutPassword = (authority: string): string => authority;
export function rememberPassword(): void {}
