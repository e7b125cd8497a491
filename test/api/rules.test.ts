import assert from 'node:assert/strict';
import type { QuotaRuleInfo } from '../../shared/api/types';
import { client, DEMO_TOKENS, errorMessage, request, startServer, type RunningServer } from './helpers';

describe('quota API: admin rules (/admin/quota/rules)', () => {
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

  describe('GET /admin/quota/rules', () => {
    it('200: lists every rule with its name, limit and subjects as stored', async () => {
      const response = await admin.get<QuotaRuleInfo[]>('/admin/quota/rules');
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /application\/json/);
      const byName = new Map(response.body.map((r) => [r.name, r]));
      assert.deepEqual(byName.get('repos-100m'), { name: 'repos-100m', limit: 100 * 1024 * 1024, subjects: ['size:repos:all'] });
      assert.ok(byName.has('org-assets-20m'));
    });

    it('401 without credentials, with "token is required"', async () => {
      const response = await request(server.baseUrl, 'GET', '/admin/quota/rules');
      assert.equal(response.status, 401);
      assert.equal(errorMessage(response), 'token is required');
    });

    it('401 with an unknown token', async () => {
      const response = await client(server.baseUrl, 'not-a-token').get('/admin/quota/rules');
      assert.equal(response.status, 401);
      errorMessage(response);
    });

    it('403 for a signed-in user who is not a site admin', async () => {
      const response = await alice.get('/admin/quota/rules');
      assert.equal(response.status, 403);
      assert.equal(errorMessage(response), 'user should be the site admin');
    });

    it('accepts `Bearer <token>` in any case as well as `token <token>`', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const response = await request(server.baseUrl, 'GET', '/admin/quota/rules', {
          headers: { authorization: `${scheme} ${DEMO_TOKENS.root}` },
        });
        assert.equal(response.status, 200, scheme);
      }
      const upperToken = await request(server.baseUrl, 'GET', '/admin/quota/rules', { headers: { authorization: `Token ${DEMO_TOKENS.root}` } });
      assert.equal(upperToken.status, 401, 'the word `token` is lower-case only, as in Forgejo');
    });
  });

  describe('POST /admin/quota/rules', () => {
    it('201: creates the rule and returns it; it is then listed and readable', async () => {
      const created = await admin.post<QuotaRuleInfo>('/admin/quota/rules', { name: 'post-ok', limit: 1024, subjects: ['size:git:lfs'] });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { name: 'post-ok', limit: 1024, subjects: ['size:git:lfs'] });
      const read = await admin.get<QuotaRuleInfo>('/admin/quota/rules/post-ok');
      assert.deepEqual(read.body, created.body);
    });

    it('stores the seed spellings (sizeall, sizelfs, size:wiki) exactly as given', async () => {
      const created = await admin.post<QuotaRuleInfo>('/admin/quota/rules', {
        name: 'aliases',
        limit: -1,
        subjects: ['sizeall', 'sizelfs', 'size:wiki'],
      });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body.subjects, ['sizeall', 'sizelfs', 'size:wiki']);
    });

    it('omits `subjects` when the rule has none, keeps limit 0', async () => {
      const created = await admin.post<QuotaRuleInfo>('/admin/quota/rules', { name: 'no-subjects', limit: 0 });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { name: 'no-subjects', limit: 0 });
    });

    it("409 when the name exists, with Forgejo's message", async () => {
      const response = await admin.post('/admin/quota/rules', { name: 'repos-100m', limit: 1, subjects: [] });
      assert.equal(response.status, 409);
      assert.equal(errorMessage(response), 'rule already exists: [name: repos-100m]');
    });

    it('422 when limit is absent or null', async () => {
      for (const body of [
        { name: 'no-limit', subjects: ['size:all'] },
        { name: 'no-limit', limit: null },
      ]) {
        const response = await admin.post('/admin/quota/rules', body);
        assert.equal(response.status, 422);
        assert.equal(errorMessage(response), '[Limit]: Required');
      }
      assert.equal((await admin.get('/admin/quota/rules/no-limit')).status, 404, 'nothing was stored');
    });

    it('422 for a subject that is not accepted (case-sensitive), naming it', async () => {
      for (const subject of ['size:bogus', 'Size:All', ' size:all']) {
        const response = await admin.post('/admin/quota/rules', { name: 'bad-subject', limit: 1, subjects: ['size:all', subject] });
        assert.equal(response.status, 422, subject);
        assert.equal(errorMessage(response), `unrecognized quota limit subject: [subject: ${subject}]`);
      }
    });

    it('422 for a missing, empty or blank name, and for a name containing "/"', async () => {
      for (const name of [undefined, '', '   ']) {
        const response = await admin.post('/admin/quota/rules', { name, limit: 1 });
        assert.equal(response.status, 422, JSON.stringify(name));
        assert.equal(errorMessage(response), '[Name]: Required');
      }
      const slash = await admin.post('/admin/quota/rules', { name: 'a/b', limit: 1 });
      assert.equal(slash.status, 422);
      assert.match(errorMessage(slash), /\[Name\]: a rule name must not contain "\/"/);
    });

    it('400 for a body of the wrong JSON type or a field of the wrong type', async () => {
      for (const json of [
        { name: 'x', limit: '5' },
        { name: 'x', limit: 1.5 },
        { name: 5, limit: 1 },
        { name: 'x', limit: 1, subjects: 'size:all' },
        { name: 'x', limit: 1, subjects: [1] },
        [],
        'text',
        7,
      ]) {
        const response = await admin.post('/admin/quota/rules', json);
        assert.equal(response.status, 400, JSON.stringify(json));
        assert.match(errorMessage(response), /^\[[^\]]+\]: must be /);
      }
    });

    it('403 for a non-admin, before looking at the body', async () => {
      const response = await alice.post('/admin/quota/rules', { name: 'x' });
      assert.equal(response.status, 403);
      errorMessage(response);
    });

    it('401 without credentials', async () => {
      const response = await request(server.baseUrl, 'POST', '/admin/quota/rules', { json: { name: 'x', limit: 1 } });
      assert.equal(response.status, 401);
    });
  });

  describe('GET /admin/quota/rules/{quotarule}', () => {
    it('200 with the rule', async () => {
      const response = await admin.get<QuotaRuleInfo>('/admin/quota/rules/lfs-50m');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { name: 'lfs-50m', limit: 50 * 1024 * 1024, subjects: ['size:git:lfs'] });
    });

    it('404 for an unknown rule, as QuotaRuleAssignmentAPI answers it (ctx.NotFound(): empty `errors`)', async () => {
      const response = await admin.get<{ errors: string[] }>('/admin/quota/rules/nope');
      assert.equal(response.status, 404);
      assert.equal(errorMessage(response), "The target couldn't be found.");
      assert.deepEqual(response.body.errors, []);
    });

    it('400 for a path segment that is not valid percent-encoding (GET, PATCH and DELETE)', async () => {
      for (const response of [await admin.get('/admin/quota/rules/%E0%A4%A'), await admin.patch('/admin/quota/rules/%E0%A4%A', { limit: 1 }), await admin.delete('/admin/quota/rules/%E0%A4%A')]) {
        assert.equal(response.status, 400);
        errorMessage(response);
      }
    });

    it('403 for a non-admin', async () => {
      assert.equal((await alice.get('/admin/quota/rules/lfs-50m')).status, 403);
    });
  });

  describe('PATCH /admin/quota/rules/{quotarule}', () => {
    before(async () => {
      assert.equal((await admin.post('/admin/quota/rules', { name: 'editable', limit: 10, subjects: ['size:all'] })).status, 201);
    });

    it('200: changes the limit only', async () => {
      const response = await admin.patch<QuotaRuleInfo>('/admin/quota/rules/editable', { limit: 20 });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { name: 'editable', limit: 20, subjects: ['size:all'] });
    });

    it('200: changes the subjects only; [] clears them', async () => {
      const changed = await admin.patch<QuotaRuleInfo>('/admin/quota/rules/editable', { subjects: ['sizelfs', 'size:assets:all'] });
      assert.deepEqual(changed.body, { name: 'editable', limit: 20, subjects: ['sizelfs', 'size:assets:all'] });
      const cleared = await admin.patch<QuotaRuleInfo>('/admin/quota/rules/editable', { subjects: [] });
      assert.deepEqual(cleared.body, { name: 'editable', limit: 20 });
    });

    it('200: an empty body, `{}` or `null` changes nothing; the name is not editable', async () => {
      for (const raw of ['', '{}', 'null', '{"name":"renamed"}']) {
        const response = await request<QuotaRuleInfo>(server.baseUrl, 'PATCH', '/admin/quota/rules/editable', { token: DEMO_TOKENS.root, raw });
        assert.equal(response.status, 200, raw);
        assert.deepEqual(response.body, { name: 'editable', limit: 20 });
      }
    });

    it('404 for an unknown rule (even with an invalid subject in the body)', async () => {
      const response = await admin.patch('/admin/quota/rules/nope', { subjects: ['bogus'] });
      assert.equal(response.status, 404);
      errorMessage(response);
    });

    it('422 for an unknown subject; the rule is unchanged', async () => {
      const response = await admin.patch('/admin/quota/rules/editable', { limit: 99, subjects: ['size:git:all', 'size:lfs'] });
      assert.equal(response.status, 422);
      assert.equal(errorMessage(response), 'unrecognized quota limit subject: [subject: size:lfs]');
      assert.equal((await admin.get<QuotaRuleInfo>('/admin/quota/rules/editable')).body.limit, 20);
    });

    it('400 for a wrong type, 403 for a non-admin', async () => {
      assert.equal((await admin.patch('/admin/quota/rules/editable', { limit: '30' })).status, 400);
      assert.equal((await admin.patch('/admin/quota/rules/editable', { subjects: {} })).status, 400);
      assert.equal((await alice.patch('/admin/quota/rules/editable', { limit: 1 })).status, 403);
    });
  });

  describe('DELETE /admin/quota/rules/{quotarule}', () => {
    it('204 with an empty body; the rule is gone and detached from its groups', async () => {
      assert.equal((await admin.post('/admin/quota/rules', { name: 'doomed', limit: 5, subjects: ['size:all'] })).status, 201);
      assert.equal((await admin.post('/admin/quota/groups', { name: 'doomed-group' })).status, 201);
      assert.equal((await admin.put('/admin/quota/groups/doomed-group/rules/doomed')).status, 204);
      const response = await admin.delete('/admin/quota/rules/doomed');
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assert.equal((await admin.get('/admin/quota/rules/doomed')).status, 404);
      assert.deepEqual((await admin.get('/admin/quota/groups/doomed-group')).body, { name: 'doomed-group', rules: [] });
    });

    it('404 for an unknown rule', async () => {
      const response = await admin.delete('/admin/quota/rules/never-was');
      assert.equal(response.status, 404);
      errorMessage(response);
    });

    it('403 for a non-admin, 401 without credentials', async () => {
      assert.equal((await alice.delete('/admin/quota/rules/lfs-50m')).status, 403);
      assert.equal((await request(server.baseUrl, 'DELETE', '/admin/quota/rules/lfs-50m')).status, 401);
      assert.equal((await admin.get('/admin/quota/rules/lfs-50m')).status, 200);
    });
  });
});
