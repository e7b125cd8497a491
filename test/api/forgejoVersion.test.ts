/**
 * `quota-api --forgejo-version`: the version it reports, and Forgejo's models/quota cases of
 * v11.0.3 and v15.0.3 asked through `/user/quota/check` of a server emulating each version.
 */
import { strict as assert } from 'node:assert';
import { caseInstanceKeys, casesAsInstance } from '../fixtures/forgejoModelCases';
import { client, startServer, writeTempFile, type RunningServer } from './helpers';

describe('quota-api --forgejo-version', () => {
  it('reports 15.0.9+gitea-1.22.0 by default, on both version routes', async () => {
    const server = await startServer();
    try {
      const anonymous = client(server.baseUrl);
      assert.deepEqual((await anonymous.get('/version')).body, { version: '15.0.9+gitea-1.22.0' });
      const forgejoRoute = await fetch(server.baseUrl.replace(/\/api\/v1$/, '/api/forgejo/v1/version'));
      assert.equal(forgejoRoute.status, 200);
      assert.deepEqual(await forgejoRoute.json(), { version: '15.0.9+gitea-1.22.0' });
    } finally {
      await server.stop();
    }
  });

  it('reports the emulated version, e.g. 11.0.3+gitea-1.22.0', async () => {
    const server = await startServer({ args: ['--forgejo-version', '11.0.3'] });
    try {
      assert.deepEqual((await client(server.baseUrl).get('/version')).body, { version: '11.0.3+gitea-1.22.0' });
      const forgejoRoute = await fetch(server.baseUrl.replace(/\/api\/v1$/, '/api/forgejo/v1/version'));
      assert.deepEqual(await forgejoRoute.json(), { version: '11.0.3+gitea-1.22.0' });
    } finally {
      await server.stop();
    }
  });

  it('refuses to emulate a server without the quota API', async () => {
    await assert.rejects(startServer({ args: ['--forgejo-version', '1.22.0'] }));
  });

  for (const { version, defaultTotal } of caseInstanceKeys()) {
    it(`answers Forgejo's v${version} models/quota cases (TOTAL ${defaultTotal}) through /user/quota/check`, async () => {
      const { instance, accounts } = casesAsInstance(version, defaultTotal);
      let server: RunningServer | undefined;
      try {
        server = await startServer({ seed: writeTempFile('cases.quota.json', JSON.stringify(instance)), args: ['--forgejo-version', version, '--log-level', 'silent'] });
        const wrong: string[] = [];
        for (const { case: c, token, expected } of accounts) {
          const answer = await client(server.baseUrl, token).get(`/user/quota/check?subject=${encodeURIComponent(c.subject)}`);
          if (answer.status !== 200 || answer.text !== String(expected)) wrong.push(`${c.name}: ${answer.status} ${answer.text}, expected ${expected}`);
        }
        assert.deepEqual(wrong, []);
      } finally {
        await server?.stop();
      }
    });
  }
});
