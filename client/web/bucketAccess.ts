/**
 * The browser's twin of client/backends/bucketAccess.ts: a web extension host cannot sign AWS
 * requests with the machine's credentials (it has no environment and no ~/.aws), and a bucket's
 * endpoint rarely allows a browser's cross-origin requests, so object storage stays hidden here.
 */
import type { WritableBackendStore } from '../../shared/backend/vocabulary';

export const bucketsSupported = false;

export function bucketStore(url: string): WritableBackendStore {
  throw new Error(`${url}: object storage backends are read by the desktop editor and the CLI, not in the browser`);
}
