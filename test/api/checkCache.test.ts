/**
 * `GET /user/quota/check` answers repeated checks from a cache kept per database generation. Every
 * test here asks twice (the second answer comes from the cache), writes through one route family
 * or through another process, and shows that the very next check follows the write. The route
 * tests run on a database file, as deployed, and in memory: a file also shows this process's
 * commits in its WAL-index header, memory only in the connection's change count.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { client, DEMO_TOKENS, runCli, startServer, tempDir, type RunningServer } from './helpers';

const MiB = 1024 * 1024;

type Client = ReturnType<typeof client>;

for (const storage of ['file', 'memory'] as const) {
  describe(`quota API: a cached check follows every write (database in ${storage})`, () => {
    let dir: string;
    let dbFile: string;
    let server: RunningServer;
    let root: Client;
    let bob: Client;

    beforeEach(async () => {
      dir = tempDir();
      dbFile = path.join(dir, 'quota.sqlite');
      server = await startServer({ db: storage === 'file' ? dbFile : ':memory:' });
      root = client(server.baseUrl, DEMO_TOKENS.root);
      bob = client(server.baseUrl, DEMO_TOKENS.bob);
    });
    afterEach(async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** The verdict for `subject`, asked twice so that the second answer is the cached one; both must agree. */
    async function verdict(who: Client, subject: string): Promise<boolean> {
      const answers: string[] = [];
      for (let ask = 0; ask < 2; ask++) {
        const response = await who.get(`/user/quota/check?subject=${subject}`);
        assert.equal(response.status, 200, response.text);
        answers.push(response.text);
      }
      assert.equal(answers[0], answers[1], 'a repeated check answers as the first');
      return answers[0] === 'true';
    }

    /** Runs `write` on a second connection to the server's database file, as another process would. */
    function otherProcessWrites(write: (db: Database.Database) => void): void {
      const other = new Database(dbFile);
      try {
        write(other);
      } finally {
        other.close();
      }
    }

    async function expectStatus(response: Promise<{ status: number; text: string }>, status: number): Promise<void> {
      const answer = await response;
      assert.equal(answer.status, status, answer.text);
    }

    // bob has no explicit group: the default group `free` applies (repos 100 MiB, assets 10 MiB,
    // LFS 50 MiB), and his private repository holds 140 MiB of git and 2 MiB of LFS.

    it('POST /admin/quota/rules and PUT|DELETE /admin/quota/groups/{group}/rules/{rule}', async () => {
      assert.equal(await verdict(bob, 'size:git:lfs'), true);
      await expectStatus(root.post('/admin/quota/rules', { name: 'no-lfs', limit: 0, subjects: ['size:git:lfs'] }), 201);
      assert.equal(await verdict(bob, 'size:git:lfs'), true, 'a rule in no group changes nothing');
      await expectStatus(root.put('/admin/quota/groups/free/rules/no-lfs'), 204);
      assert.equal(await verdict(bob, 'size:git:lfs'), false, 'after the rule joined his group');
      await expectStatus(root.delete('/admin/quota/groups/free/rules/no-lfs'), 204);
      assert.equal(await verdict(bob, 'size:git:lfs'), true, 'after the rule left his group');
    });

    it('PATCH /admin/quota/rules/{rule}: limit and subjects', async () => {
      assert.equal(await verdict(bob, 'size:git:lfs'), true);
      await expectStatus(root.patch('/admin/quota/rules/lfs-50m', { limit: MiB }), 200);
      assert.equal(await verdict(bob, 'size:git:lfs'), false, 'after the limit fell below his 2 MiB');
      await expectStatus(root.patch('/admin/quota/rules/lfs-50m', { limit: 50 * MiB }), 200);
      assert.equal(await verdict(bob, 'size:git:lfs'), true, 'after the limit came back');
      // A group whose rules do not cover the subject refuses it, as Forgejo's GroupList.Evaluate does.
      await expectStatus(root.patch('/admin/quota/rules/lfs-50m', { subjects: ['size:assets:all'] }), 200);
      assert.equal(await verdict(bob, 'size:git:lfs'), false, 'after no rule of his group covered LFS');
    });

    it('DELETE /admin/quota/rules/{rule}', async () => {
      assert.equal(await verdict(bob, 'size:git:lfs'), true);
      await expectStatus(root.delete('/admin/quota/rules/lfs-50m'), 204);
      assert.equal(await verdict(bob, 'size:git:lfs'), false, 'after no rule of his group covered LFS');
    });

    it('DELETE and POST /admin/quota/groups', async () => {
      assert.equal(await verdict(bob, 'size:repos:all'), false);
      await expectStatus(root.delete('/admin/quota/groups/free'), 204);
      assert.equal(await verdict(bob, 'size:repos:all'), true, 'without the default group no rule applies');
      await expectStatus(root.post('/admin/quota/groups', { name: 'free', rules: [{ name: 'free-repos', limit: 0, subjects: ['size:repos:all'] }] }), 201);
      assert.equal(await verdict(bob, 'size:repos:all'), false, 'after the default group came back with an inline rule');
    });

    it('PUT and DELETE /admin/quota/groups/{group}/users/{user}', async () => {
      await expectStatus(root.post('/admin/quota/groups', { name: 'roomy', rules: [{ name: 'roomy-all', limit: 2 ** 40, subjects: ['size:all'] }] }), 201);
      assert.equal(await verdict(bob, 'size:repos:all'), false);
      await expectStatus(root.put('/admin/quota/groups/roomy/users/bob'), 204);
      assert.equal(await verdict(bob, 'size:repos:all'), true, 'an explicit group replaces the default one');
      await expectStatus(root.delete('/admin/quota/groups/roomy/users/bob'), 204);
      assert.equal(await verdict(bob, 'size:repos:all'), false, 'back in the default group');
    });

    it('POST /admin/users/{user}/quota/groups', async () => {
      assert.equal(await verdict(bob, 'size:repos:all'), false);
      await expectStatus(root.post('/admin/users/bob/quota/groups', { groups: ['pro'] }), 204);
      assert.equal(await verdict(bob, 'size:repos:all'), true);
      await expectStatus(root.post('/admin/users/bob/quota/groups', { groups: [] }), 204);
      assert.equal(await verdict(bob, 'size:repos:all'), false);
    });

    // Another process can only reach a database file.
    if (storage === 'memory') return;

    it('tokens and users written by another process: a token unknown a moment ago, a user made admin', async () => {
      const later = client(server.baseUrl, 'a-token-stored-later');
      await expectStatus(later.get('/user/quota/check?subject=size:all'), 401);
      await expectStatus(later.get('/user/quota/check?subject=size:all'), 401);
      otherProcessWrites((db) => {
        db.prepare("INSERT INTO tokens (account_id, token_sha256, created_at) SELECT id, ?, '2025-01-01T00:00:00Z' FROM accounts WHERE name = 'bob'").run(
          createHash('sha256').update('a-token-stored-later').digest('hex'),
        );
      });
      assert.equal(await verdict(later, 'size:repos:all'), false, "the new token signs in as bob and gets bob's verdict");

      await expectStatus(bob.get('/admin/quota/rules'), 403);
      await expectStatus(bob.get('/admin/quota/rules'), 403);
      const created = await runCli(['token', 'create', 'bob', '--admin', '--db', dbFile]);
      assert.equal(created.code, 0, created.stderr);
      await expectStatus(bob.get('/admin/quota/rules'), 200);
      await expectStatus(client(server.baseUrl, created.stdout.trim()).get('/user/quota/check?subject=size:all'), 200);
    });

    it('usage written by another process', async () => {
      assert.equal(await verdict(bob, 'size:repos:all'), false);
      otherProcessWrites((db) => db.prepare("UPDATE repos SET git_size = 0 WHERE owner = 'bob'").run());
      assert.equal(await verdict(bob, 'size:repos:all'), true);
    });

    it('settings written by another process: the default groups, and quota disabled', async () => {
      assert.equal(await verdict(bob, 'size:repos:all'), false);
      otherProcessWrites((db) => db.prepare("UPDATE settings SET value = '[\"pro\"]' WHERE key = 'quota.default_groups'").run());
      assert.equal(await verdict(bob, 'size:repos:all'), true, 'pro has no repository rule');
      otherProcessWrites((db) => db.prepare("UPDATE settings SET value = 'false' WHERE key = 'quota.enabled'").run());
      await expectStatus(bob.get('/user/quota/check?subject=size:repos:all'), 404);
    });
  });
}

describe('quota API: a cached check follows app.ini over the database', () => {
  it("DEFAULT_GROUPS from app.ini still wins after another process rewrites the database's", async () => {
    const dir = tempDir();
    const dbFile = path.join(dir, 'quota.sqlite');
    const config = path.join(dir, 'app.ini');
    fs.writeFileSync(config, '[quota]\nDEFAULT_GROUPS = pro\n');
    const server = await startServer({ db: dbFile, args: ['--config', config] });
    try {
      const bob = client(server.baseUrl, DEMO_TOKENS.bob);
      const check = async () => (await bob.get('/user/quota/check?subject=size:repos:all')).text;
      assert.equal(await check(), 'true', 'pro, from app.ini, has no repository rule');
      const other = new Database(dbFile);
      try {
        // Another group of defaults in the database, and a tighter pro: only the second may count.
        other.prepare("UPDATE settings SET value = '[\"free\"]' WHERE key = 'quota.default_groups'").run();
        other.prepare("INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES ('pro-repos', 0, '[\"size:repos:all\"]')").run();
        other.prepare("INSERT INTO quota_group_rules (group_id, rule_id) SELECT g.id, r.id FROM quota_groups g, quota_rules r WHERE g.name = 'pro' AND r.name = 'pro-repos'").run();
      } finally {
        other.close();
      }
      assert.equal(await check(), 'false', "app.ini's pro, now with a repository rule of 0");
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
