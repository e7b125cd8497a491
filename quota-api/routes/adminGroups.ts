/** Groups, group rules and group members under `/admin/quota/groups`, as Forgejo routes them. */
import { answers, operation } from '../openapi';
import type { FastifyInstance } from 'fastify';
import type { CreateQuotaGroupOptions } from '../../shared/api/types';
import { appUrlOf } from '../urls';
import { unprocessable } from '../errors';
import { addRuleToGroup, createGroup, deleteGroup, getGroup, listGroups, removeRuleFromGroup } from '../store/groups';
import type { QuotaStore } from '../store/quotaStore';
import type { InlineRule } from '../store/rows';
import { addAccountToGroup, membersOf, removeAccountFromGroup } from '../store/users';
import { validateName, validateSubjects } from '../validation';
import { groupInfo, userJson } from '../views';

const ADMIN = { access: 'admin', quota: true } as const;
const ADMIN_DOC = { tags: ['admin'] };

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
  registerGroupListRoutes(api, store);
  registerOneGroupRoutes(api, store);
  registerGroupRuleRoutes(api, store);
  registerGroupUserRoutes(api, store);
}

/** `/admin/quota/groups`: list and create. */
function registerGroupListRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get(
    '/admin/quota/groups',
    {
      config: ADMIN,
      schema: operation({ ...ADMIN_DOC, operationId: 'adminListQuotaGroups', summary: 'List the available quota groups', success: answers.ok('QuotaGroupList'), errors: [401, 403] }),
    },
    async () => listGroups(store).map((group) => groupInfo(group)),
  );

  api.post<{ Body: Partial<CreateQuotaGroupOptions> }>(
    '/admin/quota/groups',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminCreateQuotaGroup',
        summary: 'Create a new quota group',
        body: { name: 'group', definition: 'CreateQuotaGroupOptions', description: 'Definition of the quota group' },
        success: answers.created('QuotaGroup'),
        errors: [400, 401, 403, 409, 422],
      }),
    },
    async (request, reply) => {
      const name = validateName('group', request.body.name);
      const group = createGroup(store, name, inlineRules(request.body.rules));
      return reply.code(201).send(groupInfo(group));
    },
  );
}

/** `/admin/quota/groups/{quotagroup}`: get and delete. */
function registerOneGroupRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get<{ Params: GroupParams }>(
    '/admin/quota/groups/:quotagroup',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminGetQuotaGroup',
        summary: 'Get information about the quota group',
        params: ['quotagroup'],
        success: answers.ok('QuotaGroup'),
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) => groupInfo(getGroup(store, request.params.quotagroup)),
  );

  api.delete<{ Params: GroupParams }>(
    '/admin/quota/groups/:quotagroup',
    {
      config: ADMIN,
      schema: operation({ ...ADMIN_DOC, operationId: 'adminDeleteQuotaGroup', summary: 'Delete a quota group', params: ['quotagroup'], success: answers.noContent, errors: [400, 401, 403, 404] }),
    },
    async (request, reply) => {
      deleteGroup(store, request.params.quotagroup);
      return reply.code(204).send();
    },
  );
}

type GroupRuleParams = GroupParams & { quotarule: string };

/** `/admin/quota/groups/{quotagroup}/rules/{quotarule}`: add and remove a rule. */
function registerGroupRuleRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.put<{ Params: GroupRuleParams }>(
    '/admin/quota/groups/:quotagroup/rules/:quotarule',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminAddRuleToQuotaGroup',
        summary: 'Adds a rule to a quota group',
        params: ['quotagroup', 'quotarule'],
        success: answers.noContent,
        errors: [400, 401, 403, 404, 409, 422],
      }),
    },
    async (request, reply) => {
      addRuleToGroup(store, request.params.quotagroup, request.params.quotarule);
      return reply.code(204).send();
    },
  );
  api.delete<{ Params: GroupRuleParams }>(
    '/admin/quota/groups/:quotagroup/rules/:quotarule',
    {
      config: ADMIN,
      // 204, as Forgejo's handler answers; its document says 201.
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminRemoveRuleFromQuotaGroup',
        summary: 'Removes a rule from a quota group',
        params: ['quotagroup', 'quotarule'],
        success: answers.noContent,
        errors: [400, 401, 403, 404],
      }),
    },
    async (request, reply) => {
      removeRuleFromGroup(store, request.params.quotagroup, request.params.quotarule);
      return reply.code(204).send();
    },
  );
}

type GroupUserParams = GroupParams & { username: string };

/** `/admin/quota/groups/{quotagroup}/users[/{username}]`: list, add and remove members. */
function registerGroupUserRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get<{ Params: GroupParams }>(
    '/admin/quota/groups/:quotagroup/users',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminListUsersInQuotaGroup',
        summary: 'List users in a quota group',
        params: ['quotagroup'],
        success: answers.list('User'),
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) => {
      const appUrl = appUrlOf(request);
      return membersOf(store, request.params.quotagroup).map((account) => userJson(account, appUrl));
    },
  );

  api.put<{ Params: GroupUserParams }>(
    '/admin/quota/groups/:quotagroup/users/:username',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminAddUserToQuotaGroup',
        summary: 'Add a user to a quota group',
        params: ['quotagroup', 'username'],
        success: answers.noContent,
        errors: [400, 401, 403, 404, 409, 422],
      }),
    },
    async (request, reply) => {
      addAccountToGroup(store, request.params.quotagroup, request.params.username);
      return reply.code(204).send();
    },
  );
  api.delete<{ Params: GroupUserParams }>(
    '/admin/quota/groups/:quotagroup/users/:username',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminRemoveUserFromQuotaGroup',
        summary: 'Remove a user from a quota group',
        params: ['quotagroup', 'username'],
        success: answers.noContent,
        errors: [400, 401, 403, 404],
      }),
    },
    async (request, reply) => {
      removeAccountFromGroup(store, request.params.quotagroup, request.params.username);
      return reply.code(204).send();
    },
  );
}
