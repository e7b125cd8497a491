/**
 * `GET /user/repos?order_by=…` and `GET /repos/search?sort=…&order=…`: repositories in
 * Forgejo's orders (models/repo/search.go), including the size orders the quota view uses.
 */
import { answers, operation, PAGING_QUERY } from '../openapi';
import type { FastifyInstance } from 'fastify';
import { unprocessable } from '../errors';
import { setPageHeaders } from '../pagination';
import type { QuotaStore } from '../store/quotaStore';
import { repositories, REPOSITORY_ORDER_SQL } from '../store/repositories';
import { findAccount } from '../store/users';
import { appUrlOf } from '../urls';
import { firstValue, parsePaging } from '../validation';
import { repositoryJson } from '../views';

/** `sort` × `order` of /repos/search (Forgejo's OrderByMap). */
const SEARCH_ORDER_SQL: Record<string, Record<string, string>> = {
  asc: {
    alpha: 'owner ASC, name ASC',
    created: 'id ASC',
    updated: 'id ASC',
    size: '(git_size + lfs_size) ASC',
    git_size: 'git_size ASC',
    lfs_size: 'lfs_size ASC',
    id: 'id ASC',
    stars: 'id ASC',
    forks: 'id ASC',
  },
  desc: {
    alpha: 'owner DESC, name DESC',
    created: 'id DESC',
    updated: 'id DESC',
    size: '(git_size + lfs_size) DESC',
    git_size: 'git_size DESC',
    lfs_size: 'lfs_size DESC',
    id: 'id DESC',
    stars: 'id DESC',
    forks: 'id DESC',
  },
};

/**
 * The query of /repos/search as Forgejo documents it. Of these the server reads sort, order and
 * the paging; the filters are accepted and, on a server without search, change nothing.
 */
const SEARCH_QUERY = {
  q: { type: 'string', description: 'keyword' },
  topic: { type: 'boolean', description: 'Limit search to repositories with keyword as topic' },
  includeDesc: { type: 'boolean', description: 'include search of keyword within repository description' },
  uid: { type: 'integer', format: 'int64', description: 'search only for repos that the user with the given id owns or contributes to' },
  priority_owner_id: { type: 'integer', format: 'int64', description: 'repo owner to prioritize in the results' },
  team_id: { type: 'integer', format: 'int64', description: 'search only for repos that belong to the given team id' },
  starredBy: { type: 'integer', format: 'int64', description: 'search only for repos that the user with the given id has starred' },
  private: { type: 'boolean', description: 'include private repositories this user has access to (defaults to true)' },
  is_private: { type: 'boolean', description: 'show only public, private or all repositories (defaults to all)' },
  template: { type: 'boolean', description: 'include template repositories this user has access to (defaults to true)' },
  archived: { type: 'boolean', description: 'show only archived, non-archived or all repositories (defaults to all)' },
  mode: { type: 'string', description: 'type of repository to search for. Supported values are "fork", "source", "mirror" and "collaborative"' },
  exclusive: { type: 'boolean', description: 'if `uid` is given, search only for repos that the user owns' },
  sort: { type: 'string', description: 'sort repos by attribute. Supported values are "alpha", "created", "updated", "size", "git_size", "lfs_size", "id", "stars" and "forks". Default is "alpha"' },
  order: { type: 'string', description: 'sort order, either "asc" (ascending) or "desc" (descending). Default is "asc", ignored if "sort" is not specified.' },
  ...PAGING_QUERY,
} as const;

export function registerRepoRoutes(api: FastifyInstance, store: QuotaStore): void {
  api.get(
    '/user/repos',
    {
      config: { access: 'user' },
      schema: operation({
        operationId: 'userCurrentListRepos',
        summary: 'List the repos that the authenticated user owns',
        tags: ['user'],
        query: { ...PAGING_QUERY, order_by: { type: 'string', enum: Object.keys(REPOSITORY_ORDER_SQL), description: 'order the repositories' } },
        success: answers.list('Repository'),
        errors: [401, 403, 422],
      }),
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const orderBy = (firstValue(query.order_by) ?? '').trim();
      let orderSql = 'name ASC';
      if (orderBy !== '') {
        if (!Object.prototype.hasOwnProperty.call(REPOSITORY_ORDER_SQL, orderBy)) throw unprocessable('invalid order_by');
        orderSql = REPOSITORY_ORDER_SQL[orderBy];
      }
      const paging = parsePaging(query);
      const viewer = request.account!;
      const page = repositories(store, viewer, { ownedBy: viewer, orderSql, offset: (paging.page - 1) * paging.limit, limit: paging.limit });
      setPageHeaders(request, reply, paging, page.total);
      const appUrl = appUrlOf(request);
      return page.items.map((row) => repositoryJson(row, viewer, appUrl));
    },
  );

  api.get(
    '/repos/search',
    {
      config: { access: 'user' },
      schema: operation({
        operationId: 'repoSearch',
        summary: 'Search for repositories',
        tags: ['repository'],
        query: SEARCH_QUERY,
        success: answers.ok('SearchResults'),
        errors: [401, 422],
      }),
    },
    async (request, reply) => {
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
      const page = repositories(store, viewer, { orderSql, offset: (paging.page - 1) * paging.limit, limit: paging.limit });
      setPageHeaders(request, reply, paging, page.total);
      const appUrl = appUrlOf(request);
      const data = page.items.map((row) => repositoryJson(row, findAccount(store, row.owner) ?? viewer, appUrl));
      return { ok: true, data };
    },
  );
}
