/**
 * The quota-endpoint cases of Forgejo's tests/integration/api_quota_management_test.go and
 * api_quota_use_test.go, over real HTTP, against a reference server emulating v11.0.3 and one
 * emulating v15.0.3 (both tags' cases answer the same here; the check verdicts that differ
 * between generations are in test/fixtures/forgejoModelCases.ts). Cases that need routes the
 * reference API does not have are listed in INTEGRATION_CASES_WITHOUT_ROUTES.
 */
import { strict as assert } from 'node:assert';
import type { QuotaInfo, QuotaRuleInfo } from '../../shared/api/types';
import { GEN1_VERSION, GEN2_VERSION, INTEGRATION_CASES_WITHOUT_ROUTES } from '../fixtures/forgejoModelCases';
import { client, startServer, writeTempFile, type RunningServer } from './helpers';

const ADMIN = 'integration-admin-token';
const USER = 'integration-user-token';
const EMPTY = 'integration-empty-token';
const MANAGEMENT = 'tests/integration/api_quota_management_test.go';
const USE = 'tests/integration/api_quota_use_test.go';

/** prepareQuotaEnv: an admin, the test user with one public repository, an empty user, and an org. */
function instance(enabled = true): string {
  return JSON.stringify({
    enabled,
    accounts: [
      { name: 'root', type: 'user', admin: true, token: ADMIN },
      { name: 'quota-enforcement', type: 'user', token: USER },
      { name: 'quota-empty-user', type: 'user', token: EMPTY },
      { name: 'user1', type: 'user' },
      { name: 'unlimited-org', type: 'org', owners: ['quota-enforcement'] },
    ],
    repos: [{ owner: 'quota-enforcement', name: 'repo', private: false, gitSize: 65536, lfsSize: 0 }],
  });
}

for (const version of [GEN1_VERSION, GEN2_VERSION]) {
  describe(`Forgejo v${version} integration tests, endpoint cases`, () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ seed: writeTempFile('integration.quota.json', instance()), args: ['--forgejo-version', version, '--log-level', 'silent'] });
    });
    after(async () => {
      await server?.stop();
    });
    const admin = () => client(server.baseUrl, ADMIN);

    it(`${MANAGEMENT} TestAPIQuotaCreateGroupWithRules`, async () => {
      assert.equal((await admin().post('/admin/quota/rules', { name: 'unlimited', limit: -1, subjects: ['size:all'] })).status, 201);
      assert.equal((await admin().post('/admin/quota/rules', { name: 'deny-git-lfs', limit: 0, subjects: ['size:git:lfs'] })).status, 201);
      const created = await admin().post<{ name: string; rules: QuotaRuleInfo[] }>('/admin/quota/groups', {
        name: 'group-with-rules',
        rules: [{ name: 'unlimited' }, { name: 'deny-git-lfs', limit: -1 }, { name: 'new-rule', subjects: ['size:assets:all'] }],
      });
      assert.equal(created.status, 201);
      assert.equal(created.body.name, 'group-with-rules');
      assert.equal(created.body.rules.length, 3);
      // An existing rule is attached unchanged; a new one without a limit gets 0.
      assert.deepEqual((await admin().get('/admin/quota/rules/deny-git-lfs')).body, { name: 'deny-git-lfs', limit: 0, subjects: ['size:git:lfs'] });
      assert.deepEqual((await admin().get('/admin/quota/rules/new-rule')).body, { name: 'new-rule', limit: 0, subjects: ['size:assets:all'] });
      const invalid = await admin().post('/admin/quota/groups', { name: 'group-with-invalid-rule-spec', rules: [{ name: 'rule-with-wrong-spec', subjects: ['valid:false'] }] });
      assert.equal(invalid.status, 422);
    });

    it(`${MANAGEMENT} TestAPIQuotaEmptyState`, async () => {
      const zero = { size: { repos: { public: 0, private: 0 }, git: { LFS: 0 }, assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } } } };
      const adminView = await admin().get<QuotaInfo>('/admin/users/quota-empty-user/quota');
      assert.equal(adminView.status, 200);
      assert.deepEqual(adminView.body, { used: zero, groups: [] });
      const empty = client(server.baseUrl, EMPTY);
      assert.deepEqual((await empty.get<QuotaInfo>('/user/quota')).body, { used: zero, groups: [] });
      for (const list of ['artifacts', 'attachments', 'packages']) assert.deepEqual((await empty.get(`/user/quota/${list}`)).body, [], list);
    });

    it(`${MANAGEMENT} TestAPIQuotaAdminRoutesRules`, async () => {
      const created = await admin().post<QuotaRuleInfo>('/admin/quota/rules', { name: 'deny-all', limit: 0, subjects: ['size:all'] });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { name: 'deny-all', limit: 0, subjects: ['size:all'] });
      assert.equal((await admin().post('/admin/quota/rules')).status, 422, 'missing options');
      assert.equal((await admin().post('/admin/quota/rules', { name: 'invalid-subjects', limit: 0, subjects: ['valid:false'] })).status, 422);
      assert.equal((await admin().post('/admin/quota/rules', { name: 'deny-all', limit: 0, subjects: ['size:all'] })).status, 409);
      const edited = await admin().patch<QuotaRuleInfo>('/admin/quota/rules/deny-all', { limit: 1024 });
      assert.equal(edited.status, 200);
      assert.equal(edited.body.limit, 1024);
      assert.equal((await admin().patch('/admin/quota/rules/deny-all')).status, 200, 'no options');
      assert.equal((await admin().patch('/admin/quota/rules/does-not-exist', { limit: 1 })).status, 404);
      assert.equal((await admin().patch('/admin/quota/rules/deny-all', { subjects: ['valid:false'] })).status, 422);
      assert.ok((await admin().get<QuotaRuleInfo[]>('/admin/quota/rules')).body.some((rule) => rule.name === 'deny-all'));
      assert.equal((await admin().delete('/admin/quota/rules/deny-all')).status, 204);
      assert.equal((await admin().delete('/admin/quota/rules/does-not-exist')).status, 404);
    });

    it(`${MANAGEMENT} TestAPIQuotaAdminRoutesGroups`, async () => {
      assert.equal((await admin().post('/admin/quota/rules', { name: 'deny-all', limit: 0, subjects: ['size:all'] })).status, 201);
      assert.equal((await admin().post('/admin/quota/groups', { name: 'default' })).status, 201);
      assert.equal((await admin().post('/admin/quota/groups')).status, 422, 'missing options');
      assert.equal((await admin().post('/admin/quota/groups', { name: 'default' })).status, 409);
      assert.equal((await admin().put('/admin/quota/groups/default/rules/deny-all')).status, 204);
      assert.equal((await admin().put('/admin/quota/groups/does-not-exist/rules/deny-all')).status, 404);
      assert.equal((await admin().put('/admin/quota/groups/default/rules/does-not-exist')).status, 404);
      assert.deepEqual((await admin().get('/admin/quota/groups/default')).body, { name: 'default', rules: [{ name: 'deny-all', limit: 0, subjects: ['size:all'] }] });
      assert.equal((await admin().get('/admin/quota/groups/does-not-exist')).status, 404);
      assert.equal((await admin().delete('/admin/quota/groups/default/rules/deny-all')).status, 204);
      assert.equal((await admin().delete('/admin/quota/groups/does-not-exist/rules/deny-all')).status, 404);
      assert.equal((await admin().delete('/admin/quota/groups/default/rules/does-not-exist')).status, 404);
      assert.equal((await admin().delete('/admin/quota/groups/default/rules/deny-all')).status, 404, 'rule not in group');
      assert.equal((await admin().put('/admin/quota/groups/default/users/quota-empty-user')).status, 204);
      assert.equal((await admin().put('/admin/quota/groups/does-not-exist/users/quota-empty-user')).status, 404);
      assert.equal((await admin().put('/admin/quota/groups/default/users/this-user-does-not-exist')).status, 404);
      assert.equal((await admin().put('/admin/quota/groups/default/users/user1')).status, 204);
      assert.equal((await admin().put('/admin/quota/groups/default/users/user1')).status, 409, 'user already added');
      assert.deepEqual((await admin().get<Array<{ login: string }>>('/admin/quota/groups/default/users')).body.map((u) => u.login).sort(), ['quota-empty-user', 'user1']);
      assert.equal((await admin().delete('/admin/quota/groups/default/users/quota-empty-user')).status, 204);
      assert.equal((await admin().delete('/admin/quota/groups/does-not-exist/users/user1')).status, 404);
      assert.equal((await admin().delete('/admin/quota/groups/default/users/this-user-does-not-exist')).status, 404);
      assert.equal((await admin().delete('/admin/quota/groups/default/users/quota-empty-user')).status, 404, 'user not in group');
      assert.equal((await admin().post('/admin/users/quota-empty-user/quota/groups', { groups: ['default'] })).status, 204);
      assert.equal((await admin().post('/admin/users/this-user-does-not-exist/quota/groups', { groups: ['default'] })).status, 404);
      assert.equal((await admin().post('/admin/users/quota-empty-user/quota/groups', { groups: ['does-not-exist'] })).status, 422);
      assert.equal((await admin().delete('/admin/quota/groups/default')).status, 204);
      assert.equal((await admin().delete('/admin/quota/groups/does-not-exist')).status, 404);
    });

    it(`${USE} TestAPIQuotaUserBasics quota usage change: names hidden for the user, shown to the admin`, async () => {
      const rules = version === GEN1_VERSION ? ['all', 'repo-size', 'asset-size'] : ['repo-size', 'asset-size'];
      assert.equal(
        (
          await admin().post('/admin/quota/groups', {
            name: 'basics',
            rules: [
              { name: 'all', limit: 0, subjects: ['size:all'] },
              { name: 'repo-size', limit: 15 * 2 ** 20, subjects: ['size:repos:all'] },
              { name: 'asset-size', limit: 15 * 2 ** 20, subjects: ['size:assets:all'] },
            ].filter((r) => rules.includes(r.name)),
          })
        ).status,
        201,
      );
      assert.equal((await admin().put('/admin/quota/groups/basics/users/quota-enforcement')).status, 204);
      const user = client(server.baseUrl, USER);
      const own = (await user.get<QuotaInfo>('/user/quota')).body;
      assert.ok(own.used.size.repos.public > 0);
      assert.equal(own.groups[0].name, undefined);
      assert.equal(own.groups[0].rules[0].name, undefined);
      const adminView = (await admin().get<QuotaInfo>('/admin/users/quota-enforcement/quota')).body;
      assert.equal(adminView.groups[0].name, 'basics');
      assert.ok(adminView.groups[0].rules[0].name);
      assert.equal((await user.get('/user/quota/check?subject=size:repos:all')).body, true, 'quota check passing');
      assert.equal((await admin().patch('/admin/quota/rules/repo-size', { limit: 0 })).status, 200);
      assert.equal((await user.get('/user/quota/check?subject=size:repos:all')).body, false, 'quota check failing after limit change');
    });

    it(`${USE} TestAPIQuotaOrgQuotaQuery`, async () => {
      const user = client(server.baseUrl, USER);
      assert.ok((await user.get<QuotaInfo>('/user/quota')).body.used.size.repos.public > 0);
      assert.equal((await user.get<QuotaInfo>('/orgs/unlimited-org/quota')).body.used.size.repos.public, 0);
    });
  });
}

describe(`${MANAGEMENT} TestAPIQuotaDisabled`, () => {
  it('every quota route answers 404 while quota is disabled', async () => {
    const server = await startServer({ seed: writeTempFile('disabled.quota.json', instance(false)), args: ['--forgejo-version', GEN1_VERSION, '--log-level', 'silent'] });
    try {
      assert.equal((await client(server.baseUrl, ADMIN).get('/user/quota')).status, 404);
    } finally {
      await server.stop();
    }
  });
});

describe('integration cases that need routes the reference API does not have', () => {
  for (const name of INTEGRATION_CASES_WITHOUT_ROUTES) it.skip(name);
});
