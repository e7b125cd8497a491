/** `listMyRepositories` against the real reference server, and against a server that omits optional fields. */
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QuotaApiClient } from '../../shared/api/client';
import { DEMO_TOKENS, startServer, type RunningServer } from '../api/helpers';

describe('API client: listMyRepositories', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  it("orders by Forgejo's size orders against the reference server (size in KiB of git + LFS)", async () => {
    const bob = new QuotaApiClient({ baseUrl: server.baseUrl, token: DEMO_TOKENS.bob });
    const largest = await bob.listMyRepositories({ orderBy: 'reversesize' });
    assert.deepEqual(
      largest.items.map((r) => [r.full_name, r.size]),
      [['bob/dotfiles', (140 + 2) * 1024]],
    );
    assert.equal(largest.total, 1);
    assert.equal(largest.hasMore, false);
    assert.ok(largest.items[0].html_url?.endsWith('/bob/dotfiles'));
  });

  it('an account with no repositories gets an empty page; an unknown order is the server 422', async () => {
    const root = new QuotaApiClient({ baseUrl: server.baseUrl, token: DEMO_TOKENS.root });
    const none = await root.listMyRepositories({ orderBy: 'size', page: 1, limit: 1 });
    assert.deepEqual(none.items, [], 'root owns no repositories');
    await assert.rejects(root.listMyRepositories({ orderBy: 'biggest' }), /invalid order_by/);
  });

  it('parses a server that omits every optional field, and drops entries without id or name', async () => {
    const fake = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '3' });
      response.end(JSON.stringify([{ id: 1, name: 'bare' }, { id: 2, name: 'owned', owner: { login: 'eve' }, size: 'big' }, { name: 'no-id' }]));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      const client = new QuotaApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't' });
      const page = await client.listMyRepositories({ orderBy: 'reversesize' });
      assert.deepEqual(
        page.items.map((r) => [r.id, r.full_name, r.size, r.private]),
        [
          [1, 'bare', 0, false],
          [2, 'eve/owned', 0, false],
        ],
      );
    } finally {
      fake.closeAllConnections();
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});
