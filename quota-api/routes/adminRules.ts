/** `/admin/quota/rules[/{quotarule}]` (seed: administrative rule endpoints). */
import { answers, operation } from '../openapi';
import type { FastifyInstance } from 'fastify';
import type { CreateQuotaRuleOptions, EditQuotaRuleOptions } from '../../shared/api/types';
import { messages, unprocessable } from '../errors';
import type { QuotaStore } from '../store/quotaStore';
import { createRule, deleteRule, editRule, getRule, listRules } from '../store/rules';
import { validateName, validateSubjects } from '../validation';
import { ruleInfo } from '../views';

const ADMIN = { access: 'admin', quota: true } as const;
const ADMIN_DOC = { tags: ['admin'] };

type RuleParams = { quotarule: string };

export function registerAdminRuleRoutes(api: FastifyInstance, store: QuotaStore): void {
  registerRuleListRoutes(api, store);
  registerOneRuleRoutes(api, store);
}

/** `/admin/quota/rules`: list and create. */
function registerRuleListRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get(
    '/admin/quota/rules',
    {
      config: ADMIN,
      schema: operation({ ...ADMIN_DOC, operationId: 'adminListQuotaRules', summary: 'List the available quota rules', success: answers.list('QuotaRuleInfo'), errors: [401, 403] }),
    },
    async () => listRules(store).map((rule) => ruleInfo(rule)),
  );

  api.post<{ Body: Partial<CreateQuotaRuleOptions> }>(
    '/admin/quota/rules',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminCreateQuotaRule',
        summary: 'Create a new quota rule',
        body: { name: 'rule', definition: 'CreateQuotaRuleOptions', description: 'Definition of the quota rule' },
        success: answers.created('QuotaRuleInfo'),
        errors: [400, 401, 403, 409, 422],
      }),
    },
    async (request, reply) => {
      const body = request.body;
      const name = validateName('rule', body.name);
      if (body.limit === undefined || body.limit === null) throw unprocessable(messages.required('Limit'));
      const subjects = validateSubjects(body.subjects);
      const rule = createRule(store, { name, limit: body.limit, subjects });
      return reply.code(201).send(ruleInfo(rule));
    },
  );
}

/** `/admin/quota/rules/{quotarule}`: get, edit and delete. */
function registerOneRuleRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get<{ Params: RuleParams }>(
    '/admin/quota/rules/:quotarule',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminGetQuotaRule',
        summary: 'Get information about a quota rule',
        params: ['quotarule'],
        success: answers.ok('QuotaRuleInfo'),
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) => ruleInfo(getRule(store, request.params.quotarule)),
  );

  api.patch<{ Params: RuleParams; Body: { limit?: number | null; subjects?: string[] | null } }>(
    '/admin/quota/rules/:quotarule',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminEditQuotaRule',
        summary: 'Change an existing quota rule',
        params: ['quotarule'],
        body: { name: 'rule', definition: 'EditQuotaRuleOptions', description: 'Quota rule to change' },
        success: answers.ok('QuotaRuleInfo'),
        errors: [400, 401, 403, 404, 422],
      }),
    },
    async (request) => {
      const name = request.params.quotarule;
      getRule(store, name); // 404 before 422, as Forgejo's rule middleware runs first
      const changes: EditQuotaRuleOptions = {};
      if (request.body.limit !== undefined && request.body.limit !== null) changes.limit = request.body.limit;
      if (request.body.subjects !== undefined && request.body.subjects !== null) {
        changes.subjects = validateSubjects(request.body.subjects);
      }
      return ruleInfo(editRule(store, name, changes));
    },
  );

  api.delete<{ Params: RuleParams }>(
    '/admin/quota/rules/:quotarule',
    {
      config: ADMIN,
      schema: operation({ ...ADMIN_DOC, operationId: 'adminDeleteQuotaRule', summary: 'Deletes a quota rule', params: ['quotarule'], success: answers.noContent, errors: [400, 401, 403, 404] }),
    },
    async (request, reply) => {
      deleteRule(store, request.params.quotarule);
      return reply.code(204).send();
    },
  );
}
