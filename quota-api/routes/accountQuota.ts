/**
 * The signed-in user's quota (`/user/quota…`) and an organization's (`/orgs/{org}/quota…`,
 * for its owners and site admins). Same handlers; names of groups and rules are hidden.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOTAL_COUNT_HEADER } from '../../shared/api/types';
import { checkSubject, QuotaIndex } from '../../shared/quota/evaluate';
import { appUrlOf } from '../urls';
import type { Access } from '../auth';
import type { Account, Page, QuotaStore } from '../store';
import { parsePaging, validateCheckSubject, type Paging } from '../validation';
import { artifactJson, attachmentJson, packageJson, quotaInfo } from '../views';

/** Forgejo's Link header: next, last, first, prev — each only when it applies. */
export function linkHeader(requestUrl: URL, paging: Paging, total: number): string | undefined {
  const lastPage = Math.max(1, Math.ceil(total / paging.limit));
  const at = (page: number, rel: string) => {
    const url = new URL(requestUrl.href);
    url.searchParams.set('page', String(page));
    return `<${url.href}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (paging.page < lastPage) links.push(at(paging.page + 1, 'next'));
  if (paging.page !== lastPage) links.push(at(lastPage, 'last'));
  if (paging.page !== 1) links.push(at(1, 'first'));
  if (paging.page > 1) links.push(at(paging.page - 1, 'prev'));
  return links.length > 0 ? links.join(',') : undefined;
}

function sendPage<Row, Json>(
  request: FastifyRequest,
  reply: FastifyReply,
  read: (account: Account, offset: number, limit: number) => Page<Row>,
  toJson: (row: Row, appUrl: string) => Json,
): Json[] {
  const paging = parsePaging(request.query as Record<string, unknown>);
  const page = read(request.quotaAccount!, (paging.page - 1) * paging.limit, paging.limit);
  const appUrl = appUrlOf(request);
  reply.header(TOTAL_COUNT_HEADER, String(page.total));
  reply.header('access-control-expose-headers', 'X-Total-Count, Link');
  // Only the path and query of the request are kept (even an absolute-form request target
  // cannot choose the host); the public URL may add a prefix, e.g. a proxy's sub-path.
  const seen = new URL(request.url, 'http://request.invalid');
  const link = linkHeader(new URL(`${seen.pathname.replace(/^\/+/, '')}${seen.search}`, appUrl), paging, page.total);
  if (link) reply.header('link', link);
  return page.items.map((row) => toJson(row, appUrl));
}

function register(api: FastifyInstance, store: QuotaStore, prefix: string, access: Access): void {
  const config = { access, quota: true } as const;

  api.get(`${prefix}/quota`, { config }, async (request) => quotaInfo(store, request.quotaAccount!, 'hide-names'));

  api.get(`${prefix}/quota/check`, { config }, async (request, reply) => {
    const subject = validateCheckSubject((request.query as Record<string, unknown>).subject);
    const account = request.quotaAccount!;
    const allowed = checkSubject(new QuotaIndex(store.modelFor(account)), account.name, subject, store.usageOf(account));
    // A bare JSON boolean, as Forgejo answers.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(allowed));
  });

  api.get(`${prefix}/quota/attachments`, { config }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => store.attachmentsOf(a, o, l), attachmentJson),
  );
  api.get(`${prefix}/quota/packages`, { config }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => store.packagesOf(a, o, l), packageJson),
  );
  api.get(`${prefix}/quota/artifacts`, { config }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => store.artifactsOf(a, o, l), artifactJson),
  );
}

export function registerAccountQuotaRoutes(api: FastifyInstance, store: QuotaStore): void {
  register(api, store, '/user', 'user');
  register(api, store, '/orgs/:org', 'org-owner');
}
