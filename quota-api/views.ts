/**
 * Conversions from stored records to the API's JSON shapes (shared/api/types.ts).
 * Names of groups and rules are shown in admin views and hidden in user and org views.
 */
import type {
  QuotaGroup,
  QuotaInfo,
  QuotaRuleInfo,
  QuotaUsed,
  QuotaUsedArtifact,
  QuotaUsedAttachment,
  QuotaUsedPackage,
  User,
} from '../shared/api/types';
import type { LeafUsage, QuotaRule } from '../shared/quota/model';
import { QuotaIndex } from '../shared/quota/evaluate';
import type { Account, ArtifactRow, AttachmentRow, PackageRow, QuotaStore } from './store';
import { repoOwner } from './store';
import { quotaUsedFromLeafUsage } from '../shared/quota/quotaInfo';

export type NameVisibility = 'show-names' | 'hide-names';

export function ruleInfo(rule: QuotaRule, visibility: NameVisibility = 'show-names'): QuotaRuleInfo {
  const info: QuotaRuleInfo = visibility === 'show-names' ? { name: rule.name, limit: rule.limit } : { limit: rule.limit };
  if (rule.subjects.length > 0) info.subjects = [...rule.subjects];
  return info;
}

export function groupInfo(group: { name: string; rules: QuotaRule[] }, visibility: NameVisibility = 'show-names'): QuotaGroup {
  const rules = group.rules.map((rule) => ruleInfo(rule, visibility));
  return visibility === 'show-names' ? { name: group.name, rules } : { rules };
}


/**
 * QuotaInfo of an account: its usage and the groups that apply to it (explicit, else the
 * default groups that exist). The built-in TOTAL group is used by evaluation but never listed.
 */
export function quotaInfo(store: QuotaStore, account: Account, visibility: NameVisibility): QuotaInfo {
  const index = new QuotaIndex(store.modelFor(account));
  const groups = index
    .groupListOf(account.name)
    .filter((resolved) => !resolved.builtin)
    .map((resolved) => groupInfo({ name: resolved.group.name, rules: resolved.rules }, visibility));
  return { used: quotaUsedFromLeafUsage(store.usageOf(account)), groups };
}

const seg = encodeURIComponent;

function repoPath(fullName: string): string {
  const owner = repoOwner(fullName);
  const name = fullName.slice(owner.length + 1);
  return `${seg(owner)}/${seg(name)}`;
}

export function userJson(account: Account, appUrl: string): User {
  return {
    id: account.id,
    login: account.name,
    username: account.name,
    login_name: '',
    full_name: account.fullName,
    email: account.email,
    is_admin: account.isAdmin,
    avatar_url: `${appUrl}avatars/${seg(account.name)}`,
    html_url: `${appUrl}${seg(account.name)}`,
  };
}

/** The attachment's container: its release, else its comment, else its issue. */
export function attachmentJson(row: AttachmentRow, appUrl: string): QuotaUsedAttachment {
  const repo = repoPath(row.repo);
  let container: { api_url: string; html_url: string };
  if (row.release !== null) {
    container = {
      api_url: `${appUrl}api/v1/repos/${repo}/releases/tags/${seg(row.release)}`,
      html_url: `${appUrl}${repo}/releases/tag/${seg(row.release)}`,
    };
  } else if (row.comment !== null) {
    container = {
      api_url: `${appUrl}api/v1/repos/${repo}/issues/comments/${row.comment}`,
      html_url: `${appUrl}${repo}/issues/${row.issue ?? 0}#issuecomment-${row.comment}`,
    };
  } else {
    container = {
      api_url: `${appUrl}api/v1/repos/${repo}/issues/${row.issue ?? 0}`,
      html_url: `${appUrl}${repo}/issues/${row.issue ?? 0}`,
    };
  }
  return { name: row.name, size: row.size, api_url: `${container.api_url}/assets/${row.id}`, contained_in: container };
}

export function packageJson(row: PackageRow, appUrl: string): QuotaUsedPackage {
  return {
    name: row.name,
    type: row.type,
    version: row.version,
    size: row.size,
    html_url: `${appUrl}${seg(row.owner)}/-/packages/${seg(row.type)}/${seg(row.name)}/${seg(row.version)}`,
  };
}

export function artifactJson(row: ArtifactRow, appUrl: string): QuotaUsedArtifact {
  return { name: row.name, size: row.size, html_url: `${appUrl}${repoPath(row.repo)}/actions/runs/${row.runId}` };
}
