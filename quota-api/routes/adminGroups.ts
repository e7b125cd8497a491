/** Groups, group rules and group members under `/admin/quota/groups`, as Forgejo routes them. */
import type { FastifyInstance } from 'fastify';
import type { CreateQuotaGroupOptions } from '../../shared/api/types';
import { appUrlOf } from '../urls';
import { unprocessable } from '../errors';
import type { InlineRule, QuotaStore } from '../store';
import { bodySchemas, validateName, validateSubjects } from '../validation';
import { groupInfo, userJson } from '../views';

const ADMIN = { access: 'admin', quota: true } as const;

type GroupParams = { quotagroup: string };

function inlineRules(rules: CreateQuotaGroupOptions['rules'] | null | undefined): InlineRule[] {
  const result: InlineRule[] = [];
  const seen = new Set<string>();
  (rules ?? []).forEach((rule, index) => {
    const name = validateName('rule', rule.name, `Rules[${index}].Name`);
    // Forgejo answers 500 here; it is bad input, so it is a 422.
    if (seen.has(name)) throw unprocessable(`[Rules[${index}].Name]: rule ${name} is listed more than once`);
    seen.add(name);
    result.push({ name, limit: rule.limit ?? undefined, subjects: validateSubjects(rule.subjects) });
  });
  return result;
}

export function registerAdminGroupRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get('/admin/quota/groups', { config: ADMIN }, async () => store.listGroups().map((group) => groupInfo(group)));

  api.post<{ Body: Partial<CreateQuotaGroupOptions> }>(
    '/admin/quota/groups',
    { config: ADMIN, schema: { body: bodySchemas.createGroup } },
    async (request, reply) => {
      const name = validateName('group', request.body.name);
      const group = store.createGroup(name, inlineRules(request.body.rules));
      return reply.code(201).send(groupInfo(group));
    },
  );

  api.get<{ Params: GroupParams }>('/admin/quota/groups/:quotagroup', { config: ADMIN }, async (request) =>
    groupInfo(store.getGroup(request.params.quotagroup)),
  );

  api.delete<{ Params: GroupParams }>('/admin/quota/groups/:quotagroup', { config: ADMIN }, async (request, reply) => {
    store.deleteGroup(request.params.quotagroup);
    return reply.code(204).send();
  });

  type GroupRuleParams = GroupParams & { quotarule: string };
  api.put<{ Params: GroupRuleParams }>('/admin/quota/groups/:quotagroup/rules/:quotarule', { config: ADMIN }, async (request, reply) => {
    store.addRuleToGroup(request.params.quotagroup, request.params.quotarule);
    return reply.code(204).send();
  });
  api.delete<{ Params: GroupRuleParams }>('/admin/quota/groups/:quotagroup/rules/:quotarule', { config: ADMIN }, async (request, reply) => {
    store.removeRuleFromGroup(request.params.quotagroup, request.params.quotarule);
    return reply.code(204).send();
  });

  api.get<{ Params: GroupParams }>('/admin/quota/groups/:quotagroup/users', { config: ADMIN }, async (request) => {
    const appUrl = appUrlOf(request);
    return store.membersOf(request.params.quotagroup).map((account) => userJson(account, appUrl));
  });

  type GroupUserParams = GroupParams & { username: string };
  api.put<{ Params: GroupUserParams }>('/admin/quota/groups/:quotagroup/users/:username', { config: ADMIN }, async (request, reply) => {
    store.addAccountToGroup(request.params.quotagroup, request.params.username);
    return reply.code(204).send();
  });
  api.delete<{ Params: GroupUserParams }>('/admin/quota/groups/:quotagroup/users/:username', { config: ADMIN }, async (request, reply) => {
    store.removeAccountFromGroup(request.params.quotagroup, request.params.username);
    return reply.code(204).send();
  });
}
