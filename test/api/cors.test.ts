/**
 * `quota-api --cors ORIGINS`: CORS the way Forgejo's `[cors]` answers browsers (ENABLED,
 * ALLOW_DOMAIN, METHODS, HEADERS; Authorization always allowed), which the extension needs on
 * vscode.dev, where its worker runs on a changing https://<id>.vscode-cdn.net origin.
 */
import assert from 'node:assert/strict';
import { originAllowed, parseCorsOrigins } from '../../quota-api/cors';
import { DEMO_TOKENS, runCli, startServer, type RunningServer } from './helpers';

const VSCODE_DEV_WORKER = 'https://0a1b2c3d.vscode-cdn.net';

describe('quota-api --cors', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ args: ['--cors', 'https://*.vscode-cdn.net,https://github.dev'] });
  });
  after(() => server.stop());

  const preflight = (origin: string, method: string, headers: string) =>
    fetch(`${server.baseUrl}/user`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

  it('answers a preflight from an allowed origin before authentication, allowing Authorization and Content-Type', async () => {
    const response = await preflight(VSCODE_DEV_WORKER, 'PATCH', 'authorization,content-type');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), VSCODE_DEV_WORKER);
    assert.equal(response.headers.get('access-control-allow-methods'), 'PATCH');
    assert.equal(response.headers.get('access-control-allow-headers'), 'authorization, content-type');
    assert.match(response.headers.get('vary') ?? '', /Origin/);
  });

  it('allows the origin on the answer itself and exposes the paging headers the client reads', async () => {
    const response = await fetch(`${server.baseUrl}/admin/quota/rules`, { headers: { origin: 'https://github.dev', authorization: `token ${DEMO_TOKENS.root}` } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://github.dev');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /X-Total-Count.*Link/);
  });

  it('says nothing to other origins, nor to a header outside HEADERS', async () => {
    const other = await preflight('https://evil.example', 'GET', 'authorization');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const plain = await fetch(`${server.baseUrl}/version`, { headers: { origin: 'https://evil.example' } });
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
    const header = await preflight(VSCODE_DEV_WORKER, 'GET', 'x-secret-header');
    assert.equal(header.headers.get('access-control-allow-origin'), null);
  });

  it('is off without --cors, as Forgejo is without [cors] ENABLED', async () => {
    const plain = await startServer();
    try {
      const response = await fetch(`${plain.baseUrl}/version`, { headers: { origin: VSCODE_DEV_WORKER } });
      assert.equal(response.headers.get('access-control-allow-origin'), null);
    } finally {
      await plain.stop();
    }
  });

  it('matches one wildcard per origin and refuses what is not an origin', async () => {
    const config = parseCorsOrigins('https://*.vscode-cdn.net');
    assert.ok(originAllowed(config, VSCODE_DEV_WORKER));
    assert.ok(!originAllowed(config, 'https://vscode-cdn.net.evil.example'));
    assert.ok(!originAllowed(config, 'http://0a1b.vscode-cdn.net'));
    assert.ok(originAllowed(parseCorsOrigins('*'), 'https://anything.example'));
    assert.throws(() => parseCorsOrigins('https://example.com/path'), /not an origin/);
    const usage = await runCli(['--cors', '']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--cors needs at least one origin/);
  });
});
