/**
 * `GET /user/repos?order_by=…` and `GET /repos/search?sort=…&order=…`: repositories in
 * Forgejo's orders (models/repo/search.go), including the size orders the quota view uses.
 */
import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../errors';
import { setPageHeaders } from '../pagination';
import { REPOSITORY_ORDER_SQL, type QuotaStore } from '../store';
import { appUrlOf } from '../urls';
import { firstValue, parsePaging } from '../validation';
import { repositoryJson } from '../views';

/** `sort` × `order` of /repos/search (Forgejo's OrderByMap). */
const SEARCH_ORDER_SQL: Record<string, Record<string, string>> = {
  asc: { alpha: 'owner ASC, name ASC', created: 'id ASC', updated: 'id ASC', size: '(git_size + lfs_size) ASC', git_size: 'git_size ASC', lfs_size: 'lfs_size ASC', id: 'id ASC', stars: 'id ASC', forks: 'id ASC' },
  desc: { alpha: 'owner DESC, name DESC', created: 'id DESC', updated: 'id DESC', size: '(git_size + lfs_size) DESC', git_size: 'git_size DESC', lfs_size: 'lfs_size DESC', id: 'id DESC', stars: 'id DESC', forks: 'id DESC' },
};

export function registerRepoRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get('/user/repos', { config: { access: 'user' } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const orderBy = (firstValue(query.order_by) ?? '').trim();
    let orderSql = 'name ASC';
    if (orderBy !== '') {
      if (!Object.prototype.hasOwnProperty.call(REPOSITORY_ORDER_SQL, orderBy)) throw unprocessable('invalid order_by');
      orderSql = REPOSITORY_ORDER_SQL[orderBy];
    }
    const paging = parsePaging(query);
    const viewer = request.account!;
    const page = store.repositories(viewer, { ownedBy: viewer, orderSql, offset: (paging.page - 1) * paging.limit, limit: paging.limit });
    setPageHeaders(request, reply, paging, page.total);
    const appUrl = appUrlOf(request);
    return page.items.map((row) => repositoryJson(row, viewer, appUrl));
  });

  api.get('/repos/search', { config: { access: 'user' } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    let orderSql = 'name ASC';
    const sort = firstValue(query.sort) ?? '';
    if (sort !== '') {
      const order = firstValue(query.order) || 'asc';
      const byOrder = Object.prototype.hasOwnProperty.call(SEARCH_ORDER_SQL, order) ? SEARCH_ORDER_SQL[order] : undefined;
      if (!byOrder) throw unprocessable(`Invalid sort order: "${order}"`);
      if (!Object.prototype.hasOwnProperty.call(byOrder, sort)) throw unprocessable(`Invalid sort mode: "${sort}"`);
      orderSql = byOrder[sort];
    }
    const paging = parsePaging(query);
    const viewer = request.account!;
    const page = store.repositories(viewer, { orderSql, offset: (paging.page - 1) * paging.limit, limit: paging.limit });
    setPageHeaders(request, reply, paging, page.total);
    const appUrl = appUrlOf(request);
    const data = page.items.map((row) => repositoryJson(row, store.findAccount(row.owner) ?? viewer, appUrl));
    return { ok: true, data };
  });
}
