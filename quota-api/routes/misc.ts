/** Routes outside the quota feature that a client needs: who am I, which server is this. */
import { answers, operation } from '../openapi';
import type { FastifyInstance } from 'fastify';
import { appUrlOf } from '../urls';
import type { QuotaStore } from '../store/quotaStore';
import { userJson } from '../views';
import { reportedVersion } from '../../shared/quota';

/** The reference server's own version (the swagger document's `info.version`). */
export const SERVER_VERSION = '0.1.0+quota-api';

/**
 * `GET /version`: the Forgejo version the server emulates, as Forgejo reports it
 * (`15.0.9+gitea-1.22.0`), so clients pick the quota rules that version follows.
 */
export function registerMiscRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get(
    '/version',
    {
      config: { access: 'public' },
      schema: operation({ operationId: 'getVersion', summary: 'Returns the version of the server', tags: ['miscellaneous'], success: answers.ok('ServerVersion'), errors: [] }),
    },
    async () => ({ version: reportedVersion(store.forgejo) }),
  );

  api.get(
    '/user',
    {
      config: { access: 'user' },
      schema: operation({ operationId: 'userGetCurrent', summary: 'Get the authenticated user', tags: ['user'], success: answers.ok('User'), errors: [401, 403] }),
    },
    async (request) => userJson(request.account!, appUrlOf(request)),
  );
}

/** `GET /api/forgejo/v1/version`: Forgejo's own version route, which reports the same string since 7.0. */
export function registerForgejoVersionRoute(app: FastifyInstance, store: QuotaStore): void {
  app.get('/api/forgejo/v1/version', { schema: { hide: true }, config: { access: 'public' } }, async () => ({ version: reportedVersion(store.forgejo) }));
}
