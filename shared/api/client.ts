/**
 * The one typed HTTP client of the quota API, speaking Forgejo's routes and JSON shapes,
 * over the global `fetch`. Used by the extension and by tests. Every call honours a timeout and
 * an optional cancellation signal, sends `Authorization: token …`, and turns failures into a
 * `QuotaApiError` whose message a person understands (see errors.ts).
 */
import * as l10n from '@vscode/l10n';
import { QuotaApiError, kindOfStatus, serverMessageOf } from './errors';
import { parseJsonExact, stringifyJsonExact } from './json';
import {
  API_BASE_PATH,
  TOTAL_COUNT_HEADER,
  type CreateQuotaGroupOptions,
  type CreateQuotaRuleOptions,
  type EditQuotaRuleOptions,
  type QuotaGroup,
  type QuotaGroupList,
  type QuotaInfo,
  type QuotaRuleInfo,
  type QuotaUsedArtifact,
  type QuotaUsedAttachment,
  type QuotaUsedPackage,
  type Repository,
  type User,
} from './types';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface QuotaApiClientOptions {
  /** e.g. `https://forge.example/api/v1`; a server root without the base path gets it appended. */
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  /** Injected for tests; defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Cancels the request (e.g. from a VS Code cancellation token). */
  signal?: AbortSignal;
}

/** One page of a usage list. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  /** From `X-Total-Count`. */
  total: number;
  /** True when a later page exists (from `Link: rel="next"`, else from the total). */
  hasMore: boolean;
}

interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Phrase for error messages: `list the quota rules`. */
  action: string;
}

export class QuotaApiClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  private readonly token: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(options: QuotaApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  get signedIn(): boolean {
    return this.token !== undefined && this.token !== '';
  }

  // -- the signed-in user ---------------------------------------------------------------------

  /** `GET /user`: who the token belongs to. */
  currentUser(options?: CallOptions): Promise<User> {
    return this.json({ method: 'GET', path: '/user', action: l10n.t('find out who is signed in') }, options);
  }

  /**
   * `GET /version`: the Forgejo version the server reports (`11.0.3+gitea-1.22.0`). Sent with the
   * token, because a server that requires sign-in answers 403 to anonymous callers.
   */
  async serverVersion(options?: CallOptions): Promise<string> {
    const answer = await this.json<{ version?: unknown }>({ method: 'GET', path: '/version', action: l10n.t('read the server version') }, options);
    if (typeof answer?.version !== 'string') throw this.invalidResponse(l10n.t('read the server version'), this.url('/version'), l10n.t('expected {0}', '{"version": "…"}'));
    return answer.version;
  }

  myQuota(options?: CallOptions): Promise<QuotaInfo> {
    return this.json({ method: 'GET', path: '/user/quota', action: l10n.t('read your quota') }, options);
  }

  /** `GET /user/quota/check`: true when the signed-in user is within quota for the subject. */
  async checkMyQuota(subject: string, options?: CallOptions): Promise<boolean> {
    const answer = await this.json<unknown>({ method: 'GET', path: '/user/quota/check', query: { subject }, action: l10n.t('check your quota for "{0}"', subject) }, options);
    if (typeof answer !== 'boolean') {
      throw this.invalidResponse(l10n.t('check your quota for "{0}"', subject), this.url('/user/quota/check', { subject }), l10n.t('expected true or false'));
    }
    return answer;
  }

  myAttachments(page: number, limit?: number, options?: CallOptions): Promise<Page<QuotaUsedAttachment>> {
    return this.page('/user/quota/attachments', l10n.t('list your attachments'), page, limit, options);
  }

  myPackages(page: number, limit?: number, options?: CallOptions): Promise<Page<QuotaUsedPackage>> {
    return this.page('/user/quota/packages', l10n.t('list your packages'), page, limit, options);
  }

  myArtifacts(page: number, limit?: number, options?: CallOptions): Promise<Page<QuotaUsedArtifact>> {
    return this.page('/user/quota/artifacts', l10n.t('list your artifacts'), page, limit, options);
  }

  /**
   * `GET /user/repos?order_by=…`: the signed-in user's repositories in one of Forgejo's orders
   * (`reversesize` is largest first; Forgejo's `size` is smallest first). Parsed tolerantly: a
   * server may omit any field but `id` and `name`; entries without those are dropped.
   */
  async listMyRepositories(params: { orderBy?: string; page?: number; limit?: number }, options?: CallOptions): Promise<Page<Repository>> {
    const page = params.page ?? 1;
    const result = await this.page<unknown>('/user/repos', l10n.t('list your repositories'), page, params.limit, options, { order_by: params.orderBy });
    return { ...result, items: result.items.map(parseRepository).filter((repo): repo is Repository => repo !== undefined) };
  }

  // -- rules (site administrators) -----------------------------------------------------------

  listRules(options?: CallOptions): Promise<QuotaRuleInfo[]> {
    return this.json({ method: 'GET', path: '/admin/quota/rules', action: l10n.t('list the quota rules') }, options);
  }

  getRule(name: string, options?: CallOptions): Promise<QuotaRuleInfo> {
    return this.json({ method: 'GET', path: `/admin/quota/rules/${segment(name)}`, action: l10n.t('read the rule "{0}"', name) }, options);
  }

  createRule(rule: CreateQuotaRuleOptions, options?: CallOptions): Promise<QuotaRuleInfo> {
    return this.json({ method: 'POST', path: '/admin/quota/rules', body: rule, action: l10n.t('create the rule "{0}"', rule.name) }, options);
  }

  editRule(name: string, change: EditQuotaRuleOptions, options?: CallOptions): Promise<QuotaRuleInfo> {
    return this.json({ method: 'PATCH', path: `/admin/quota/rules/${segment(name)}`, body: change, action: l10n.t('edit the rule "{0}"', name) }, options);
  }

  deleteRule(name: string, options?: CallOptions): Promise<void> {
    return this.empty({ method: 'DELETE', path: `/admin/quota/rules/${segment(name)}`, action: l10n.t('delete the rule "{0}"', name) }, options);
  }

  // -- groups (site administrators) ----------------------------------------------------------

  listGroups(options?: CallOptions): Promise<QuotaGroupList> {
    return this.json({ method: 'GET', path: '/admin/quota/groups', action: l10n.t('list the quota groups') }, options);
  }

  getGroup(name: string, options?: CallOptions): Promise<QuotaGroup> {
    return this.json({ method: 'GET', path: `/admin/quota/groups/${segment(name)}`, action: l10n.t('read the group "{0}"', name) }, options);
  }

  createGroup(group: CreateQuotaGroupOptions, options?: CallOptions): Promise<QuotaGroup> {
    return this.json({ method: 'POST', path: '/admin/quota/groups', body: group, action: l10n.t('create the group "{0}"', group.name) }, options);
  }

  deleteGroup(name: string, options?: CallOptions): Promise<void> {
    return this.empty({ method: 'DELETE', path: `/admin/quota/groups/${segment(name)}`, action: l10n.t('delete the group "{0}"', name) }, options);
  }

  addRuleToGroup(group: string, rule: string, options?: CallOptions): Promise<void> {
    return this.empty(
      {
        method: 'PUT',
        path: `/admin/quota/groups/${segment(group)}/rules/${segment(rule)}`,
        action: l10n.t('add the rule "{0}" to the group "{1}"', rule, group),
      },
      options,
    );
  }

  removeRuleFromGroup(group: string, rule: string, options?: CallOptions): Promise<void> {
    return this.empty(
      {
        method: 'DELETE',
        path: `/admin/quota/groups/${segment(group)}/rules/${segment(rule)}`,
        action: l10n.t('remove the rule "{0}" from the group "{1}"', rule, group),
      },
      options,
    );
  }

  groupUsers(group: string, options?: CallOptions): Promise<User[]> {
    return this.json({ method: 'GET', path: `/admin/quota/groups/${segment(group)}/users`, action: l10n.t('list the members of the group "{0}"', group) }, options);
  }

  addUserToGroup(group: string, user: string, options?: CallOptions): Promise<void> {
    return this.empty(
      {
        method: 'PUT',
        path: `/admin/quota/groups/${segment(group)}/users/${segment(user)}`,
        action: l10n.t('add "{0}" to the group "{1}"', user, group),
      },
      options,
    );
  }

  removeUserFromGroup(group: string, user: string, options?: CallOptions): Promise<void> {
    return this.empty(
      {
        method: 'DELETE',
        path: `/admin/quota/groups/${segment(group)}/users/${segment(user)}`,
        action: l10n.t('remove "{0}" from the group "{1}"', user, group),
      },
      options,
    );
  }

  /** `GET /admin/users/{user}/quota`: an account's usage and groups, with names. */
  userQuota(user: string, options?: CallOptions): Promise<QuotaInfo> {
    return this.json({ method: 'GET', path: `/admin/users/${segment(user)}/quota`, action: l10n.t('read the quota of "{0}"', user) }, options);
  }

  /** Replaces the account's explicit groups (all or nothing). */
  setUserGroups(user: string, groups: string[], options?: CallOptions): Promise<void> {
    return this.empty(
      {
        method: 'POST',
        path: `/admin/users/${segment(user)}/quota/groups`,
        body: { groups },
        action: l10n.t('set the quota groups of "{0}"', user),
      },
      options,
    );
  }

  // -- plumbing ------------------------------------------------------------------------------

  url(path: string, query?: RequestSpec['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async page<T>(path: string, action: string, page: number, limit: number | undefined, options?: CallOptions, extraQuery: RequestSpec['query'] = {}): Promise<Page<T>> {
    const spec: RequestSpec = { method: 'GET', path, query: { ...extraQuery, page, limit }, action };
    const response = await this.send(spec, options);
    const items = await this.parseJson<T[]>(response, spec);
    if (!Array.isArray(items)) throw this.invalidResponse(action, response.url || this.url(path, spec.query), l10n.t('expected a list'));
    const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? items.length);
    const pageSize = limit ?? items.length;
    const link = response.headers.get('link') ?? '';
    const hasMore = link ? /rel="next"/.test(link) : page * pageSize < total;
    return { items, page, limit: pageSize, total, hasMore };
  }

  private async json<T>(spec: RequestSpec, options?: CallOptions): Promise<T> {
    const response = await this.send(spec, options);
    return this.parseJson<T>(response, spec);
  }

  private async empty(spec: RequestSpec, options?: CallOptions): Promise<void> {
    const response = await this.send(spec, options);
    await response.arrayBuffer().catch(() => undefined);
  }

  private async parseJson<T>(response: Response, spec: RequestSpec): Promise<T> {
    const text = await response.text();
    try {
      // Limits are int64: a JSON number beyond 2^53 is kept exact, as a bigint.
      return parseJsonExact(text) as T;
    } catch {
      throw this.invalidResponse(spec.action, this.url(spec.path, spec.query), l10n.t('the body is not JSON'));
    }
  }

  private invalidResponse(action: string, url: string, cause: string): QuotaApiError {
    return new QuotaApiError({ kind: 'invalid-response', action, url, server: this.baseUrl, cause });
  }

  /** Sends the request; resolves only with a 2xx response, otherwise throws a QuotaApiError. */
  private async send(spec: RequestSpec, options?: CallOptions): Promise<Response> {
    const url = this.url(spec.path, spec.query);
    const failure = { action: spec.action, url, server: this.baseUrl };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const outer = options?.signal;
    const onOuterAbort = () => controller.abort();
    if (outer?.aborted) controller.abort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });

    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `token ${this.token}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';

    try {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : stringifyJsonExact(spec.body),
          signal: controller.signal,
        });
      } catch (error) {
        if (timedOut) throw new QuotaApiError({ ...failure, kind: 'timeout', timeoutMs: this.timeoutMs });
        if (controller.signal.aborted) throw new QuotaApiError({ ...failure, kind: 'cancelled' });
        throw new QuotaApiError({ ...failure, kind: 'network', cause: networkCause(error) });
      }
      if (response.ok) return response;
      let bodyText = '';
      try {
        bodyText = await response.text();
      } catch {
        // The status is enough to explain the failure.
      }
      throw new QuotaApiError({
        ...failure,
        kind: kindOfStatus(response.status),
        status: response.status,
        serverMessage: serverMessageOf(bodyText),
      });
    } catch (error) {
      // A timeout or cancellation while the body was being read.
      if (error instanceof QuotaApiError) throw error;
      if (timedOut) throw new QuotaApiError({ ...failure, kind: 'timeout', timeoutMs: this.timeoutMs });
      if (controller.signal.aborted) throw new QuotaApiError({ ...failure, kind: 'cancelled' });
      throw new QuotaApiError({ ...failure, kind: 'network', cause: networkCause(error) });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }
}

/** Trims trailing slashes; appends `/api/v1` to a bare server root (`https://forge.example`). */
export function normaliseBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  const parsed = new URL(trimmed); // throws on a malformed URL; callers validate settings first
  if (parsed.pathname === '' || parsed.pathname === '/') return `${trimmed}${API_BASE_PATH}`;
  return trimmed;
}

function segment(value: string): string {
  return encodeURIComponent(value);
}

/** fetch's TypeError hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
function networkCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as Error & { code?: string }).code;
      return code ? `${code}: ${cause.message}` : cause.message;
    }
    return error.message;
  }
  return String(error);
}

/**
 * A repository as Forgejo sends it, kept only when it has a numeric `id` and a string `name`;
 * every other field falls back to a neutral value when missing or of the wrong type.
 */
function parseRepository(value: unknown): Repository | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.id !== 'number' || typeof raw.name !== 'string') return undefined;
  const owner = typeof raw.owner === 'object' && raw.owner !== null ? (raw.owner as Record<string, unknown>) : undefined;
  const ownerLogin = typeof owner?.login === 'string' ? owner.login : undefined;
  const text = (field: unknown): string | undefined => (typeof field === 'string' ? field : undefined);
  return {
    ...raw,
    id: raw.id,
    name: raw.name,
    owner: ownerLogin !== undefined ? { ...(owner as object), login: ownerLogin } : undefined,
    full_name: text(raw.full_name) ?? (ownerLogin !== undefined ? `${ownerLogin}/${raw.name}` : raw.name),
    description: text(raw.description) ?? '',
    private: typeof raw.private === 'boolean' ? raw.private : false,
    size: typeof raw.size === 'number' && Number.isFinite(raw.size) ? raw.size : 0,
    html_url: text(raw.html_url),
    url: text(raw.url),
  };
}
