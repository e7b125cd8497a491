import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QuotaApiClient, normaliseBaseUrl } from '../../shared/api/client';
import { QuotaApiError } from '../../shared/api/errors';

const TOKEN = 'secret-token-123';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A tiny HTTP server standing in for the quota API, so each failure mode can be produced exactly. */
async function withServer(handler: Handler, test: (baseUrl: string, seen: IncomingMessage[]) => Promise<void>): Promise<void> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request);
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => handler(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await test(`http://127.0.0.1:${port}/api/v1`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function reply(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body === undefined ? '' : JSON.stringify(body));
}

async function failureOf(promise: Promise<unknown>): Promise<QuotaApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof QuotaApiError, `expected a QuotaApiError, got ${String(error)}`);
    assert.ok(!error.message.includes(TOKEN), 'the token must never appear in an error');
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('quota API client', () => {
  it('sends the token as "Authorization: token …" and JSON bodies, and parses the answer', async () => {
    await withServer(
      (request, body, response) => {
        assert.equal(request.headers.authorization, `token ${TOKEN}`);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/api/v1/admin/quota/rules');
        const rule = JSON.parse(body);
        reply(response, 201, rule);
      },
      async (baseUrl) => {
        const client = new QuotaApiClient({ baseUrl, token: TOKEN });
        const created = await client.createRule({ name: 'repos-1g', limit: 1073741824, subjects: ['size:repos:all'] });
        assert.deepEqual(created, { name: 'repos-1g', limit: 1073741824, subjects: ['size:repos:all'] });
      },
    );
  });

  it('escapes names used as path segments', async () => {
    await withServer(
      (request, _body, response) => reply(response, 200, { name: 'a b', limit: 1, url: request.url }),
      async (baseUrl, seen) => {
        await new QuotaApiClient({ baseUrl, token: TOKEN }).getRule('a b?');
        assert.equal(seen[0].url, '/api/v1/admin/quota/rules/a%20b%3F');
      },
    );
  });

  it('turns 401 into a sentence that says to sign in', async () => {
    await withServer(
      (_request, _body, response) => reply(response, 401, { message: 'token is required', url: 'x' }),
      async (baseUrl) => {
        const error = await failureOf(new QuotaApiClient({ baseUrl }).myQuota());
        assert.equal(error.kind, 'unauthorized');
        assert.equal(error.needsSignIn, true);
        assert.match(error.message, /^Could not read your quota: you are not signed in to http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
        assert.match(error.message, /Quota: Sign In/);
      },
    );
  });

  it('turns 403 on an admin route into "your account is not a site administrator on <server>"', async () => {
    await withServer(
      (_request, _body, response) => reply(response, 403, { message: 'user should be the site admin', url: 'x' }),
      async (baseUrl) => {
        const error = await failureOf(new QuotaApiClient({ baseUrl, token: TOKEN }).deleteRule('r'));
        assert.equal(error.status, 403);
        assert.ok(error.message.includes(`your account is not a site administrator on ${baseUrl}`), error.message);
      },
    );
  });

  it('keeps the server message of 409 and 422', async () => {
    await withServer(
      (request, _body, response) =>
        request.method === 'POST'
          ? reply(response, 409, { message: 'rule already exists: [name: r]', url: 'x' })
          : reply(response, 422, { message: 'unrecognized quota limit subject: [subject: size:bogus]', url: 'x' }),
      async (baseUrl) => {
        const client = new QuotaApiClient({ baseUrl, token: TOKEN });
        const conflict = await failureOf(client.createRule({ name: 'r', limit: 1, subjects: [] }));
        assert.equal(conflict.kind, 'conflict');
        assert.match(conflict.message, /Could not create the rule "r": .*rule already exists: \[name: r\]/);
        const invalid = await failureOf(client.editRule('r', { subjects: ['size:bogus'] }));
        assert.equal(invalid.kind, 'validation');
        assert.match(invalid.message, /rejected the request as invalid: unrecognized quota limit subject: \[subject: size:bogus\]/);
      },
    );
  });

  it('names the URL when the server cannot be reached', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const client = new QuotaApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, token: TOKEN });
    const error = await failureOf(client.listRules());
    assert.equal(error.kind, 'network');
    assert.ok(error.message.includes(`http://127.0.0.1:${port}/api/v1/admin/quota/rules could not be reached`), error.message);
  });

  it('gives up after the timeout and names the URL and the time', async () => {
    await withServer(
      () => {
        /* never answers */
      },
      async (baseUrl) => {
        const error = await failureOf(new QuotaApiClient({ baseUrl, token: TOKEN, timeoutMs: 200 }).listGroups());
        assert.equal(error.kind, 'timeout');
        assert.ok(error.message.includes(`${baseUrl}/admin/quota/groups did not answer within 0.2 s`), error.message);
      },
    );
  });

  it('stops when the caller cancels', async () => {
    await withServer(
      () => {
        /* never answers */
      },
      async (baseUrl) => {
        const controller = new AbortController();
        const pending = new QuotaApiClient({ baseUrl, token: TOKEN }).myQuota({ signal: controller.signal });
        controller.abort();
        const error = await failureOf(pending);
        assert.equal(error.kind, 'cancelled');
      },
    );
  });

  it('reads pages with X-Total-Count and Link', async () => {
    await withServer(
      (request, _body, response) => {
        const page = Number(new URL(request.url ?? '', 'http://x').searchParams.get('page'));
        const headers: Record<string, string> = { 'x-total-count': '3' };
        if (page === 1) headers.link = '<http://x/api/v1/user/quota/packages?page=2&limit=2>; rel="next"';
        reply(response, 200, page === 1 ? [{ name: 'a' }, { name: 'b' }] : [{ name: 'c' }], headers);
      },
      async (baseUrl) => {
        const client = new QuotaApiClient({ baseUrl, token: TOKEN });
        const first = await client.myPackages(1, 2);
        assert.deepEqual([first.items.length, first.total, first.hasMore], [2, 3, true]);
        const second = await client.myPackages(2, 2);
        assert.deepEqual([second.items.length, second.hasMore], [1, false]);
      },
    );
  });

  it('answers the check endpoint as a boolean and rejects anything else', async () => {
    await withServer(
      (request, _body, response) => {
        const subject = new URL(request.url ?? '', 'http://x').searchParams.get('subject');
        reply(response, 200, subject === 'size:all' ? false : 'yes');
      },
      async (baseUrl) => {
        const client = new QuotaApiClient({ baseUrl, token: TOKEN });
        assert.equal(await client.checkMyQuota('size:all'), false);
        const error = await failureOf(client.checkMyQuota('size:git:lfs'));
        assert.equal(error.kind, 'invalid-response');
      },
    );
  });

  it('appends /api/v1 to a bare server root', () => {
    assert.equal(normaliseBaseUrl('https://forge.example/'), 'https://forge.example/api/v1');
    assert.equal(normaliseBaseUrl('https://forge.example/api/v1/'), 'https://forge.example/api/v1');
  });
});
