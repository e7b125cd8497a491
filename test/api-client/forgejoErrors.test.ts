/** Forgejo's own 404 answers reach the user as its words, against the real reference server. */
import * as assert from 'node:assert/strict';
import { QuotaApiClient } from '../../shared/api/client';
import { QuotaApiError, serverMessageOf } from '../../shared/api/errors';
import { DEMO_TOKENS, startServer, type RunningServer } from '../api/helpers';

describe('API client: Forgejo 404 messages', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('an unknown user in the admin user-quota routes: "user does not exist [uid: 0, name: …]"', async () => {
    const root = new QuotaApiClient({ baseUrl: server.baseUrl, token: DEMO_TOKENS.root });
    const failure = await root.userQuota('nobody').then(
      () => assert.fail('expected a 404'),
      (error: unknown) => error as QuotaApiError,
    );
    assert.equal(failure.kind, 'not-found');
    assert.equal(failure.serverMessage, 'user does not exist [uid: 0, name: nobody]');
    assert.match(failure.message, /the server said: user does not exist \[uid: 0, name: nobody\]/);
  });

  it("an unknown organization: the reason Forgejo lists under errors, not the handler's name in message", async () => {
    const response = await fetch(`${server.baseUrl}/orgs/nobody/quota`, { headers: { authorization: `token ${DEMO_TOKENS.alice}` } });
    const body = (await response.json()) as { message: string };
    assert.equal(body.message, 'GetOrgByName');
    assert.equal(serverMessageOf(JSON.stringify(body)), 'org does not exist [id: 0, name: nobody]');
  });
});
