/**
 * Forgejo's list headers (services/context/api.go): `Link` with next, last, first and prev as
 * its paginator computes them (a page past the end counts as the last page), query keys sorted
 * as Go's url.Values encodes them, `X-Total-Count`, and `Access-Control-Expose-Headers` naming
 * both in the order Forgejo appends them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOTAL_COUNT_HEADER } from '../shared/api/types';
import { appUrlOf } from './urls';
import type { Paging } from './validation';

/** Go's url.Values.Encode: keys sorted, values in order, query-escaped (space as `+`). */
function encodeSorted(params: URLSearchParams): string {
  const keys = [...new Set(params.keys())].sort();
  const escape = (text: string) =>
    encodeURIComponent(text)
      .replace(/%20/g, '+')
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keys.flatMap((key) => params.getAll(key).map((value) => `${escape(key)}=${escape(value)}`)).join('&');
}

function linkHeader(appUrl: string, requestUrl: string, paging: Paging, total: number): string | undefined {
  const totalPages = Math.ceil(total / paging.limit);
  const current = Math.max(1, Math.min(paging.page, totalPages));
  // Only the path and query of the request are kept (even an absolute-form request target
  // cannot choose the host); the public URL may add a prefix, e.g. a proxy's sub-path.
  const seen = new URL(requestUrl, 'http://request.invalid');
  const at = (page: number, rel: string) => {
    const params = new URLSearchParams(seen.search);
    params.set('page', String(page));
    return `<${appUrl}${seen.pathname.replace(/^\/+/, '')}?${encodeSorted(params)}>; rel="${rel}"`;
  };
  const links: string[] = [];
  const isLast = total === 0 || current === totalPages;
  if (current < totalPages) links.push(at(current + 1, 'next'));
  if (!isLast) links.push(at(totalPages, 'last'));
  if (current !== 1) links.push(at(1, 'first'));
  if (current > 1) links.push(at(current - 1, 'prev'));
  return links.length > 0 ? links.join(',') : undefined;
}

export function setPageHeaders(request: FastifyRequest, reply: FastifyReply, paging: Paging, total: number): void {
  const link = linkHeader(appUrlOf(request), request.url, paging, total);
  if (link) reply.header('link', link);
  reply.header(TOTAL_COUNT_HEADER, String(total));
  reply.header('access-control-expose-headers', link ? 'Link, X-Total-Count' : 'X-Total-Count');
}
