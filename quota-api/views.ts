/**
 * Conversions from stored records to the API's JSON shapes (shared/api/types.ts).
 * Names of groups and rules are shown in admin views and hidden in user and org views.
 */
import type { QuotaGroup, QuotaInfo, QuotaRuleInfo, QuotaUsedArtifact, QuotaUsedAttachment, QuotaUsedPackage, Repository, User } from '../shared/api/types';
import { createQuotaService, quotaUsedFromLeafUsage, type QuotaRule } from '../shared/quota';
import { modelFor } from './store/evaluation';
import type { QuotaStore } from './store/quotaStore';
import { repoOwner, type Account, type ArtifactRow, type AttachmentRow, type PackageRow, type RepoRow } from './store/rows';
import { usageOf } from './store/usage';

const quota = createQuotaService();

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
export function quotaInfo(store: QuotaStore, account: Account, visibility: NameVisibility, generation: number): QuotaInfo {
  // One generation for both reads (the request's): groups and usage of the same database state.
  const index = quota.engine.index(modelFor(store, account, generation), store.forgejo);
  const groups = index
    .groupListOf(account.name)
    .filter((resolved) => !resolved.builtin)
    .map((resolved) => groupInfo({ name: resolved.group.name, rules: resolved.rules }, visibility));
  return { used: quotaUsedFromLeafUsage(usageOf(store, account, generation)), groups };
}

const seg = encodeURIComponent;

function repoPath(fullName: string): string {
  const owner = repoOwner(fullName);
  const name = fullName.slice(owner.length + 1);
  return `${seg(owner)}/${seg(name)}`;
}

/** Forgejo's zero time: what it sends for a date it does not know. */
const UNKNOWN_TIME = '0001-01-01T00:00:00Z';

export function userJson(account: Account, appUrl: string): User {
  return {
    id: account.id,
    login: account.name,
    login_name: '',
    source_id: 0,
    full_name: account.fullName,
    // Forgejo shows a placeholder address when the real one is hidden or unset.
    email: account.email !== '' ? account.email : `${account.name.toLowerCase()}@noreply.localhost`,
    avatar_url: `${appUrl}avatars/${seg(account.name)}`,
    html_url: `${appUrl}${seg(account.name)}`,
    language: '',
    is_admin: account.isAdmin,
    last_login: UNKNOWN_TIME,
    created: UNKNOWN_TIME,
    restricted: false,
    active: true,
    prohibit_login: false,
    location: '',
    pronouns: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
  };
}

/** Forgejo's Repository shape; `size` is KiB of git plus LFS, as Forgejo's converter reports it. */
export function repositoryJson(row: RepoRow, owner: Account, appUrl: string): Repository {
  const path = `${seg(row.owner)}/${seg(row.name)}`;
  const apiUrl = `${appUrl}api/v1/repos/${path}`;
  const host = new URL(appUrl).host;
  return {
    id: row.id,
    owner: userJson(owner, appUrl),
    name: row.name,
    full_name: `${row.owner}/${row.name}`,
    description: '',
    empty: false,
    private: row.is_private === 1,
    fork: false,
    template: false,
    parent: null,
    mirror: false,
    size: Math.floor((row.git_size + row.lfs_size) / 1024),
    language: '',
    languages_url: `${apiUrl}/languages`,
    html_url: `${appUrl}${path}`,
    url: apiUrl,
    link: '',
    ssh_url: `git@${host}:${path}.git`,
    clone_url: `${appUrl}${path}.git`,
    original_url: '',
    website: '',
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    open_issues_count: 0,
    open_pr_counter: 0,
    release_counter: 0,
    default_branch: 'main',
    archived: false,
    created_at: UNKNOWN_TIME,
    updated_at: UNKNOWN_TIME,
    archived_at: '1970-01-01T00:00:00Z',
    has_issues: true,
    has_wiki: true,
    globally_editable_wiki: false,
    has_pull_requests: true,
    has_projects: true,
    has_releases: true,
    has_packages: true,
    has_actions: true,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    default_update_style: 'merge',
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: UNKNOWN_TIME,
    repo_transfer: null,
    topics: [],
  };
}

/** The attachment's container: its release, else its comment, else its issue. */
export function attachmentJson(row: AttachmentRow, appUrl: string): QuotaUsedAttachment {
  const repo = repoPath(row.repo);
  let container: { api_url: string; html_url: string };
  if (row.release !== null) {
    container = {
      // Forgejo's Release.APIURL names the release by id; its page is named by tag.
      api_url: `${appUrl}api/v1/repos/${repo}/releases/${row.releaseId ?? 0}`,
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
