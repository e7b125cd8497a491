/** `/admin/users/{username}/quota[/groups]`: an account's quota with names, and its explicit groups. */
import { requestGeneration } from '../auth';
import { answers, operation } from '../openapi';
import type { FastifyInstance } from 'fastify';
import type { SetUserQuotaGroupsOptions } from '../../shared/api/types';
import { userNotFound } from '../errors';
import type { QuotaStore } from '../store/quotaStore';
import { findAccount, setAccountGroups } from '../store/users';
import { quotaInfo } from '../views';

const ADMIN = { access: 'admin', quota: true } as const;
const ADMIN_DOC = { tags: ['admin'] };

type UserParams = { username: string };

export function registerAdminUserRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get<{ Params: UserParams }>(
    '/admin/users/:username/quota',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminGetUserQuota',
        summary: "Get the user's quota info",
        params: ['username'],
        success: answers.ok('QuotaInfo'),
        errors: [400, 401, 403, 404, 422],
      }),
    },
    async (request) => {
      const account = findAccount(store, request.params.username);
      if (!account) throw userNotFound(request.params.username);
      return quotaInfo(store, account, 'show-names', requestGeneration(store, request));
    },
  );

  api.post<{ Params: UserParams; Body: Partial<SetUserQuotaGroupsOptions> }>(
    '/admin/users/:username/quota/groups',
    {
      config: ADMIN,
      schema: operation({
        ...ADMIN_DOC,
        operationId: 'adminSetUserQuotaGroups',
        summary: "Set the user's quota groups to a given list.",
        params: ['username'],
        body: { name: 'groups', definition: 'SetUserQuotaGroupsOptions', description: 'quota group to remove a user from' },
        success: answers.noContent,
        errors: [400, 401, 403, 404, 422],
      }),
    },
    async (request, reply) => {
      const { username } = request.params;
      const groups = request.body.groups;
      if (groups === undefined || groups === null) {
        // Forgejo: no `groups` field changes nothing (but the user must exist).
        if (!findAccount(store, username)) throw userNotFound(username);
      } else {
        setAccountGroups(store, username, groups);
      }
      return reply.code(204).send();
    },
  );
}
