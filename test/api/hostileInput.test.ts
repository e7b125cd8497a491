/**
 * Hostile input through real HTTP: look-alike and invalid names, forged Host headers,
 * credentials hidden in odd query spellings, and a quota check that must read only the
 * account's own groups and rules.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { QuotaRuleInfo } from '../../shared/api/types';
import { client, DEMO_TOKENS, errorMessage, request, startServer, tempDir, type RunningServer } from './helpers';

/** A raw request whose Host header we choose (fetch refuses to send a forged one). */
function rawGet(baseUrl: string, pathAndQuery: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path: url.pathname + pathAndQuery, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const LIST_ROUTES = ['/user/quota/attachments', '/user/quota/packages', '/user/quota/artifacts'];
const ORG_LIST_ROUTES = ['/orgs/acme/quota/attachments', '/orgs/acme/quota/packages', '/orgs/acme/quota/artifacts'];

describe('quota API: hostile input', () => {
  describe('names', () => {
    let server: RunningServer;
    let admin: ReturnType<typeof client>;
    before(async () => {
      server = await startServer();
      admin = client(server.baseUrl, DEMO_TOKENS.root);
    });
    after(async () => {
      await server?.stop();
      assert.doesNotMatch(server.stderr(), /"status":5\d\d/, 'no request answered 5xx');
    });

    it('a lone UTF-16 surrogate in a rule, group or inline rule name → 422, nothing stored', async () => {
      const post = (p: string, raw: string) => request(server.baseUrl, 'POST', p, { token: DEMO_TOKENS.root, raw });
      for (const [p, raw] of [
        ['/admin/quota/rules', '{"name":"\\ud800","limit":1}'],
        ['/admin/quota/rules', '{"name":"ok\\udc00x","limit":1}'],
        ['/admin/quota/groups', '{"name":"\\ud800"}'],
        ['/admin/quota/groups', '{"name":"g-surrogate","rules":[{"name":"\\ud800","limit":1}]}'],
      ] as const) {
        const response = await post(p, raw);
        assert.equal(response.status, 422, raw);
        assert.match(errorMessage(response), /valid Unicode/, raw);
      }
      const rules = await admin.get<QuotaRuleInfo[]>('/admin/quota/rules');
      assert.ok(
        rules.body.every((rule) => !/[\ud800-\udfff]/.test(rule.name!.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))),
        'no stored name is invalid Unicode',
      );
      assert.equal((await admin.get('/admin/quota/groups/g-surrogate')).status, 404, 'the group was not created either');
    });

    it('look-alike names are refused: bidi override, zero-width space, BOM, control, leading/trailing space', async () => {
      const cases: Array<[string, RegExp]> = [
        ['evil\u202Egnp', /U\+202E RIGHT-TO-LEFT OVERRIDE/],
        ['zero\u200Bwidth', /U\+200B ZERO WIDTH SPACE/],
        ['\uFEFFbom', /U\+FEFF BYTE ORDER MARK/],
        ['isolate\u2066x', /U\+2066/],
        ['bell\u0007', /control character U\+0007/],
        [' leading', /white space/],
        ['trailing ', /white space/],
        ['trailing\u00A0', /white space/],
      ];
      for (const [name, reason] of cases) {
        for (const [p, kind] of [
          ['/admin/quota/rules', 'rule'],
          ['/admin/quota/groups', 'group'],
        ] as const) {
          const response = await admin.post(p, { name, limit: 1 });
          assert.equal(response.status, 422, `${kind} ${JSON.stringify(name)}`);
          const message = errorMessage(response);
          assert.match(message, reason, message);
          assert.match(message, new RegExp(`^\\[Name\\]: a ${kind} name`), message);
        }
      }
    });

    it('NFC and NFD spellings are one name: the second create is a 409, and either spelling finds it', async () => {
      const nfc = 'caf\u00e9-rule';
      const nfd = 'cafe\u0301-rule';
      assert.equal((await admin.post('/admin/quota/rules', { name: nfd, limit: 5 })).status, 201);
      const again = await admin.post('/admin/quota/rules', { name: nfc, limit: 6 });
      assert.equal(again.status, 409);
      for (const spelling of [nfc, nfd]) {
        const read = await admin.get<QuotaRuleInfo>(`/admin/quota/rules/${encodeURIComponent(spelling)}`);
        assert.equal(read.status, 200, JSON.stringify(spelling));
        assert.equal(read.body.name, nfc, 'stored in NFC');
      }
      const groupNfd = 'gr\u00fcn'.normalize('NFD');
      assert.equal((await admin.post('/admin/quota/groups', { name: groupNfd })).status, 201);
      assert.equal((await admin.post('/admin/quota/groups', { name: 'gr\u00fcn' })).status, 409);
      assert.equal((await admin.put(`/admin/quota/groups/${encodeURIComponent('gr\u00fcn')}/rules/${encodeURIComponent(nfd)}`)).status, 204);
      const listed = (await admin.get<QuotaRuleInfo[]>('/admin/quota/rules')).body.filter((r) => r.name!.normalize('NFC') === nfc);
      assert.equal(listed.length, 1);
    });
  });

  describe('Host header and absolute URLs', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
    });
    after(async () => {
      await server?.stop();
    });

    it('a malformed Host header never answers 500 on the paginated lists', async () => {
      for (const host of ['[', 'a b', '%', 'x:99999']) {
        for (const route of [...LIST_ROUTES, ...ORG_LIST_ROUTES]) {
          const response = await rawGet(server.baseUrl, `${route}?limit=1`, { host, authorization: `token ${DEMO_TOKENS.alice}` });
          assert.ok(response.status < 500, `Host ${JSON.stringify(host)} on ${route}: ${response.status} ${response.text}`);
        }
      }
    });

    it('absolute URLs default to the listening address and never reflect the Host header', async () => {
      const origin = new URL(server.baseUrl).origin;
      const response = await rawGet(server.baseUrl, '/orgs/acme/quota/attachments?limit=1', {
        host: 'evil.example',
        authorization: `token ${DEMO_TOKENS.alice}`,
      });
      assert.equal(response.status, 200, response.text);
      assert.doesNotMatch(response.text + String(response.headers.link), /evil\.example/);
      const body = JSON.parse(response.text) as Array<{ api_url: string }>;
      assert.ok(body[0].api_url.startsWith(`${origin}/api/v1/repos/acme/site/`), body[0].api_url);
      assert.ok(String(response.headers.link).startsWith(`<${origin}/api/v1/orgs/acme/quota/attachments?`), String(response.headers.link));
      const user = await rawGet(server.baseUrl, '/user', { host: 'evil.example', authorization: `token ${DEMO_TOKENS.alice}` });
      assert.doesNotMatch(user.text, /evil\.example/);
      const error = await rawGet(server.baseUrl, '/nowhere', { host: 'evil.example' });
      assert.equal(JSON.parse(error.text).url, `${origin}/api/swagger`);
    });

    it('--public-url sets the base of every absolute URL', async () => {
      const proxied = await startServer({ args: ['--public-url', 'https://forge.example/git'] });
      try {
        const response = await rawGet(proxied.baseUrl, '/orgs/acme/quota/attachments?limit=1', {
          host: 'evil.example',
          authorization: `token ${DEMO_TOKENS.alice}`,
        });
        const body = JSON.parse(response.text) as Array<{ api_url: string; contained_in: { html_url: string } }>;
        assert.ok(body[0].api_url.startsWith('https://forge.example/git/api/v1/repos/acme/site/'), body[0].api_url);
        assert.ok(body[0].contained_in.html_url.startsWith('https://forge.example/git/acme/site/'), body[0].contained_in.html_url);
        assert.ok(String(response.headers.link).startsWith('<https://forge.example/git/api/v1/orgs/acme/quota/attachments?'), String(response.headers.link));
        const error = await rawGet(proxied.baseUrl, '/nowhere', { host: 'evil.example' });
        assert.equal(JSON.parse(error.text).url, 'https://forge.example/git/api/swagger');
      } finally {
        await proxied.stop();
      }
      const bad = await startServer({ args: ['--public-url', 'not a url'] }).then(
        (s) => s.stop().then(() => 'started'),
        (error: Error) => error.message,
      );
      assert.match(bad, /--public-url/);
    });
  });

  describe('request log', () => {
    it('never logs a credential, however the query spells its key', async () => {
      const server = await startServer({ args: ['--log-level', 'info'] });
      const secrets = ['SECRET-A', 'SECRET-B', 'SECRET-C', 'SECRET-D', 'SECRET-E', 'SECRET-F'];
      try {
        for (const query of [
          `?%74oken=${secrets[0]}`,
          `?token%5B%5D=${secrets[1]}`,
          `?x=1;token=${secrets[2]}`,
          `?authorization=${secrets[3]}`,
          `?TOKEN=${secrets[4]}&page=1`,
          `?access%5Ftoken=${secrets[5]}`,
        ]) {
          await request(server.baseUrl, 'GET', `/version${query}`);
        }
        await request(server.baseUrl, 'GET', '/user/quota/attachments?page=2&limit=1', { token: DEMO_TOKENS.alice });
      } finally {
        await server.stop();
      }
      const log = server.stderr();
      for (const secret of secrets) assert.ok(!log.includes(secret), `${secret} leaked into the log`);
      assert.match(log, /"url":"\/api\/v1\/user\/quota\/attachments\?page=2&limit=1"/, 'harmless query values stay readable');
    });
  });

  describe("quota check reads only the account's groups and rules", () => {
    it("a damaged rule of an unrelated group does not affect another account's check", async () => {
      const db = path.join(tempDir(), 'scale.sqlite');
      const first = await startServer({ db });
      await first.stop();
      // Write a rule whose stored subjects cannot be read, in a group nobody in the demo uses.
      const raw = new Database(db);
      raw.prepare("INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES ('damaged', 1, 'not json')").run();
      raw.prepare("INSERT INTO quota_groups (name) VALUES ('unrelated')").run();
      raw.prepare("INSERT INTO quota_group_rules (group_id, rule_id) SELECT g.id, r.id FROM quota_groups g, quota_rules r WHERE g.name = 'unrelated' AND r.name = 'damaged'").run();
      raw.close();
      const server = await startServer({ db, seed: null });
      try {
        const bob = client(server.baseUrl, DEMO_TOKENS.bob);
        const check = await bob.get('/user/quota/check?subject=size:repos:all');
        assert.equal(check.status, 200, check.text);
        assert.equal(check.body, false, "bob's private repo is over the free plan");
        const carol = await client(server.baseUrl, DEMO_TOKENS.carol).get('/user/quota');
        assert.equal(carol.status, 200, carol.text);
      } finally {
        await server.stop();
      }
    });
  });
});

describe('quota API: a create racing a delete in another process', () => {
  it('a create that committed answers 201 with the rule, never 404', async () => {
    // The race window is microseconds wide, so a trigger stands for the other process: it
    // deletes the rule right after the insert committed, before any later read-back.
    const db = path.join(tempDir(), 'race.sqlite');
    const first = await startServer({ db });
    await first.stop();
    const raw = new Database(db);
    raw.exec(`CREATE TRIGGER other_process_deletes AFTER INSERT ON quota_rules WHEN NEW.name = 'contested'
              BEGIN DELETE FROM quota_rules WHERE id = NEW.id; END`);
    raw.close();
    const server = await startServer({ db, seed: null });
    try {
      const created = await client(server.baseUrl, DEMO_TOKENS.root).post<QuotaRuleInfo>('/admin/quota/rules', { name: 'contested', limit: 7 });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body, { name: 'contested', limit: 7 });
    } finally {
      await server.stop();
    }
  });
});
