/**
 * JSON shapes of the quota API, as Forgejo's swagger names them.
 * Field names are exactly Forgejo's (note the upper-case `LFS`); every size and limit is
 * a whole number of bytes. Shared by the reference server (`quota-api/`) and the HTTP client.
 *
 * Limits are Forgejo's int64: up to 9,223,372,036,854,775,807, beyond what a JavaScript number
 * holds exactly (2^53). Both ends read and write JSON losslessly (`lossless-json`), so a limit
 * is a `Bytes`: a number while it is exact, a bigint above 2^53.
 */

/** A whole number of bytes: a number up to 2^53, a bigint beyond (int64 in Forgejo). */
export type Bytes = number | bigint;

/** Base path of every endpoint. */
export const API_BASE_PATH = '/api/v1';

/** Pagination of the attachment, package and artifact lists. */
export const DEFAULT_PAGE_LIMIT = 30;
export const MAX_PAGE_LIMIT = 50;
/** Response header carrying the number of matching rows of a list. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

// ---------------------------------------------------------------------------------------------
// Usage

interface QuotaUsedSizeRepos {
  public: Bytes;
  private: Bytes;
}

interface QuotaUsedSizeGit {
  /** Upper-case, as Forgejo spells it. */
  LFS: Bytes;
}

interface QuotaUsedSizeAssetsAttachments {
  issues: Bytes;
  releases: Bytes;
}

interface QuotaUsedSizeAssetsPackages {
  all: Bytes;
}

interface QuotaUsedSizeAssets {
  attachments: QuotaUsedSizeAssetsAttachments;
  artifacts: Bytes;
  packages: QuotaUsedSizeAssetsPackages;
}

interface QuotaUsedSize {
  repos: QuotaUsedSizeRepos;
  git: QuotaUsedSizeGit;
  assets: QuotaUsedSizeAssets;
}

export interface QuotaUsed {
  size: QuotaUsedSize;
}

// ---------------------------------------------------------------------------------------------
// Rules and groups

/**
 * A rule as the API returns it. `name` is omitted in user and org views (shown to admins);
 * `subjects` is omitted when the rule has none; `limit` is always present (-1 = unlimited).
 * Subjects are returned exactly as they were stored (seed aliases such as `sizelfs` included).
 */
export interface QuotaRuleInfo {
  name?: string;
  limit: Bytes;
  subjects?: string[];
}

/** A group; `name` is omitted in user and org views; `rules` is `[]` for an empty group. */
export interface QuotaGroup {
  name?: string;
  rules: QuotaRuleInfo[];
}

export type QuotaGroupList = QuotaGroup[];

/** `GET /user/quota`, `GET /orgs/{org}/quota`, `GET /admin/users/{user}/quota`. */
export interface QuotaInfo {
  used: QuotaUsed;
  /** The groups that apply to the account (explicit, else the default groups); `[]` when none. */
  groups: QuotaGroupList;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

/** `POST /admin/quota/rules`. `limit` is required (absent or null → 422). */
export interface CreateQuotaRuleOptions {
  name: string;
  limit: Bytes | null;
  subjects?: string[];
}

/** `PATCH /admin/quota/rules/{quotarule}`: each present field is updated; `subjects: []` clears them. */
export interface EditQuotaRuleOptions {
  limit?: Bytes;
  subjects?: string[];
}

/**
 * `POST /admin/quota/groups`. An inline rule whose name exists is attached unchanged;
 * otherwise it is created (limit 0 when absent) and attached, all in one transaction.
 */
export interface CreateQuotaGroupOptions {
  name: string;
  rules?: Array<Omit<CreateQuotaRuleOptions, 'limit'> & { limit?: Bytes | null }>;
}

/** `POST /admin/users/{user}/quota/groups`: replaces the user's explicit groups (all or nothing). */
export interface SetUserQuotaGroupsOptions {
  groups: string[];
}

// ---------------------------------------------------------------------------------------------
// Usage lists (`GET /user/quota/attachments|packages|artifacts?page&limit`)

interface QuotaUsedAttachmentContainer {
  api_url: string;
  html_url: string;
}

export interface QuotaUsedAttachment {
  name: string;
  size: number;
  /** The container's API URL + `/assets/<attachment id>`. */
  api_url: string;
  /** The release, else the comment, else the issue the attachment belongs to. */
  contained_in: QuotaUsedAttachmentContainer;
}

export interface QuotaUsedPackage {
  name: string;
  type: string;
  version: string;
  size: number;
  html_url: string;
}

export interface QuotaUsedArtifact {
  name: string;
  /** Compressed size. */
  size: number;
  /** URL of the Actions run. */
  html_url: string;
}

// ---------------------------------------------------------------------------------------------
// Accounts and errors

/**
 * Forgejo's user object (`modules/structs/user.go`): every field Forgejo always sends. A client
 * must not rely on the fields a server may omit, so parsers treat all but `id` and `login` as optional.
 */
export interface User {
  id: number;
  login: string;
  login_name: string;
  source_id: number;
  full_name: string;
  email: string;
  avatar_url: string;
  html_url: string;
  language: string;
  is_admin: boolean;
  last_login: string;
  created: string;
  restricted: boolean;
  active: boolean;
  prohibit_login: boolean;
  location: string;
  pronouns: string;
  website: string;
  description: string;
  visibility: string;
  followers_count: number;
  following_count: number;
  starred_repos_count: number;
}

/**
 * Forgejo's repository object (`modules/structs/repo.go`), the fields this project reads.
 * `size` is in KiB (Forgejo reports the repository's git plus LFS bytes divided by 1024).
 */
export interface Repository {
  id: number;
  owner?: Partial<User>;
  name: string;
  full_name: string;
  description?: string;
  private?: boolean;
  /** KiB, not bytes. */
  size: number;
  html_url?: string;
  url?: string;
  [field: string]: unknown;
}

/**
 * Every error response: `{"message", "url"}` with Forgejo's messages, e.g.
 * `rule already exists: [name: X]`, `unrecognized quota limit subject: [subject: X]`.
 * 404 bodies also carry `errors`.
 */
export interface APIError {
  message: string;
  url: string;
  errors?: string[];
}

/** Type guard for error bodies (the client uses it on non-2xx answers). */
export function isAPIError(value: unknown): value is APIError {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string' && typeof (value as { url?: unknown }).url === 'string';
}
