/**
 * A bucket (`s3://…`) as the backend model's store, in the Node extension host: the CLI's own S3
 * store (dist/cli/s3Store.js, the official AWS SDK), loaded only when a bucket is used, so the
 * extension's start never pays for the SDK. Credentials come from the SDK's chain in the editor's
 * environment (AWS_* variables, ~/.aws files, `profile=`); the extension never writes them.
 * client/web/bucketAccess.ts is the browser's twin: no object storage there.
 */
import { join } from 'node:path';
import { parseS3BackendUrl, StoreConflict, StoreError, type WritableBackendStore } from '../../shared/backend/vocabulary';

/** What dist/cli/s3Store.js exports (cli/s3Store.ts), as far as the editor uses it. */
interface S3StoreModule {
  s3BackendStore(target: ReturnType<typeof parseS3BackendUrl>, options: { timeoutMs: number; errors: { StoreError: typeof StoreError; StoreConflict: typeof StoreConflict } }): WritableBackendStore;
}

const stores = new Map<string, WritableBackendStore>();

/** Whether this host can reach object storage at all (the browser's cannot). */
export const bucketsSupported = true;

/** The store of `url` (`s3://bucket[/prefix]?…`), one per URL; throws S3UrlError naming a bad parameter. */
export function bucketStore(url: string): WritableBackendStore {
  let store = stores.get(url);
  if (!store) {
    const target = parseS3BackendUrl(url, { AWS_REQUEST_CHECKSUM_CALCULATION: process.env.AWS_REQUEST_CHECKSUM_CALCULATION });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time load is the point: the SDK stays out of the extension's start.
    const module = require(join(__dirname, '..', 'cli', 's3Store.js')) as S3StoreModule;
    stores.set(url, (store = module.s3BackendStore(target, { timeoutMs: 30_000, errors: { StoreError, StoreConflict } })));
  }
  return store;
}
