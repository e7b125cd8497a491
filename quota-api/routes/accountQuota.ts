/**
 * The signed-in user's quota (`/user/quota…`) and an organization's (`/orgs/{org}/quota…`,
 * for its owners and site admins). Same handlers; names of groups and rules are hidden.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkSubject, QuotaIndex } from '../../shared/quota/evaluate';
import { appUrlOf } from '../urls';
import type { Access } from '../auth';
import type { Account, Page, QuotaStore } from '../store';
import { parsePaging, validateCheckSubject } from '../validation';
import { setPageHeaders } from '../pagination';
import { artifactJson, attachmentJson, packageJson, quotaInfo } from '../views';

function sendPage<Row, Json>(
  request: FastifyRequest,
  reply: FastifyReply,
  read: (account: Account, offset: number, limit: number) => Page<Row>,
  toJson: (row: Row, appUrl: string) => Json,
): Json[] {
  const paging = parsePaging(request.query as Record<string, unknown>);
  const page = read(request.quotaAccount!, (paging.page - 1) * paging.limit, paging.limit);
  const appUrl = appUrlOf(request);
  setPageHeaders(request, reply, paging, page.total);
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
