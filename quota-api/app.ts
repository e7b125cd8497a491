/**
 * The HTTP application: Fastify with Forgejo-shaped errors, the quota routes under
 * `/api/v1`, one structured log line per request (never a header, never a token).
 */
import fastifySwagger from '@fastify/swagger';
import Ajv from 'ajv';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_BASE_PATH, type APIError } from '../shared/api/types';
import { authenticate, authorize, requestGeneration } from './auth';
import { badRequest, HttpError, NOT_FOUND_MESSAGE } from './errors';
import { registerAccountQuotaRoutes } from './routes/accountQuota';
import { registerAdminGroupRoutes } from './routes/adminGroups';
import { registerAdminRuleRoutes } from './routes/adminRules';
import { registerAdminUserRoutes } from './routes/adminUsers';
import { registerForgejoVersionRoute, registerMiscRoutes } from './routes/misc';
import { registerRepoRoutes } from './routes/repos';
import type { QuotaStore } from './store/quotaStore';
import { settings } from './store/settings';
import { appUrlOf } from './urls';
import { formatSchemaErrors, int64OverflowMessage, INT64_KEYWORD, withInt64Keyword } from './validation';
import { canonicalName } from '../shared/names';
import { registerCors, type CorsConfig } from './cors';
import { DEFINITIONS, finishDocument, registerDefinitions } from './openapi';
import { parseJsonExact, stringifyJsonExact } from '../shared/api/json';
import { SERVER_VERSION } from './routes/misc';
import { discardRemainingBody } from './discardBody';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  store: QuotaStore;
  /** Where the JSON request log goes; false for none. */
  log?: false | { level?: string; stream?: NodeJS.WritableStream };
  /** Largest accepted request body in bytes; larger ones answer 413. */
  bodyLimit?: number;
  /**
   * Base of every absolute URL (`https://forge.example/`), read per request because the
   * default, the listening address, is only known once the server listens.
   */
  publicUrl: () => string;
  /** Forgejo's `[cors]`: off when absent (`quota-api --cors ORIGINS`). */
  cors?: CorsConfig;
}

function errorBody(request: FastifyRequest, message: string, errors?: string[]): APIError {
  const body: APIError = { message, url: `${appUrlOf(request)}api/swagger` };
  if (errors) body.errors = errors;
  return body;
}

/** Query parameters whose values are logged as sent; every other value could be a credential. */
const LOGGED_QUERY_KEYS = new Set(['page', 'limit', 'subject', 'order_by', 'sort', 'order', 'q', 'mode', 'uid', 'private', 'archived']);

function decodedKey(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The request URL for the log, with the value of every query parameter that is not known to
 * be harmless replaced by `[redacted]`. An allow-list, because a deny-list of credential names
 * is bypassed by spellings a server still reads (`%74oken`, `token[]`, `;token=`).
 */
function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const pairs = url.slice(question + 1).split(/([&;])/);
  const redacted = pairs.map((part) => {
    if (part === '&' || part === ';' || part === '') return part;
    const equals = part.indexOf('=');
    if (equals === -1) return LOGGED_QUERY_KEYS.has(decodedKey(part)) ? part : '[redacted]';
    const key = part.slice(0, equals);
    return LOGGED_QUERY_KEYS.has(decodedKey(key)) ? part : `${key}=[redacted]`;
  });
  return `${url.slice(0, question)}?${redacted.join('')}`;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = createFastify(options, bodyLimit);
  app.decorate('publicUrl', options.publicUrl);
  installSchemas(app);
  registerSwagger(app);
  installBodyParser(app);
  // Before authentication: a preflight carries no token.
  if (options.cors) registerCors(app, options.cors);
  installRequestHooks(app, options.store);
  installErrorHandlers(app, bodyLimit);
  registerRoutes(app, options.store);
  return app;
}

/** Fastify with its logger, limits, and Forgejo-shaped answers to what fails before routing. */
function createFastify(options: AppOptions, bodyLimit: number): FastifyInstance {
  return Fastify({
    logger: options.log === false || options.log === undefined ? false : { level: options.log.level ?? 'info', stream: options.log.stream ?? process.stderr },
    // One line per request from our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    // Long (e.g. unicode, percent-encoded) names must still reach the handler rather than 404.
    routerOptions: { maxParamLength: 4096 },
    // The errors stay on the error: the handler below needs the route to word an int64 overflow as Forgejo does.
    schemaErrorFormatter: (errors) => Object.assign(new Error(formatSchemaErrors(errors)), { validation: errors }),
    // A path that is not valid percent-encoding: Forgejo-shaped 400 instead of Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      (reply as FastifyReply).code(400).send(errorBody(request as FastifyRequest, error.message));
    },
    // Malformed HTTP (bad headers, oversized header block): answer JSON before closing.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return socket.destroy();
      const status = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify({ message: `malformed HTTP request: ${error.message}`, url: '/api/swagger' });
      socket.end(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
}

/** Validation of request bodies and serialization of answers. */
function installSchemas(app: FastifyInstance): void {
  // Only bodies are validated by schema. A string limit is a 400, not silently a number: no
  // coercion, and the data kept for messages. Path and query values are read as Forgejo reads
  // them (a non-numeric page is page 1), so their schemas only describe.
  const bodyAjv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, verbose: true, strict: false, validateFormats: false });
  // Limits are int64: ajv cannot type a bigint, so int64 fields are checked by the `int64` keyword.
  bodyAjv.addKeyword(INT64_KEYWORD);
  for (const [id, schema] of Object.entries(DEFINITIONS)) bodyAjv.addSchema({ $id: id, ...withInt64Keyword(schema) });
  const accept = () => true;
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv.compile(withInt64Keyword(schema)) : accept));
  // Response schemas document the answers; the handlers' objects are written as they are, with
  // int64 limits beyond 2^53 as exact digits.
  app.setSerializerCompiler(() => (data) => stringifyJsonExact(data));
  app.setReplySerializer((data) => stringifyJsonExact(data));
  registerDefinitions(app);
}

/** The swagger document, built from the routes' schemas and finished as Forgejo's reads. */
function registerSwagger(app: FastifyInstance): void {
  app.register(fastifySwagger, {
    swagger: {
      info: { title: 'Quota & State reference quota API (Forgejo-compatible)', version: SERVER_VERSION },
      basePath: API_BASE_PATH,
      consumes: ['application/json', 'text/plain'],
      produces: ['application/json', 'text/html'],
      securityDefinitions: {
        AuthorizationHeaderToken: { type: 'apiKey', name: 'Authorization', in: 'header', description: 'API tokens must be prepended with "token" followed by a space.' },
      },
      security: [{ AuthorizationHeaderToken: [] }],
    },
    // Definitions keep their names (`#/definitions/User`), as in Forgejo's document.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (documentObject) => finishDocument(structuredClone((documentObject as { swaggerObject: object }).swaggerObject) as Record<string, unknown>) as never,
  });
}

/** Every body is JSON whatever its declared type; an empty body or `null` means `{}`. */
function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      const value: unknown = parseJsonExact(text);
      done(null, value === null ? {} : value);
    } catch (error) {
      done(badRequest(`the request body is not valid JSON: ${(error as Error).message}`), undefined);
    }
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
  });
}

/** Names in NFC, authentication and access before routing; one log line after the answer. */
function installRequestHooks(app: FastifyInstance, store: QuotaStore): void {
  app.addHook('onRequest', async (request) => {
    // NFC and NFD spellings of a name are one name: look every path name up in NFC.
    const params = request.params as Record<string, unknown>;
    for (const key of Object.keys(params)) {
      if (typeof params[key] === 'string') params[key] = canonicalName(params[key] as string);
    }
    const config = request.routeOptions.config;
    // Forgejo's token auth runs for every API request before routing: an unknown token is a 401 anywhere.
    const account = authenticate(store, request);
    // Quota routes do not exist while quota is disabled (Forgejo registers them only when enabled).
    if (config.quota && !settings(store, requestGeneration(store, request)).enabled) throw new HttpError(404, NOT_FOUND_MESSAGE, []);
    authorize(store, request, config.access ?? 'public', account);
  });

  app.addHook('onResponse', async (request, reply) => {
    // Below the log level the line is not even built: it costs a URL rewrite per request.
    if ((request.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') === false) return;
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        route: request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        account: request.account?.name,
      },
      'request',
    );
  });
}

/** How much of a refused body is read (and discarded) so that its sender can read the 413. */
const DISCARDED_BODY_FACTOR = 16;

/** A 413 once the rest of the body is read, and then the connection closes, as Fastify asks. */
async function answerBodyTooLarge(request: FastifyRequest, reply: FastifyReply, bodyLimit: number): Promise<FastifyReply> {
  await discardRemainingBody(request.raw, bodyLimit * DISCARDED_BODY_FACTOR);
  return reply
    .code(413)
    .header('connection', 'close')
    .send(errorBody(request, `request body is larger than the limit of ${bodyLimit} bytes`));
}

/** Every failure as Forgejo words it: `{message, url}`, never a stack; a 500 only for a real bug. */
function installErrorHandlers(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.status).send(errorBody(request, error.message, error.details));
    }
    if (error.validation) {
      // Beyond int64 Forgejo's binding (encoding/json) fails to decode: a 422 with its message.
      const overflow = int64OverflowMessage(error.validation, request.method, request.routeOptions.url);
      if (overflow) return reply.code(422).send(errorBody(request, overflow));
      return reply.code(400).send(errorBody(request, formatSchemaErrors(error.validation)));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return answerBodyTooLarge(request, reply, bodyLimit);
    if (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED') {
      // Another process held the database longer than busy_timeout: nothing was written; retry is safe.
      return reply.code(503).header('retry-after', '1').send(errorBody(request, 'the database is busy; retry the request'));
    }
    const status = error.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(request, error.message));
    }
    request.log.error({ err: error }, 'internal error');
    return reply.code(500).send(errorBody(request, 'internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(request, NOT_FOUND_MESSAGE, []));
  });
}

/** The swagger document's two addresses, Forgejo's version route, and the API under `/api/v1`. */
function registerRoutes(app: FastifyInstance, store: QuotaStore): void {
  // Where every error body points; Forgejo serves the same document at /swagger.v1.json.
  const serveDocument = async (_request: FastifyRequest, reply: FastifyReply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger()));
  app.get('/api/swagger', { schema: { hide: true }, config: { access: 'public' } }, serveDocument);
  app.get('/swagger.v1.json', { schema: { hide: true }, config: { access: 'public' } }, serveDocument);
  registerForgejoVersionRoute(app, store);

  app.register(
    async (api) => {
      registerMiscRoutes(api, store);
      registerAdminRuleRoutes(api, store);
      registerAdminGroupRoutes(api, store);
      registerAdminUserRoutes(api, store);
      registerAccountQuotaRoutes(api, store);
      registerRepoRoutes(api, store);
    },
    { prefix: API_BASE_PATH },
  );
}
