/** Routes outside the quota feature that a client needs: who am I, which server is this. */
import { answers, operation } from '../openapi';
import type { FastifyInstance } from 'fastify';
import { appUrlOf } from '../urls';
import type { QuotaStore } from '../store';
import { userJson } from '../views';

export const SERVER_VERSION = '0.1.0+quota-api';

export function registerMiscRoutes(api: FastifyInstance, _store: QuotaStore): void {
  api.get('/version', {
    config: { access: 'public' },
    schema: operation({ operationId: 'getVersion', summary: 'Returns the version of the server', tags: ['miscellaneous'], success: answers.ok('ServerVersion'), errors: [] }),
  }, async () => ({ version: SERVER_VERSION }));

  api.get('/user', {
    config: { access: 'user' },
    schema: operation({ operationId: 'userGetCurrent', summary: 'Get the authenticated user', tags: ['user'], success: answers.ok('User'), errors: [401, 403] }),
  }, async (request) => userJson(request.account!, appUrlOf(request)));
}
