import assert from 'node:assert/strict';
import type { QuotaInfo, QuotaUsedArtifact, QuotaUsedAttachment, QuotaUsedPackage, User } from '../../shared/api/types';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { client, DEMO_TOKENS, errorMessage, request, startServer, tempDir, writeTempFile, type RunningServer } from './helpers';

const MiB = 1024 * 1024;

describe('quota API: signed-in user and organization quota', () => {
  let server: RunningServer;
  let alice: ReturnType<typeof client>;
  let bob: ReturnType<typeof client>;
  let carol: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;

  before(async () => {
    server = await startServer();
    alice = client(server.baseUrl, DEMO_TOKENS.alice);
    bob = client(server.baseUrl, DEMO_TOKENS.bob);
    carol = client(server.baseUrl, DEMO_TOKENS.carol);
    admin = client(server.baseUrl, DEMO_TOKENS.root);
  });
  after(async () => {
    await server?.stop();
  });

  describe('GET /user and /version', () => {
    it('/user answers the signed-in user; 401 without credentials', async () => {
      const me = await alice.get<User>('/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.login, 'alice');
      assert.equal((await request(server.baseUrl, 'GET', '/user')).status, 401);
    });

    it('/version needs no credentials', async () => {
      const response = await request<{ version: string }>(server.baseUrl, 'GET', '/version');
      assert.equal(response.status, 200);
      assert.equal(typeof response.body.version, 'string');
    });
  });

  describe('GET /user/quota', () => {
    it('200: usage with upper-case LFS, and the default group with names hidden', async () => {
      const response = await bob.get<QuotaInfo>('/user/quota');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.used, {
        size: {
          repos: { public: 0, private: 140 * MiB },
          git: { LFS: 2 * MiB },
          // bob's only artifact is expired, and the attachment he uploaded is in alice's repo: alice pays.
          assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } },
        },
      });
      assert.deepEqual(response.body.groups, [
        {
          rules: [
            { limit: 100 * MiB, subjects: ['size:repos:all'] },
            { limit: 10 * MiB, subjects: ['size:assets:all'] },
            { limit: 50 * MiB, subjects: ['size:git:lfs'] },
          ],
        },
      ]);
    });

    it('200: an assigned group replaces the defaults', async () => {
      const response = await carol.get<QuotaInfo>('/user/quota');
      assert.deepEqual(response.body.groups, [{ rules: [{ limit: 5 * 1024 * MiB, subjects: ['size:all'] }] }]);
    });

    it('401 without credentials or with a malformed Authorization header', async () => {
      for (const authorization of [undefined, 'token', 'Basic abc', `token ${DEMO_TOKENS.alice} extra`]) {
        const response = await request(server.baseUrl, 'GET', '/user/quota', { headers: authorization ? { authorization } : {} });
        assert.equal(response.status, 401, String(authorization));
        errorMessage(response);
      }
    });
  });

  describe('GET /user/quota/check', () => {
    it('200 bare JSON booleans: bob is over his private-repo limit, alice is within it', async () => {
      const bobRepos = await bob.get('/user/quota/check?subject=size:repos:private');
      assert.equal(bobRepos.status, 200);
      assert.equal(bobRepos.text, 'false');
      assert.match(bobRepos.headers.get('content-type') ?? '', /application\/json/);
      assert.equal((await alice.get('/user/quota/check?subject=size:repos:private')).text, 'true');
      assert.equal((await bob.get('/user/quota/check?subject=size:git:lfs')).text, 'true');
    });

    it('accepts the seed aliases, evaluated by canonical meaning, and trims the subject', async () => {
      assert.equal((await bob.get('/user/quota/check?subject=sizelfs')).text, (await bob.get('/user/quota/check?subject=size:git:lfs')).text);
      assert.equal((await bob.get('/user/quota/check?subject=size:wiki')).text, 'true');
      assert.equal((await bob.get('/user/quota/check?subject=%20size:repos:private%20')).text, 'false');
    });

    it('422 for a missing, empty or unknown subject, naming it', async () => {
      for (const [query, named] of [
        ['', ''],
        ['?subject=', ''],
        ['?subject=size:bogus', 'size:bogus'],
        ['?subject=SIZE:ALL', 'SIZE:ALL'],
      ]) {
        const response = await bob.get(`/user/quota/check${query}`);
        assert.equal(response.status, 422, query);
        assert.equal(errorMessage(response), `unrecognized quota limit subject: [subject: ${named}]`);
      }
    });

    it('401 without credentials', async () => {
      assert.equal((await request(server.baseUrl, 'GET', '/user/quota/check?subject=size:all')).status, 401);
    });

    it('a repeated check follows every change at once: through the API and by another process', async () => {
      const dir = tempDir();
      const dbFile = path.join(dir, 'verdicts.sqlite');
      const own = await startServer({ db: dbFile });
      try {
        const root = client(own.baseUrl, DEMO_TOKENS.root);
        const bobOnOwn = client(own.baseUrl, DEMO_TOKENS.bob);
        assert.equal((await root.post('/admin/quota/groups', { name: 'tight', rules: [{ name: 'tight-rule', limit: 0, subjects: ['size:all'] }] })).status, 201);
        assert.equal((await root.post('/admin/users/bob/quota/groups', { groups: ['tight'] })).status, 204);
        assert.equal((await bobOnOwn.get('/user/quota/check?subject=size:all')).text, 'false');
        assert.equal((await bobOnOwn.get('/user/quota/check?subject=size:all')).text, 'false', 'asked twice');
        assert.equal((await root.patch('/admin/quota/rules/tight-rule', { limit: 2 ** 50 })).status, 200);
        assert.equal((await bobOnOwn.get('/user/quota/check?subject=size:all')).text, 'true', 'after the PATCH');
        const other = new Database(dbFile);
        try {
          other.prepare("UPDATE quota_rules SET limit_bytes = 0 WHERE name = 'tight-rule'").run();
        } finally {
          other.close();
        }
        assert.equal((await bobOnOwn.get('/user/quota/check?subject=size:all')).text, 'false', 'after another process wrote');
      } finally {
        await own.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('GET /user/quota/attachments|packages|artifacts', () => {
    it('attachments: only those in repos the user owns (the uploader never pays), with container URLs', async () => {
      const response = await alice.get<QuotaUsedAttachment[]>('/user/quota/attachments');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-total-count'), '1');
      assert.equal(response.headers.get('link'), null, 'one page: no Link header');
      assert.equal(response.body.length, 1);
      const [attachment] = response.body;
      assert.equal(attachment.name, 'diagram.svg');
      assert.equal(attachment.size, 200 * 1024);
      assert.equal(attachment.contained_in.api_url, `${server.baseUrl}/repos/alice/notes/issues/1`);
      assert.ok(attachment.api_url.startsWith(`${attachment.contained_in.api_url}/assets/`));
      const bobs = await bob.get<QuotaUsedAttachment[]>('/user/quota/attachments');
      assert.deepEqual(bobs.body, []);
      assert.equal(bobs.headers.get('x-total-count'), '0');
    });

    it('packages and artifacts: empty lists for a user who owns none; expired artifacts never listed', async () => {
      const packages = await bob.get<QuotaUsedPackage[]>('/user/quota/packages');
      assert.equal(packages.status, 200);
      assert.deepEqual(packages.body, []);
      const artifacts = await bob.get<QuotaUsedArtifact[]>('/user/quota/artifacts');
      assert.equal(artifacts.status, 200);
      assert.deepEqual(artifacts.body, [], 'bob owns only an expired artifact');
      assert.equal(artifacts.headers.get('x-total-count'), '0');
    });

    it("a page or limit that is not an integer counts as 0 (first page, default size), as Forgejo's FormInt does", async () => {
      const first = await alice.get('/orgs/acme/quota/attachments?limit=1');
      for (const query of ['?page=abc&limit=1', '?limit=1&page=1.5', '?page=1e3&limit=1']) {
        const response = await alice.get(`/orgs/acme/quota/attachments${query}`);
        assert.equal(response.status, 200, query);
        assert.deepEqual(response.body, first.body, query);
      }
      const defaultSize = await alice.get<unknown[]>('/orgs/acme/quota/attachments?limit=ten');
      assert.equal(defaultSize.status, 200);
      assert.equal(defaultSize.body.length, 2, "the default page size holds both of acme's attachments");
    });

    it('401 without credentials', async () => {
      for (const list of ['attachments', 'packages', 'artifacts']) {
        assert.equal((await request(server.baseUrl, 'GET', `/user/quota/${list}`)).status, 401);
      }
    });
  });

  describe('/orgs/{org}/quota…', () => {
    it('an owner sees the org quota: usage charged to the org, its assigned group, names hidden', async () => {
      const response = await alice.get<QuotaInfo>('/orgs/acme/quota');
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.used.size.assets, { attachments: { issues: 3 * MiB, releases: 12 * MiB }, artifacts: 2 * MiB, packages: { all: 4 * MiB } });
      assert.deepEqual(response.body.groups, [
        {
          rules: [
            { limit: 1024 * MiB, subjects: ['size:git:all'] },
            { limit: 20 * MiB, subjects: ['size:assets:all'] },
          ],
        },
      ]);
    });

    it('check, attachments, packages and artifacts answer for the org', async () => {
      // acme's assets: 3 + 12 + 2 + 4 = 21 MiB against 20 MiB → over quota.
      assert.equal((await alice.get('/orgs/acme/quota/check?subject=size:assets:artifacts')).text, 'false');
      assert.equal((await alice.get('/orgs/acme/quota/check?subject=size:repos:public')).text, 'true');
      const attachments = await alice.get<QuotaUsedAttachment[]>('/orgs/acme/quota/attachments');
      assert.deepEqual(
        attachments.body.map((a) => a.name),
        ['site-v1.zip', 'screenshot.png'],
        'largest first',
      );
      assert.match(attachments.body[0].contained_in.html_url, /\/acme\/site\/releases\/tag\/v1$/);
      // The API URL names the release by id, as Forgejo's Release.APIURL does (the seed's first release: 1).
      assert.match(attachments.body[0].contained_in.api_url, /\/api\/v1\/repos\/acme\/site\/releases\/1$/);
      assert.equal(attachments.body[0].api_url, `${attachments.body[0].contained_in.api_url}/assets/${attachments.body[0].api_url.split('/').pop()}`);
      const packages = await alice.get<QuotaUsedPackage[]>('/orgs/acme/quota/packages');
      assert.deepEqual(
        packages.body.map((p) => [p.name, p.type, p.version, p.size]),
        [['site', 'npm', '1.0.0', 4 * MiB]],
      );
      const artifacts = await alice.get<QuotaUsedArtifact[]>('/orgs/acme/quota/artifacts');
      assert.deepEqual(
        artifacts.body.map((a) => [a.name, a.size]),
        [['build', 2 * MiB]],
      );
      assert.match(artifacts.body[0].html_url, /\/acme\/site\/actions\/runs\/7$/);
    });

    it('a site admin may read any org; 422 for an unknown subject', async () => {
      assert.equal((await admin.get('/orgs/acme/quota')).status, 200);
      assert.equal((await admin.get('/orgs/acme/quota/check?subject=bogus')).status, 422);
    });

    it("403 for a user who is not an owner, with Forgejo's message", async () => {
      for (const p of ['/orgs/acme/quota', '/orgs/acme/quota/check?subject=size:all', '/orgs/acme/quota/attachments', '/orgs/acme/quota/packages', '/orgs/acme/quota/artifacts']) {
        const response = await bob.get(p);
        assert.equal(response.status, 403, p);
        assert.equal(errorMessage(response), 'Must be an organization owner');
      }
    });

    it('404 for an unknown org or a user name; 401 without credentials', async () => {
      assert.equal((await alice.get('/orgs/ghost/quota')).status, 404);
      assert.equal((await alice.get('/orgs/alice/quota')).status, 404);
      assert.equal((await request(server.baseUrl, 'GET', '/orgs/acme/quota')).status, 401);
    });
  });
});

describe('quota API: pagination of the usage lists', () => {
  let server: RunningServer;
  let pager: ReturnType<typeof client>;

  before(async () => {
    const attachments = Array.from({ length: 60 }, (_, i) => ({ repo: 'pager/big', name: `file-${i}`, size: 1000 + i, issue: 1 }));
    const seed = writeTempFile(
      'pager.quota.jsonc',
      JSON.stringify({
        enabled: true,
        accounts: [{ name: 'pager', type: 'user', token: 'pager-token' }],
        repos: [{ owner: 'pager', name: 'big', private: false, gitSize: 1, lfsSize: 0 }],
        attachments,
      }),
    );
    server = await startServer({ seed });
    pager = client(server.baseUrl, 'pager-token');
  });
  after(async () => {
    await server?.stop();
  });

  it('defaults to page 1 and 30 items, largest first, with X-Total-Count and next/last links', async () => {
    const response = await pager.get<QuotaUsedAttachment[]>('/user/quota/attachments');
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 30);
    assert.equal(response.body[0].name, 'file-59');
    assert.equal(response.headers.get('x-total-count'), '60');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /X-Total-Count/);
    assert.equal(response.headers.get('link'), `<${server.baseUrl}/user/quota/attachments?page=2>; rel="next",<${server.baseUrl}/user/quota/attachments?page=2>; rel="last"`);
  });

  it('a middle page links next, last, first and prev, keeping the other query parameters', async () => {
    const response = await pager.get<QuotaUsedAttachment[]>('/user/quota/attachments?limit=7&page=3');
    assert.deepEqual(
      response.body.map((a) => a.name),
      ['file-45', 'file-44', 'file-43', 'file-42', 'file-41', 'file-40', 'file-39'],
    );
    const url = (page: number) => `<${server.baseUrl}/user/quota/attachments?limit=7&page=${page}>`;
    assert.equal(response.headers.get('link'), `${url(4)}; rel="next",${url(9)}; rel="last",${url(1)}; rel="first",${url(2)}; rel="prev"`);
  });

  it('the last page links only first and prev; a page past the end is empty', async () => {
    const last = await pager.get<QuotaUsedAttachment[]>('/user/quota/attachments?limit=25&page=3');
    assert.equal(last.body.length, 10);
    assert.doesNotMatch(last.headers.get('link') ?? '', /rel="next"|rel="last"/);
    assert.match(last.headers.get('link') ?? '', /rel="first".*rel="prev"/);
    const past = await pager.get<QuotaUsedAttachment[]>('/user/quota/attachments?page=9');
    assert.deepEqual(past.body, []);
    assert.equal(past.headers.get('x-total-count'), '60');
  });

  it('limit above 50 is capped at 50; limit ≤ 0 means 30; page ≤ 0 means 1', async () => {
    assert.equal((await pager.get<unknown[]>('/user/quota/attachments?limit=500')).body.length, 50);
    assert.equal((await pager.get<unknown[]>('/user/quota/attachments?limit=0')).body.length, 30);
    assert.equal((await pager.get<unknown[]>('/user/quota/attachments?limit=-4')).body.length, 30);
    const pageZero = await pager.get<QuotaUsedAttachment[]>('/user/quota/attachments?page=0&limit=5');
    assert.equal(pageZero.body[0].name, 'file-59');
  });
});
