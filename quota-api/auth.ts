/**
 * Authentication and authorization, with Forgejo's statuses and messages:
 * `Authorization: token <T>` (lower-case `token`) or `Bearer <T>` (any case).
 * A token is resolved on every route, public ones included, before anything else, as Forgejo's
 * API-wide auth middleware does: an unknown token is a 401 whatever the route. Then a route
 * that needs a user and has none → 401 `token is required`; a signed-in user who is not a site
 * admin on `/admin/*` → 403; org routes need an owner of the org or a site admin.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError, messages, orgNotFound } from './errors';
import type { QuotaStore } from './store/quotaStore';
import type { Account } from './store/rows';
import { accountByTokenHash } from './store/tokens';
import { findAccount, isOrgOwner } from './store/users';
import { hashToken } from './tokens';

/** Who may call a route. */
export type Access = 'public' | 'user' | 'admin' | 'org-owner';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (set for every route that is not public). */
    account?: Account;
    /** The account whose quota a user/org route is about: the caller, or the org. */
    quotaAccount?: Account;
    /** The database generation, read once at the request's first cached read: one read serves the whole request. */
    generation?: number;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Route belongs to the quota feature: answers 404 while quota is disabled. */
    quota?: boolean;
  }
}

/** The token in an Authorization header, or undefined when the header carries none. */
function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(token|[Bb][Ee][Aa][Rr][Ee][Rr])\s+(\S+)\s*$/.exec(header.trim());
  return match ? match[2] : undefined;
}

/**
 * The account of the request's token, undefined when it carries none; an unknown token is a
 * 401 with Forgejo's message (its token auth answers `user_model.ErrUserNotExist{}`).
 */
export function authenticate(store: QuotaStore, request: FastifyRequest): Account | undefined {
  const token = tokenFromHeader(request.headers.authorization);
  if (token === undefined) return undefined;
  const account = accountByTokenHash(store, hashToken(token), requestGeneration(store, request));
  if (!account) throw new HttpError(401, messages.unknownToken);
  return account;
}

/** The database generation this request's cached reads follow, read at its first. */
export function requestGeneration(store: QuotaStore, request: FastifyRequest): number {
  request.generation ??= store.generation();
  return request.generation;
}

/**
 * Applies a route's access level to the account `authenticate` found; sets `request.account`
 * and `request.quotaAccount`.
 */
export function authorize(store: QuotaStore, request: FastifyRequest, access: Access, account: Account | undefined): void {
  if (access === 'public') return;
  let org: Account | undefined;
  if (access === 'org-owner') {
    // Forgejo resolves the org before it requires a token: an unknown org is a 404 for anyone.
    const orgName = (request.params as { org?: string }).org ?? '';
    org = findAccount(store, orgName);
    if (!org || org.type !== 'org') throw orgNotFound(orgName);
  }
  if (!account) throw new HttpError(401, messages.tokenRequired);
  request.account = account;
  request.quotaAccount = account;
  if (access === 'admin' && !account.isAdmin) throw new HttpError(403, messages.siteAdminRequired);
  if (org) {
    if (!account.isAdmin && !isOrgOwner(store, org, account)) throw new HttpError(403, messages.orgOwnerRequired);
    request.quotaAccount = org;
  }
}
