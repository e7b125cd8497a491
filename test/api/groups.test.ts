import assert from 'node:assert/strict';
import type { QuotaGroup, QuotaInfo, User } from '../../shared/api/types';
import { client, DEMO_TOKENS, errorMessage, request, startServer, type RunningServer } from './helpers';

describe('quota API: groups, group rules, group users, admin user quota', () => {
  let server: RunningServer;
  let admin: ReturnType<typeof client>;
  let alice: ReturnType<typeof client>;

  before(async () => {
    server = await startServer();
    admin = client(server.baseUrl, DEMO_TOKENS.root);
    alice = client(server.baseUrl, DEMO_TOKENS.alice);
  });
  after(async () => {
    await server?.stop();
  });

  describe('/admin/quota/groups', () => {
    it('GET 200 lists groups with names and named rules', async () => {
      const response = await admin.get<QuotaGroup[]>('/admin/quota/groups');
      assert.equal(response.status, 200);
      const pro = response.body.find((g) => g.name === 'pro');
      assert.deepEqual(pro, { name: 'pro', rules: [{ name: 'pro-total-5g', limit: 5 * 1024 ** 3, subjects: ['size:all'] }] });
    });

    it('GET 403 for a non-admin, 401 without credentials', async () => {
      assert.equal((await alice.get('/admin/quota/groups')).status, 403);
      assert.equal((await request(server.baseUrl, 'GET', '/admin/quota/groups')).status, 401);
    });

    it('POST 201 creates a group with inline rules: existing ones attached unchanged, new ones created (limit 0 when absent)', async () => {
      const response = await admin.post<QuotaGroup>('/admin/quota/groups', {
        name: 'inline',
        rules: [
          { name: 'lfs-50m', limit: 1, subjects: ['size:all'] },
          { name: 'inline-new', subjects: ['sizelfs'] },
          { name: 'inline-limited', limit: 7 },
        ],
      });
      assert.equal(response.status, 201);
      assert.deepEqual(response.body, {
        name: 'inline',
        rules: [
          { name: 'lfs-50m', limit: 50 * 1024 * 1024, subjects: ['size:git:lfs'] },
          { name: 'inline-new', limit: 0, subjects: ['sizelfs'] },
          { name: 'inline-limited', limit: 7 },
        ],
      });
      assert.equal((await admin.get('/admin/quota/rules/inline-new')).status, 200);
    });

    it('POST 201 with no rules gives `rules: []`', async () => {
      const response = await admin.post<QuotaGroup>('/admin/quota/groups', { name: 'empty' });
      assert.equal(response.status, 201);
      assert.deepEqual(response.body, { name: 'empty', rules: [] });
    });

    it('POST 409 for an existing group', async () => {
      const response = await admin.post('/admin/quota/groups', { name: 'free' });
      assert.equal(response.status, 409);
      assert.equal(errorMessage(response), 'group already exists: [name: free]');
    });

    it('POST 422 for a missing name, an unknown inline subject, or a rule named twice; nothing is stored', async () => {
      assert.equal((await admin.post('/admin/quota/groups', {})).status, 422);
      const badSubject = await admin.post('/admin/quota/groups', { name: 'g-bad', rules: [{ name: 'g-bad-r', limit: 1, subjects: ['size:nope'] }] });
      assert.equal(badSubject.status, 422);
      assert.equal(errorMessage(badSubject), 'unrecognized quota limit subject: [subject: size:nope]');
      const twice = await admin.post('/admin/quota/groups', {
        name: 'g-twice',
        rules: [
          { name: 'twice-r', limit: 1 },
          { name: 'twice-r', limit: 2 },
        ],
      });
      assert.equal(twice.status, 422);
      errorMessage(twice);
      assert.equal((await admin.get('/admin/quota/groups/g-bad')).status, 404);
      assert.equal((await admin.get('/admin/quota/groups/g-twice')).status, 404);
      assert.equal((await admin.get('/admin/quota/rules/twice-r')).status, 404, 'the transaction rolled back the first inline rule');
    });

    it('POST 400 for wrong types, 403 for a non-admin', async () => {
      assert.equal((await admin.post('/admin/quota/groups', { name: 'x', rules: {} })).status, 400);
      assert.equal((await admin.post('/admin/quota/groups', { name: 'x', rules: [{ name: 'r', limit: 'big' }] })).status, 400);
      assert.equal((await alice.post('/admin/quota/groups', { name: 'x' })).status, 403);
    });

    it('GET one: 200 / 404', async () => {
      assert.deepEqual((await admin.get('/admin/quota/groups/empty')).body, { name: 'empty', rules: [] });
      const missing = await admin.get<{ errors: string[] }>('/admin/quota/groups/ghost');
      assert.equal(missing.status, 404);
      // QuotaGroupAssignmentAPI answers ctx.NotFound(): no reason in `errors`.
      assert.deepEqual(missing.body.errors, []);
    });

    it('DELETE 204 removes the group and its memberships but keeps its rules; 404 afterwards', async () => {
      assert.equal((await admin.post('/admin/quota/groups', { name: 'short-lived', rules: [{ name: 'kept-rule', limit: 3 }] })).status, 201);
      assert.equal((await admin.put('/admin/quota/groups/short-lived/users/bob')).status, 204);
      const response = await admin.delete('/admin/quota/groups/short-lived');
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assert.equal((await admin.get('/admin/quota/groups/short-lived')).status, 404);
      assert.equal((await admin.get('/admin/quota/rules/kept-rule')).status, 200);
      const bob = await admin.get<QuotaInfo>('/admin/users/bob/quota');
      assert.deepEqual(
        bob.body.groups.map((g) => g.name),
        ['free'],
        'bob fell back to the default group',
      );
      assert.equal((await admin.delete('/admin/quota/groups/short-lived')).status, 404);
      assert.equal((await alice.delete('/admin/quota/groups/free')).status, 403);
    });
  });

  describe('/admin/quota/groups/{group}/rules/{rule}', () => {
    before(async () => {
      assert.equal((await admin.post('/admin/quota/groups', { name: 'gr' })).status, 201);
    });

    it('PUT 204 attaches; 409 when already attached', async () => {
      assert.equal((await admin.put('/admin/quota/groups/gr/rules/lfs-50m')).status, 204);
      assert.deepEqual(
        (await admin.get<QuotaGroup>('/admin/quota/groups/gr')).body.rules.map((r) => r.name),
        ['lfs-50m'],
      );
      const again = await admin.put('/admin/quota/groups/gr/rules/lfs-50m');
      assert.equal(again.status, 409);
      assert.equal(errorMessage(again), 'rule already in group: [group: gr, rule: lfs-50m]');
    });

    it('PUT 404 for an unknown group or rule', async () => {
      assert.equal((await admin.put('/admin/quota/groups/ghost/rules/lfs-50m')).status, 404);
      assert.equal((await admin.put('/admin/quota/groups/gr/rules/ghost')).status, 404);
    });

    it('DELETE 204 detaches; 404 when not attached or unknown', async () => {
      assert.equal((await admin.delete('/admin/quota/groups/gr/rules/lfs-50m')).status, 204);
      const notIn = await admin.delete<{ errors: string[] }>('/admin/quota/groups/gr/rules/lfs-50m');
      assert.equal(notIn.status, 404);
      // RemoveRuleFromQuotaGroup answers ErrRuleNotInGroup with ctx.NotFound(): no reason in `errors`.
      assert.deepEqual(notIn.body.errors, []);
      assert.equal((await admin.delete('/admin/quota/groups/ghost/rules/lfs-50m')).status, 404);
      assert.equal((await admin.delete('/admin/quota/groups/gr/rules/ghost')).status, 404);
    });

    it('403 for a non-admin', async () => {
      assert.equal((await alice.put('/admin/quota/groups/gr/rules/lfs-50m')).status, 403);
      assert.equal((await alice.delete('/admin/quota/groups/gr/rules/lfs-50m')).status, 403);
    });
  });

  describe('/admin/quota/groups/{group}/users[/{user}]', () => {
    before(async () => {
      assert.equal((await admin.post('/admin/quota/groups', { name: 'members' })).status, 201);
    });

    it('PUT 204 adds a member; GET lists users; 409 when already a member', async () => {
      assert.equal((await admin.put('/admin/quota/groups/members/users/alice')).status, 204);
      const users = await admin.get<User[]>('/admin/quota/groups/members/users');
      assert.equal(users.status, 200);
      assert.deepEqual(
        users.body.map((u) => [u.login, u.is_admin]),
        [['alice', false]],
      );
      assert.equal(typeof users.body[0].id, 'number');
      const again = await admin.put('/admin/quota/groups/members/users/alice');
      assert.equal(again.status, 409);
      assert.match(errorMessage(again), /^user already in group: \[group: members, userID: \d+\]$/);
    });

    it('GET 404 for an unknown group; PUT 404 for an unknown group or user', async () => {
      assert.equal((await admin.get('/admin/quota/groups/ghost/users')).status, 404);
      assert.equal((await admin.put('/admin/quota/groups/ghost/users/alice')).status, 404);
      assert.equal((await admin.put('/admin/quota/groups/members/users/nobody')).status, 404);
    });

    it('DELETE 204 removes; 404 when not a member, unknown user or group', async () => {
      assert.equal((await admin.delete('/admin/quota/groups/members/users/alice')).status, 204);
      assert.deepEqual((await admin.get('/admin/quota/groups/members/users')).body, []);
      const notMember = await admin.delete('/admin/quota/groups/members/users/alice');
      assert.equal(notMember.status, 404);
      assert.equal((await admin.delete('/admin/quota/groups/members/users/nobody')).status, 404);
      assert.equal((await admin.delete('/admin/quota/groups/ghost/users/alice')).status, 404);
    });

    it('403 for a non-admin', async () => {
      assert.equal((await alice.get('/admin/quota/groups/members/users')).status, 403);
      assert.equal((await alice.put('/admin/quota/groups/members/users/alice')).status, 403);
      assert.equal((await alice.delete('/admin/quota/groups/members/users/alice')).status, 403);
    });
  });

  describe('/admin/users/{user}/quota', () => {
    it('GET 200: usage and the applying groups with names (assigned group)', async () => {
      const response = await admin.get<QuotaInfo>('/admin/users/carol/quota');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.groups, [{ name: 'pro', rules: [{ name: 'pro-total-5g', limit: 5 * 1024 ** 3, subjects: ['size:all'] }] }]);
      assert.deepEqual(response.body.used.size.git, { LFS: 2 * 1024 ** 3 });
      assert.equal(response.body.used.size.repos.public, 800 * 1024 * 1024);
    });

    it('GET 404 for an unknown user, 403 for a non-admin', async () => {
      assert.equal((await admin.get('/admin/users/nobody/quota')).status, 404);
      assert.equal((await alice.get('/admin/users/carol/quota')).status, 403);
    });

    it('POST groups 204 replaces the explicit groups; [] falls back to the defaults', async () => {
      assert.equal((await admin.post('/admin/users/bob/quota/groups', { groups: ['pro', 'org', 'pro'] })).status, 204);
      let groups = (await admin.get<QuotaInfo>('/admin/users/bob/quota')).body.groups.map((g) => g.name);
      assert.deepEqual(groups, ['pro', 'org']);
      assert.equal((await admin.post('/admin/users/bob/quota/groups', { groups: [] })).status, 204);
      groups = (await admin.get<QuotaInfo>('/admin/users/bob/quota')).body.groups.map((g) => g.name);
      assert.deepEqual(groups, ['free']);
    });

    it('POST groups is all or nothing: 422 for an unknown group leaves the old groups', async () => {
      assert.equal((await admin.post('/admin/users/bob/quota/groups', { groups: ['org'] })).status, 204);
      const response = await admin.post('/admin/users/bob/quota/groups', { groups: ['pro', 'ghost'] });
      assert.equal(response.status, 422);
      assert.equal(errorMessage(response), 'group not found: [group: ghost]');
      const groups = (await admin.get<QuotaInfo>('/admin/users/bob/quota')).body.groups.map((g) => g.name);
      assert.deepEqual(groups, ['org']);
    });

    it('POST groups without `groups` changes nothing (204); 404 unknown user; 400 wrong type; 403 non-admin', async () => {
      assert.equal((await admin.post('/admin/users/bob/quota/groups', {})).status, 204);
      assert.deepEqual(
        (await admin.get<QuotaInfo>('/admin/users/bob/quota')).body.groups.map((g) => g.name),
        ['org'],
      );
      assert.equal((await admin.post('/admin/users/nobody/quota/groups', { groups: [] })).status, 404);
      assert.equal((await admin.post('/admin/users/nobody/quota/groups', {})).status, 404);
      assert.equal((await admin.post('/admin/users/bob/quota/groups', { groups: 'pro' })).status, 400);
      assert.equal((await alice.post('/admin/users/bob/quota/groups', { groups: [] })).status, 403);
    });
  });
});
