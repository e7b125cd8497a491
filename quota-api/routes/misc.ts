/** Routes outside the quota feature that a client needs: who am I, which server is this. */
import type { FastifyInstance } from 'fastify';
import { appUrlOf } from '../urls';
import type { QuotaStore } from '../store';
import { userJson } from '../views';

export const SERVER_VERSION = '0.1.0+quota-api';

export function registerMiscRoutes(api: FastifyInstance, _store: QuotaStore): void {
  api.get('/version', { config: { access: 'public' } }, async () => ({ version: SERVER_VERSION }));

  api.get('/user', { config: { access: 'user' } }, async (request) => userJson(request.account!, appUrlOf(request)));
}
