/** Conversions between the API's QuotaInfo usage (`used.size…`) and the engine's leaf usage. */
import type { QuotaUsed } from '../api/types';
import type { LeafUsage } from './model';

/** Tolerates partial bodies from other servers: a missing figure counts as 0. */
export function leafUsageFromQuotaUsed(used: QuotaUsed | undefined): LeafUsage {
  const size = used?.size;
  // Usage beyond 2^53 arrives as a bigint from the lossless JSON reader.
  const n = (value: unknown): number | bigint => ((typeof value === 'number' && Number.isFinite(value) && value > 0) || (typeof value === 'bigint' && value > 0n) ? (value as number | bigint) : 0);
  return {
    'size:repos:public': n(size?.repos?.public),
    'size:repos:private': n(size?.repos?.private),
    'size:git:lfs': n(size?.git?.LFS),
    'size:assets:attachments:issues': n(size?.assets?.attachments?.issues),
    'size:assets:attachments:releases': n(size?.assets?.attachments?.releases),
    'size:assets:artifacts': n(size?.assets?.artifacts),
    'size:assets:packages:all': n(size?.assets?.packages?.all),
  };
}

export function quotaUsedFromLeafUsage(usage: LeafUsage): QuotaUsed {
  return {
    size: {
      repos: { public: usage['size:repos:public'], private: usage['size:repos:private'] },
      git: { LFS: usage['size:git:lfs'] },
      assets: {
        attachments: { issues: usage['size:assets:attachments:issues'], releases: usage['size:assets:attachments:releases'] },
        artifacts: usage['size:assets:artifacts'],
        packages: { all: usage['size:assets:packages:all'] },
      },
    },
  };
}
