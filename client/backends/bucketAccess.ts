/**
 * A bucket (`s3://…`) as the backend model's store, in the Node extension host: the CLI's own S3
 * store (shared/node/s3Store.ts, the official AWS SDK), required only when a bucket is used, so the
 * extension's start never runs the SDK. Credentials come from the SDK's chain in the editor's
 * environment (AWS_* variables, ~/.aws files, `profile=`); the extension never writes them.
 * client/web/bucketAccess.ts is the browser's twin: no object storage there.
 */
import { parseS3BackendUrl, type WritableBackendStore } from '../../shared/backend/vocabulary';

const stores = new Map<string, WritableBackendStore>();

/** Whether this host can reach object storage at all (the browser's cannot). */
export const bucketsSupported = true;

/** The store of `url` (`s3://bucket[/prefix]?…`), one per URL; throws S3UrlError naming a bad parameter. */
export function bucketStore(url: string): WritableBackendStore {
  let store = stores.get(url);
  if (!store) {
    const target = parseS3BackendUrl(url, { AWS_REQUEST_CHECKSUM_CALCULATION: process.env.AWS_REQUEST_CHECKSUM_CALCULATION });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point: the SDK's modules run only for a bucket.
    const module = require('../../shared/node/s3Store') as typeof import('../../shared/node/s3Store');
    stores.set(url, (store = module.s3BackendStore(target, { timeoutMs: 30_000 })));
  }
  return store;
}
