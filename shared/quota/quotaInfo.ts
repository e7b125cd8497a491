/** Conversions between the API's QuotaInfo (`used.size…`, the account's groups) and the engine's leaf usage and model. */
import type { QuotaInfo, QuotaUsed } from '../api/types';
import type { LeafUsage, QuotaModel } from './model';
import { UNLIMITED } from './sizes';

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

/**
 * The API's answer for one account as an engine model: group and rule names are hidden in user
 * views, so they are numbered (group #1, rule #1.2), the names every view of the account shows.
 */
export function modelFromQuotaInfo(account: string, quota: QuotaInfo): QuotaModel {
  const rules: QuotaModel['rules'] = [];
  const groups: QuotaModel['groups'] = [];
  quota.groups.forEach((group, g) => {
    const groupName = group.name ?? `#${g + 1}`;
    const ruleNames: string[] = [];
    group.rules.forEach((rule, r) => {
      // A rule shared by two groups appears in both answers; numbering keeps them apart harmlessly.
      const name = rule.name ?? `#${g + 1}.${r + 1}`;
      if (!rules.some((known) => known.name === name)) rules.push({ name, limit: rule.limit, subjects: rule.subjects ?? [] });
      ruleNames.push(name);
    });
    groups.push({ name: groupName, rules: ruleNames });
  });
  // The account's groups are listed explicitly, so the built-in group is never used here.
  return { enabled: true, defaultGroups: [], defaultTotal: UNLIMITED, rules, groups, assignments: { [account]: groups.map((group) => group.name) } };
}
