/**
 * Authentication and authorization, with Forgejo's statuses and messages:
 * `Authorization: token <T>` (lower-case `token`) or `Bearer <T>` (any case).
 * No credentials → 401 `token is required`; an unknown token → 401; a signed-in user who is
 * not a site admin on `/admin/*` → 403; org routes need an owner of the org or a site admin.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError, messages, notFound } from './errors';
import type { Account, QuotaStore } from './store';
import { hashToken } from './tokens';

/** Who may call a route. */
export type Access = 'public' | 'user' | 'admin' | 'org-owner';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (set for every route that is not public). */
    account?: Account;
    /** The account whose quota a user/org route is about: the caller, or the org. */
    quotaAccount?: Account;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Route belongs to the quota feature: answers 404 while quota is disabled. */
    quota?: boolean;
  }
}

/** The token in an Authorization header, or undefined when the header carries none. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(token|[Bb][Ee][Aa][Rr][Ee][Rr])\s+(\S+)\s*$/.exec(header.trim());
  return match ? match[2] : undefined;
}

export function authenticate(store: QuotaStore, request: FastifyRequest): Account {
  const token = tokenFromHeader(request.headers.authorization);
  if (token === undefined) throw new HttpError(401, messages.tokenRequired);
  const account = store.accountByTokenHash(hashToken(token));
  if (!account) throw new HttpError(401, messages.invalidToken);
  return account;
}

/** Applies a route's access level; sets `request.account` and `request.quotaAccount`. */
export function authorize(store: QuotaStore, request: FastifyRequest, access: Access): void {
  if (access === 'public') return;
  let org: Account | undefined;
  if (access === 'org-owner') {
    // Forgejo resolves the org before it looks at the token: an unknown org is a 404 for anyone.
    const orgName = (request.params as { org?: string }).org ?? '';
    org = store.findAccount(orgName);
    if (!org || org.type !== 'org') throw notFound(messages.orgNotFound(orgName));
  }
  const account = authenticate(store, request);
  request.account = account;
  request.quotaAccount = account;
  if (access === 'admin' && !account.isAdmin) throw new HttpError(403, messages.siteAdminRequired);
  if (org) {
    if (!account.isAdmin && !store.isOrgOwner(org, account)) throw new HttpError(403, messages.orgOwnerRequired);
    request.quotaAccount = org;
  }
}
