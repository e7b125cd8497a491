/**
 * `quota-api --config app.ini`: the quota settings of a Forgejo app.ini, read at start, over
 * the seed instance file's values (app.ini wins per setting it sets; it is never persisted).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { client, DEMO_TOKENS, ROOT, runCli, startServer, tempDir } from './helpers';

interface NamedQuota {
  groups: Array<{ name: string }>;
}

describe('quota-api --config app.ini', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('quota-api-ini-');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const groupsOf = async (baseUrl: string, account: string) => (await client(baseUrl, DEMO_TOKENS.root).get<NamedQuota>(`/admin/users/${account}/quota`)).body.groups.map((g) => g.name);

  it("DEFAULT_GROUPS from app.ini replaces the seed's defaultGroups; settings it leaves out keep the seed's values", async () => {
    const config = write('app.ini', '[quota]\nDEFAULT_GROUPS = pro\n');
    const server = await startServer({ args: ['--config', config] });
    try {
      // alice has no group of her own: the seed says "free", app.ini says "pro".
      assert.deepEqual(await groupsOf(server.baseUrl, 'alice'), ['pro']);
      // ENABLED is not in app.ini: the seed's `enabled: true` stands, so the routes exist.
      assert.equal((await client(server.baseUrl, DEMO_TOKENS.alice).get('/user/quota')).status, 200);
      assert.match(server.stderr(), /defaultGroups = \["pro"\] from .*app\.ini:2 \[quota\] DEFAULT_GROUPS/);
    } finally {
      await server.stop();
    }
  });

  it("the demo app.ini (what `npm start` passes) starts the server with the demo's default group", async () => {
    const server = await startServer({ args: ['--config', path.join(ROOT, 'examples', 'app.ini')] });
    try {
      assert.deepEqual(await groupsOf(server.baseUrl, 'alice'), ['free']);
      assert.match(server.stderr(), /enabled = true from .*app\.ini:10 \[quota\] ENABLED/);
    } finally {
      await server.stop();
    }
  });

  it('ENABLED = false makes every quota route 404, as on Forgejo', async () => {
    const config = write('app.ini', '[quota]\nENABLED = false\n');
    const server = await startServer({ args: ['--config', config] });
    try {
      assert.equal((await client(server.baseUrl, DEMO_TOKENS.alice).get('/user/quota')).status, 404);
      assert.equal((await client(server.baseUrl, DEMO_TOKENS.root).get('/admin/quota/groups')).status, 404);
    } finally {
      await server.stop();
    }
  });

  it('TOTAL (a size, read as newer servers read it) limits accounts whose default groups do not exist', async () => {
    const check = async (ini: string) => {
      const server = await startServer({ args: ['--config', write('app.ini', ini)] });
      try {
        const response = await client(server.baseUrl, DEMO_TOKENS.alice).get<boolean>('/user/quota/check?subject=size:repos:all');
        assert.equal(response.status, 200);
        return response.body;
      } finally {
        await server.stop();
      }
    };
    // alice uses 12 MiB of repositories.
    assert.equal(await check('[quota]\nDEFAULT_GROUPS = missing\n[quota.default]\nTOTAL = 1k\n'), false);
    assert.equal(await check('[quota]\nDEFAULT_GROUPS = missing\n[quota.default]\nTOTAL = 1G\n'), true);
  });

  it("is read at every start and never written back: without --config the database's seeded values return", async () => {
    const db = path.join(dir, 'persist.sqlite');
    const config = write('app.ini', '[quota]\nDEFAULT_GROUPS = org\n');
    const first = await startServer({ db, args: ['--config', config] });
    try {
      assert.deepEqual(await groupsOf(first.baseUrl, 'bob'), ['org']);
    } finally {
      await first.stop();
    }
    const second = await startServer({ db });
    try {
      assert.deepEqual(await groupsOf(second.baseUrl, 'bob'), ['free']);
    } finally {
      await second.stop();
    }
  });

  it('refuses to start on a file Forgejo cannot load (exit 2, located) and on a missing file', async () => {
    const broken = write('broken.ini', '[quota]\nENABLED = true\nDEFAULT_GROUPS free\n');
    const refused = await runCli(['--port', '0', '--db', ':memory:', '--config', broken]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /broken\.ini:3:1: error ini-syntax/);
    const missing = await runCli(['--port', '0', '--db', ':memory:', '--config', path.join(dir, 'none.ini')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read config file/);
  });
});
