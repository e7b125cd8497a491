/** Bad input of every kind is a clean 4xx with a Forgejo-style `{"message","url"}` body, never a 500. */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import fc from 'fast-check';
import type { QuotaRuleInfo } from '../../shared/api/types';
import { client, DEMO_TOKENS, errorMessage, request, startServer, type RunningServer } from './helpers';

describe('quota API: bad input', () => {
  let server: RunningServer;
  let admin: ReturnType<typeof client>;

  before(async () => {
    server = await startServer();
    admin = client(server.baseUrl, DEMO_TOKENS.root);
  });
  after(async () => {
    const code = await server?.stop();
    assert.doesNotMatch(server.stderr(), /"status":5\d\d/, 'no request answered 5xx');
    assert.equal(code, 0);
  });

  const post = (raw: string, contentType?: string) => request(server.baseUrl, 'POST', '/admin/quota/rules', { token: DEMO_TOKENS.root, raw, contentType });

  it('malformed JSON → 400 naming the problem', async () => {
    for (const raw of ['{', '{"name": "x", "limit": 1,}', "{'name': 'x'}", 'nul', '{"name": "x"} trailing', '\u0000']) {
      const response = await post(raw);
      assert.equal(response.status, 400, raw);
      assert.match(errorMessage(response), /not valid JSON/);
    }
  });

  it('JSON that is not an object → 400; empty body or null → treated as {} → 422 for the missing fields', async () => {
    for (const raw of ['[]', '"rule"', '42', 'true']) {
      const response = await post(raw);
      assert.equal(response.status, 400, raw);
      assert.match(errorMessage(response), /^\[body\]: must be a JSON object/);
    }
    for (const raw of ['', 'null', '   ']) {
      const response = await post(raw);
      assert.equal(response.status, 422, JSON.stringify(raw));
      assert.equal(errorMessage(response), '[Name]: Required');
    }
  });

  it('any declared content type (or none) is read as JSON', async () => {
    const textPlain = await post('{"name": "as-text", "limit": 1}', 'text/plain');
    assert.equal(textPlain.status, 201);
    const noType = await fetch(`${server.baseUrl}/admin/quota/rules`, {
      method: 'POST',
      headers: { authorization: `token ${DEMO_TOKENS.root}` },
      body: new Uint8Array(Buffer.from('{"name": "no-type", "limit": 2}')),
    });
    assert.equal(noType.status, 201);
  });

  it('limits that are not whole numbers → 400; whole numbers beyond 2^53 are int64 limits like any other', async () => {
    for (const limit of ['1e400', '1.5', '"1 GiB"', 'true', '{}']) {
      const response = await post(`{"name": "lim", "limit": ${limit}}`);
      assert.equal(response.status, 400, limit);
      errorMessage(response);
    }
    const largest = await admin.post<QuotaRuleInfo>('/admin/quota/rules', { name: 'largest', limit: Number.MAX_SAFE_INTEGER });
    assert.equal(largest.status, 201);
    assert.equal(largest.body.limit, Number.MAX_SAFE_INTEGER);
    for (const [name, limit] of [
      ['above-safe', '9007199254740993'],
      ['below-safe', '-9007199254740993'],
    ]) {
      const response = await post(`{"name": "${name}", "limit": ${limit}}`);
      assert.equal(response.status, 201, limit);
      assert.match(response.text, new RegExp(`"limit":${limit}[,}]`), 'written back exactly, unquoted');
    }
  });

  it('names: unicode round-trips through the path; too long, control characters and "/" → 422', async () => {
    const unicode = 'ünïcødé-规则-🚀 space'.normalize('NFC');
    const created = await admin.post<QuotaRuleInfo>('/admin/quota/rules', { name: unicode, limit: 1 });
    assert.equal(created.status, 201);
    const read = await admin.get<QuotaRuleInfo>(`/admin/quota/rules/${encodeURIComponent(unicode)}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.name, unicode);

    const longest = 'n'.repeat(255);
    assert.equal((await admin.post('/admin/quota/rules', { name: longest, limit: 1 })).status, 201);
    assert.equal((await admin.get(`/admin/quota/rules/${longest}`)).status, 200);
    const tooLong = await admin.post('/admin/quota/rules', { name: 'n'.repeat(256), limit: 1 });
    assert.equal(tooLong.status, 422);
    assert.equal(errorMessage(tooLong), '[Name]: a rule name must be at most 255 characters long');
    assert.equal((await admin.post('/admin/quota/rules', { name: 'x'.repeat(100_000), limit: 1 })).status, 422);

    assert.equal((await admin.post('/admin/quota/rules', { name: 'tab\there', limit: 1 })).status, 422);
    assert.equal((await admin.post('/admin/quota/rules', { name: '/', limit: 1 })).status, 422);
    assert.equal((await admin.post('/admin/quota/groups', { name: 'g/h' })).status, 422);
  });

  it('an encoded "/" in a path segment names no rule (404); a huge path segment is a 4xx', async () => {
    const slash = await admin.get('/admin/quota/rules/a%2Fb');
    assert.equal(slash.status, 404);
    errorMessage(slash);
    const huge = await admin.get(`/admin/quota/rules/${'x'.repeat(5000)}`);
    assert.ok(huge.status >= 400 && huge.status < 500, String(huge.status));
  });

  it('unknown query values: page/limit not integers → first page, unknown subject → 422, repeated values use the first', async () => {
    const alice = client(server.baseUrl, DEMO_TOKENS.alice);
    assert.equal((await alice.get('/user/quota/packages?page=%F0%9F%9A%80')).status, 200, 'not a number: page 0, the first page');
    assert.equal((await alice.get('/user/quota/artifacts?limit=')).status, 200, 'an empty value means the default');
    assert.equal((await alice.get('/user/quota/check?subject=%00')).status, 422);
    assert.equal((await alice.get('/user/quota/check?subject=size:all&subject=bogus')).status, 200);
    assert.equal((await alice.get('/user/quota/check?subject[a]=1')).status, 422);
    assert.equal((await alice.get('/user/quota?unknown=1')).status, 200, 'unknown parameters are ignored');
  });

  it('oversized bodies → 413 with the error shape; nothing is stored', async () => {
    const big = JSON.stringify({ name: 'too-big', limit: 1, subjects: Array(200_000).fill('size:all') });
    assert.ok(big.length > 1024 * 1024);
    const response = await post(big);
    assert.equal(response.status, 413);
    assert.match(errorMessage(response), /larger than the limit/);
    assert.equal((await admin.get('/admin/quota/rules/too-big')).status, 404);
  });

  /**
   * Sends `head`, then `body` in 64 KiB writes on a raw connection, and resolves with all the
   * server answered once every write went through; a write the server refused rejects. Before
   * the body it waits for the server's first byte, or half a second, so that a server answering
   * on the headers alone has answered and closed by then.
   */
  function rawExchange(head: string, body: Buffer): Promise<{ answer: string; answeredBeforeBody: boolean }> {
    const url = new URL(server.baseUrl);
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = net.connect(Number(url.port), url.hostname);
      const firstByte = new Promise((answered) => socket.once('data', answered));
      const sent = new Promise<boolean>((sentAll) =>
        socket.once('connect', async () => {
          socket.write(head);
          await Promise.race([firstByte, new Promise((wait) => setTimeout(wait, 500))]);
          for (let offset = 0; offset < body.length; offset += 64 * 1024) {
            if (!socket.write(body.subarray(offset, offset + 64 * 1024))) await new Promise((drained) => socket.once('drain', drained));
          }
          const answeredBeforeBody = answer !== '';
          socket.write('', () => sentAll(answeredBeforeBody));
        }),
      );
      const ended = new Promise<void>((endedAll) => socket.on('end', endedAll));
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', reject);
      Promise.all([sent, ended]).then(([answeredBeforeBody]) => resolve({ answer, answeredBeforeBody }), reject);
    });
  }
  const headOf = (length: number) =>
    `POST /api/v1/admin/quota/rules HTTP/1.1\r\nHost: x\r\nAuthorization: token ${DEMO_TOKENS.root}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('a client still sending an oversized body reads the 413 when it is done, not a broken connection', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, ' ');
    const { answer, answeredBeforeBody } = await rawExchange(headOf(body.length), body);
    assert.equal(answeredBeforeBody, false, 'the server answered before the body was sent, so the rest of it could not be');
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /"message":"request body is larger than the limit of 1048576 bytes"/);
  });

  it('a chunked body (no length declared) that runs past the limit: the 413 too comes once it is sent', async () => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const chunks = Array.from({ length: 48 }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    const body = Buffer.concat([...chunks, Buffer.from('0\r\n\r\n')]);
    const head = headOf(0).replace('Content-Length: 0', 'Transfer-Encoding: chunked');
    const { answer } = await rawExchange(head, body);
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"message":"request body is larger than the limit of 1048576 bytes"/);
  });

  it('a body declared far beyond the limit is not waited for: the 413 comes at once', async () => {
    const { answer } = await rawExchange(headOf(1024 * 1024 * 1024), Buffer.alloc(0));
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /larger than the limit/);
  });

  it('unknown routes and methods → 404 with the error shape', async () => {
    for (const [method, p] of [
      ['GET', '/nope'],
      ['POST', '/user/quota'],
      ['PUT', '/admin/quota/rules'],
      ['GET', '/admin/quota/rules/a/b'],
    ]) {
      const response = await request(server.baseUrl, method, p, { token: DEMO_TOKENS.root });
      assert.equal(response.status, 404, `${method} ${p}`);
      errorMessage(response);
    }
  });

  it('malformed HTTP gets a JSON 4xx answer before the connection closes', async () => {
    const url = new URL(server.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write('GET /api/v1/user HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /"message":"malformed HTTP request/);
  });

  it('random JSON bodies to every writing endpoint never produce a 5xx (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST /admin/quota/rules', 'PATCH /admin/quota/rules/repos-100m', 'POST /admin/quota/groups', 'POST /admin/users/bob/quota/groups'),
        fc.oneof(
          fc.json(),
          fc.record(
            {
              name: fc.oneof(fc.string(), fc.constant('repos-100m'), fc.integer()),
              limit: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
              subjects: fc.oneof(fc.array(fc.constantFrom('size:all', 'sizelfs', 'bogus', '')), fc.string()),
              groups: fc.array(fc.constantFrom('free', 'pro', 'ghost')),
              rules: fc.array(fc.record({ name: fc.string(), limit: fc.integer() })),
            },
            { requiredKeys: [] },
          ),
        ),
        async (endpoint, body) => {
          const [method, p] = endpoint.split(' ');
          const raw = typeof body === 'string' ? body : JSON.stringify(body);
          const response = await request(server.baseUrl, method, p, { token: DEMO_TOKENS.root, raw });
          assert.ok(response.status < 500, `${endpoint} ${raw} → ${response.status} ${response.text}`);
          if (response.status >= 400) errorMessage(response);
        },
      ),
      { numRuns: 150 },
    );
  });
});
