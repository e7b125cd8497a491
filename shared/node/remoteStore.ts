/**
 * The store of a remote backend (shared/backend/remoteUrl.ts), for the programs that run on Node (the
 * CLI, the extension host). Each scheme's store is a bundle of its own with its SDK (esbuild.mjs's
 * LAZY_BUNDLES): it is required here, at the moment a backend of that scheme is opened, so no start
 * parses an SDK it does not use.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a lazy load is the point: an SDK's modules run only for its scheme. */
import type { RemoteBackendUrl, WritableBackendStore } from '../backend/vocabulary';

export interface RemoteStoreOptions {
  /** How long one request may take: a stalled server ends in an error naming it, not a hang. */
  timeoutMs: number;
}

export type RemoteStore = WritableBackendStore & { destroy(): void };

export function openRemoteStore(remote: RemoteBackendUrl, options: RemoteStoreOptions): RemoteStore {
  switch (remote.scheme) {
    case 's3':
      return (require('./s3Store') as typeof import('./s3Store')).s3BackendStore(remote.s3, options);
    case 'gs':
      return (require('./gcsStore') as typeof import('./gcsStore')).gcsBackendStore(remote.gs, options);
    case 'postgres':
      return (require('./postgresStore') as typeof import('./postgresStore')).postgresBackendStore(remote.postgres, options);
  }
}

/**
 * How long one request to a remote backend may take: `QUOTA_STATE_REMOTE_TIMEOUT_SECONDS` (or its
 * older name `QUOTA_STATE_S3_TIMEOUT_SECONDS`), else 30 s.
 */
export function remoteTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const seconds = Number(env.QUOTA_STATE_REMOTE_TIMEOUT_SECONDS ?? env.QUOTA_STATE_S3_TIMEOUT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
}
