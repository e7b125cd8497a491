/**
 * The signed-in user's quota (`/user/quota…`) and an organization's (`/orgs/{org}/quota…`,
 * for its owners and site admins). Same handlers; names of groups and rules are hidden.
 */
import { answers, operation, PAGING_QUERY, SUBJECT_QUERY } from '../openapi';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appUrlOf } from '../urls';
import { requestGeneration, type Access } from '../auth';
import { checkVerdict } from '../store/evaluation';
import type { QuotaStore } from '../store/quotaStore';
import type { Account, Page } from '../store/rows';
import { artifactsOf, attachmentsOf, packagesOf } from '../store/usage';
import { parsePaging, validateCheckSubject } from '../validation';
import { setPageHeaders } from '../pagination';
import { artifactJson, attachmentJson, packageJson, quotaInfo } from '../views';

function sendPage<Row, Json>(request: FastifyRequest, reply: FastifyReply, read: (account: Account, offset: number, limit: number) => Page<Row>, toJson: (row: Row, appUrl: string) => Json): Json[] {
  const paging = parsePaging(request.query as Record<string, unknown>);
  const page = read(request.quotaAccount!, (paging.page - 1) * paging.limit, paging.limit);
  const appUrl = appUrlOf(request);
  setPageHeaders(request, reply, paging, page.total);
  return page.items.map((row) => toJson(row, appUrl));
}

/** Operation ids and wording as in Forgejo's document, for the user's and an org's routes. */
function describe(prefix: string) {
  const org = prefix !== '/user';
  const id = (name: string) => (org ? `org${name}` : `user${name}`);
  const whose = org ? 'the organization' : 'the authenticated user';
  const base = { tags: [org ? 'organization' : 'user'], ...(org ? { params: ['org'] } : {}) };
  // Forgejo resolves the org first (404), and documents 401 only where no org is involved.
  const errors = org ? [401, 403, 404] : [401, 403];
  return {
    info: { ...base, operationId: id('GetQuota'), summary: `Get quota information for ${whose}`, success: answers.ok('QuotaInfo'), errors },
    check: { ...base, operationId: id('CheckQuota'), summary: `Check if ${whose} is over quota for a given subject`, query: SUBJECT_QUERY, success: answers.boolean, errors: [...errors, 422] },
    list: (what: string, definition: string) => ({
      ...base,
      operationId: id(`ListQuota${what}`),
      summary: `List the ${what.toLowerCase()} affecting ${whose}'s quota`,
      query: PAGING_QUERY,
      success: answers.ok(definition),
      errors,
    }),
  };
}

function register(api: FastifyInstance, store: QuotaStore, prefix: string, access: Access): void {
  const config = { access, quota: true } as const;
  const docs = describe(prefix);

  api.get(`${prefix}/quota`, { config, schema: operation(docs.info) }, async (request) => quotaInfo(store, request.quotaAccount!, 'hide-names', requestGeneration(store, request)));

  api.get(`${prefix}/quota/check`, { config, schema: operation(docs.check) }, async (request, reply) => {
    const subject = validateCheckSubject((request.query as Record<string, unknown>).subject);
    const allowed = checkVerdict(store, request.quotaAccount!, subject, requestGeneration(store, request));
    // A bare JSON boolean, as Forgejo answers.
    return reply.type('application/json; charset=utf-8').send(allowed ? 'true' : 'false');
  });

  api.get(`${prefix}/quota/attachments`, { config, schema: operation(docs.list('Attachments', 'QuotaUsedAttachmentList')) }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => attachmentsOf(store, a, o, l), attachmentJson),
  );
  api.get(`${prefix}/quota/packages`, { config, schema: operation(docs.list('Packages', 'QuotaUsedPackageList')) }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => packagesOf(store, a, o, l), packageJson),
  );
  api.get(`${prefix}/quota/artifacts`, { config, schema: operation(docs.list('Artifacts', 'QuotaUsedArtifactList')) }, async (request, reply) =>
    sendPage(request, reply, (a, o, l) => artifactsOf(store, a, o, l), artifactJson),
  );
}

export function registerAccountQuotaRoutes(api: FastifyInstance, store: QuotaStore): void {
  register(api, store, '/user', 'user');
  register(api, store, '/orgs/:org', 'org-owner');
}
