/**
 * CORS as Forgejo's `[cors]` section does it (go-chi/cors on the API routes): off unless enabled;
 * `ALLOW_DOMAIN` lists the allowed origins (`*` alone allows any, and an origin may hold one `*`,
 * e.g. `https://*.vscode-cdn.net`, where vscode.dev runs extension workers); `METHODS` and
 * `HEADERS` as Forgejo's defaults; `Authorization` (and Forgejo's OTP headers) are always allowed.
 * Paged answers expose `X-Total-Count` and `Link`, as Forgejo does. A browser extension on
 * vscode.dev can only call a server that answers this way.
 */
import type { FastifyInstance } from 'fastify';

export interface CorsConfig {
  /** ALLOW_DOMAIN */
  allowDomain: string[];
  /** METHODS */
  methods: string[];
  /** HEADERS, besides those always allowed */
  headers: string[];
  /** MAX_AGE in seconds */
  maxAge: number;
}

const CORS_DEFAULTS: Omit<CorsConfig, 'allowDomain'> = {
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  headers: ['Content-Type', 'User-Agent'],
  maxAge: 600,
};

/** Forgejo adds these to HEADERS whatever the configuration says. */
const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'X-Gitea-OTP', 'X-Forgejo-OTP'];
const EXPOSED_HEADERS = 'X-Total-Count, Link';

/** `--cors ORIGINS`: a comma-separated ALLOW_DOMAIN with Forgejo's defaults for the rest. */
export function parseCorsOrigins(value: string): CorsConfig {
  const allowDomain = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (allowDomain.length === 0) throw new Error('--cors needs at least one origin (or *)');
  for (const origin of allowDomain) {
    if (origin !== '*' && (origin.split('*').length > 2 || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i.test(origin))) {
      throw new Error(`--cors: "${origin}" is not an origin such as https://example.com or https://*.vscode-cdn.net`);
    }
  }
  return { allowDomain, ...CORS_DEFAULTS };
}

export function originAllowed(config: CorsConfig, origin: string): boolean {
  const lower = origin.toLowerCase();
  return config.allowDomain.some((allowed) => {
    if (allowed === '*') return true;
    const pattern = allowed.toLowerCase();
    const star = pattern.indexOf('*');
    if (star < 0) return pattern === lower;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    return lower.length >= prefix.length + suffix.length && lower.startsWith(prefix) && lower.endsWith(suffix);
  });
}

/** Registers the CORS answers; call before any hook that could refuse a preflight (authentication). */
export function registerCors(app: FastifyInstance, config: CorsConfig): void {
  const methods = new Set(config.methods.map((method) => method.toUpperCase()));
  const headers = new Set([...ALWAYS_ALLOWED_HEADERS, ...config.headers].map((header) => header.toLowerCase()));
  const anyOrigin = config.allowDomain.includes('*');
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !originAllowed(config, origin)) return;
    reply.header('Vary', 'Origin');
    const requestedMethod = request.headers['access-control-request-method'];
    if (request.method === 'OPTIONS' && typeof requestedMethod === 'string') {
      // A preflight: answered here, before authentication and routing, as go-chi/cors does.
      const requestedHeaders = String(request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((header) => header.trim())
        .filter((header) => header !== '');
      if (!methods.has(requestedMethod.toUpperCase()) || !requestedHeaders.every((header) => headers.has(header.toLowerCase()))) {
        return reply.code(200).send();
      }
      reply.header('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
      reply.header('Access-Control-Allow-Methods', requestedMethod.toUpperCase());
      if (requestedHeaders.length > 0) reply.header('Access-Control-Allow-Headers', requestedHeaders.join(', '));
      reply.header('Access-Control-Max-Age', String(config.maxAge));
      return reply.code(200).send();
    }
    reply.header('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
    reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  });
}
