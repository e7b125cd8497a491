/** The `quota-api` command line: flags, tokens, seeding, shutdown, logging. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { User } from '../../shared/api/types';
import { client, DEMO_SEED, DEMO_TOKENS, errorMessage, request, runCli, startServer, tempDir, writeTempFile } from './helpers';

describe('quota-api command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints http://HOST:PORT/api/v1 once listening, with the free port --port 0 picked', async () => {
    const server = await startServer();
    try {
      const match = /^http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/.exec(server.baseUrl);
      assert.ok(match, server.baseUrl);
      assert.notEqual(Number(match[1]), 0);
      assert.equal((await request(server.baseUrl, 'GET', '/version')).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('token create prints a new token that works; only its hash is stored; --admin grants site admin', async () => {
    const db = path.join(dir, 'tokens.sqlite');
    const user = await runCli(['token', 'create', 'dave', '--db', db]);
    assert.equal(user.code, 0, user.stderr);
    const token = user.stdout.trim();
    assert.match(token, /^[0-9a-f]{40}$/);
    const adminRun = await runCli(['token', 'create', 'eve', '--admin', '--db', db]);
    assert.equal(adminRun.code, 0, adminRun.stderr);
    const adminToken = adminRun.stdout.trim();

    const server = await startServer({ db, seed: null });
    try {
      const me = await client(server.baseUrl, token).get<User>('/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.login, 'dave');
      assert.equal((await client(server.baseUrl, token).get('/admin/quota/rules')).status, 403);
      assert.equal((await client(server.baseUrl, adminToken).get('/admin/quota/rules')).status, 200);
      // A token created while the server runs works at once.
      const later = await runCli(['token', 'create', 'dave', '--db', db]);
      assert.equal((await client(server.baseUrl, later.stdout.trim()).get('/user/quota')).status, 200);
    } finally {
      await server.stop();
    }
    const stored = new Database(db, { readonly: true });
    try {
      const hashes = stored.prepare('SELECT token_sha256 FROM tokens').pluck().all() as string[];
      assert.equal(hashes.length, 3);
      assert.ok(!hashes.includes(token) && !hashes.includes(adminToken));
    } finally {
      stored.close();
    }
    for (const file of fs.readdirSync(dir)) {
      const bytes = fs.readFileSync(path.join(dir, file)).toString('latin1');
      assert.ok(!bytes.includes(token), `${file} holds a token in plain text`);
    }
  });

  it('token create refuses an organization and a missing account name', async () => {
    const db = path.join(dir, 'org.sqlite');
    const seeded = await startServer({ db });
    await seeded.stop();
    const org = await runCli(['token', 'create', 'acme', '--db', db]);
    assert.equal(org.code, 1);
    assert.match(org.stderr, /acme is an organization/);
    const missing = await runCli(['token', 'create', '--db', db]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs an account name/);
  });

  it('token create applies the name rule and finds an existing account without case', async () => {
    const db = path.join(dir, 'names.sqlite');
    const seeded = await startServer({ db });
    await seeded.stop();
    for (const [name, reason] of [
      [' bob', /must not begin or end with white space/],
      ['a/b', /must not contain "\/"/],
      ['ev\u202Eil', /RIGHT-TO-LEFT OVERRIDE/],
      ['\t', /white space|control character/],
    ] as const) {
      const run = await runCli(['token', 'create', name, '--db', db]);
      assert.equal(run.code, 2, `${JSON.stringify(name)}: ${run.stderr}`);
      assert.match(run.stderr, reason);
      assert.equal(run.stdout, '', 'no token printed');
    }
    const upper = await runCli(['token', 'create', 'ALICE', '--db', db]);
    assert.equal(upper.code, 0, upper.stderr);
    const decomposed = await runCli(['token', 'create', 'Jose\u0301', '--db', db]);
    assert.equal(decomposed.code, 0, decomposed.stderr);
    const server = await startServer({ db, seed: null });
    try {
      assert.equal((await client(server.baseUrl, upper.stdout.trim()).get<User>('/user')).body.login, 'alice');
      assert.equal((await client(server.baseUrl, decomposed.stdout.trim()).get<User>('/user')).body.login, 'Jos\u00e9');
    } finally {
      await server.stop();
    }
    const stored = new Database(db, { readonly: true });
    try {
      const names = stored.prepare("SELECT name FROM accounts WHERE name LIKE 'alice' OR name LIKE 'a/b' OR name LIKE ' bob'").pluck().all();
      assert.deepEqual(names, ['alice'], 'no second account for ALICE, none for refused names');
    } finally {
      stored.close();
    }
  });

  it('usage errors exit 2 with a message and the usage text; --help exits 0', async () => {
    for (const args of [['--port', 'abc'], ['--port', '70000'], ['--bogus'], ['token'], ['serve-now'], ['--log-level', 'loud']]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage:/);
    }
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /quota-api token create <account>/);
  });

  it('refuses to start on a seed file with errors, printing located messages', async () => {
    const seed = writeTempFile('broken.quota.jsonc', '{\n  "rules": [ { "name": "r", "subjects": ["size:bogus"] } ]\n}\n');
    const result = await runCli(['--port', '0', '--db', ':memory:', '--seed', seed]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`${seed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: error unknown-subject`));
    assert.equal(result.stdout, '', 'never listened');
    const unreadable = await runCli(['--port', '0', '--db', ':memory:', '--seed', path.join(dir, 'missing.jsonc')]);
    assert.equal(unreadable.code, 2);
    assert.match(unreadable.stderr, /cannot read seed file/);
  });

  it('loads the seed only into an empty database; a restart keeps changes made through the API', async () => {
    const db = path.join(dir, 'persist.sqlite');
    let server = await startServer({ db });
    await client(server.baseUrl, DEMO_TOKENS.root).delete('/admin/quota/rules/lfs-50m');
    await client(server.baseUrl, DEMO_TOKENS.root).post('/admin/quota/rules', { name: 'added', limit: 1 });
    await server.stop();
    server = await startServer({ db, seed: DEMO_SEED });
    try {
      const admin = client(server.baseUrl, DEMO_TOKENS.root);
      assert.equal((await admin.get('/admin/quota/rules/lfs-50m')).status, 404, 'the seed did not come back');
      assert.equal((await admin.get('/admin/quota/rules/added')).status, 200);
      assert.match(server.stderr(), /already holds data; the seed .* was not loaded/);
    } finally {
      await server.stop();
    }
  });

  it('quota disabled: every quota route answers 404, even without credentials; /version still answers', async () => {
    const seed = writeTempFile('disabled.quota.jsonc', JSON.stringify({ enabled: false, accounts: [{ name: 'root', type: 'user', admin: true, token: 'off-root' }] }));
    const server = await startServer({ seed });
    try {
      for (const p of ['/user/quota', '/user/quota/check?subject=size:all', '/user/quota/attachments', '/admin/quota/rules', '/admin/quota/groups', '/admin/users/root/quota', '/orgs/x/quota']) {
        for (const token of [undefined, 'off-root']) {
          const response = await request(server.baseUrl, 'GET', p, { token });
          assert.equal(response.status, 404, `${p} ${token ?? 'anonymous'}`);
          errorMessage(response);
        }
      }
      assert.equal((await request(server.baseUrl, 'POST', '/admin/quota/rules', { token: 'off-root', json: { name: 'x', limit: 1 } })).status, 404);
      assert.equal((await request(server.baseUrl, 'GET', '/version')).status, 200);
      assert.equal((await request(server.baseUrl, 'GET', '/user', { token: 'off-root' })).status, 200);
    } finally {
      await server.stop();
    }
  });

  it('shuts down gracefully on SIGTERM and SIGINT (exit 0)', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = await startServer();
      const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
      server.child.kill(signal);
      assert.equal(await exited, 0, signal);
      assert.match(server.stderr(), /"msg":"shutting down"/);
    }
  });

  it('logs one JSON line per request with method, route, status and account, never a token', async () => {
    const server = await startServer();
    try {
      await client(server.baseUrl, DEMO_TOKENS.alice).get('/user/quota/check?subject=size:all');
      await request(server.baseUrl, 'GET', `/user/quota?token=${DEMO_TOKENS.bob}`, { headers: { authorization: `Bearer ${DEMO_TOKENS.carol}` } });
      await client(server.baseUrl, 'wrong-secret-token').get('/user/quota');
    } finally {
      await server.stop();
    }
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === 'request');
    assert.equal(requests.length, 3);
    assert.deepEqual(
      { method: requests[0].method, route: requests[0].route, status: requests[0].status, account: requests[0].account },
      { method: 'GET', route: '/api/v1/user/quota/check', status: 200, account: 'alice' },
    );
    assert.equal(typeof requests[0].ms, 'number');
    assert.equal(requests[2].status, 401);
    for (const secret of [...Object.values(DEMO_TOKENS), 'wrong-secret-token']) {
      assert.ok(!server.stderr().includes(secret), `the log contains ${secret}`);
    }
  });
});
