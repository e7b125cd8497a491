/**
 * URLs handed out in bodies and headers (Forgejo's AppURL). They are built from the configured
 * public URL (`--public-url`, else the listening address), never from the request's Host
 * header: a forged Host must not end up in a cached response or a link a client follows.
 */
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** `https://forge.example/`: the base of every absolute URL, always ending in `/`. */
    publicUrl(): string;
  }
}

/** Checks and normalises a `--public-url` value: http(s), no query or fragment, ends in `/`. */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--public-url must be an absolute http or https URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--public-url must use http or https, not "${url.protocol}"`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error('--public-url must not have a query, a fragment or credentials');
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The base of every URL we hand out, e.g. `http://127.0.0.1:3000/`. */
export function appUrlOf(request: FastifyRequest): string {
  return request.server.publicUrl();
}
