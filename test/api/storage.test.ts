/** Storage guarantees: uniqueness under concurrency (one process and two), no acknowledged write lost to SIGKILL. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { QuotaRuleInfo } from '../../shared/api/types';
import type { QuotaUsedAttachment } from '../../shared/api/types';
import { MIGRATIONS } from '../../quota-api/migrations';
import { hashToken } from '../../quota-api/tokens';
import { client, DEMO_TOKENS, startServer, tempDir, type RunningServer } from './helpers';

function countRules(dbFile: string, name: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM quota_rules WHERE name = ?').pluck().get(name) as number;
  } finally {
    db.close();
  }
}

describe('quota API: storage', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('50 concurrent creates of one rule name: exactly one 201, 49 × 409, one row', async () => {
    const dbFile = path.join(dir, 'quota.sqlite');
    const server = await startServer({ db: dbFile });
    try {
      const admin = client(server.baseUrl, DEMO_TOKENS.root);
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => admin.post('/admin/quota/rules', { name: 'contended', limit: i, subjects: ['size:all'] })));
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 409).length, 49, statuses.join(','));
      const winner = responses.find((r) => r.status === 201)!.body as QuotaRuleInfo;
      const stored = await admin.get<QuotaRuleInfo>('/admin/quota/rules/contended');
      assert.deepEqual(stored.body, winner, 'the stored rule is the one that was acknowledged');
      assert.equal(countRules(dbFile, 'contended'), 1);
    } finally {
      await server.stop();
    }
  });

  it('50 concurrent creates split across two server processes on one database: still one 201', async () => {
    const dbFile = path.join(dir, 'shared.sqlite');
    const first = await startServer({ db: dbFile });
    const second = await startServer({ db: dbFile });
    try {
      const clients = [client(first.baseUrl, DEMO_TOKENS.root), client(second.baseUrl, DEMO_TOKENS.root)];
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 2].post('/admin/quota/rules', { name: 'two-procs', limit: i })));
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 409).length, 49, statuses.join(','));
      assert.equal(countRules(dbFile, 'two-procs'), 1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('SIGKILL in the middle of a stream of writes loses no acknowledged write', async () => {
    const dbFile = path.join(dir, 'durable.sqlite');
    let server: RunningServer = await startServer({ db: dbFile });
    const admin = client(server.baseUrl, DEMO_TOKENS.root);
    /**
     * For each acknowledged rule, the states it may be in after the crash: exactly the last
     * acknowledged one, plus the next one while a change is in flight (sent, not yet answered).
     */
    const possible = new Map<string, Set<number | 'absent'>>();
    let killed = false;
    let next = 0;

    const writer = async () => {
      while (!killed) {
        const n = next++;
        const name = `durable-${n}`;
        try {
          const created = await admin.post('/admin/quota/rules', { name, limit: n, subjects: ['size:all'] });
          if (created.status !== 201) continue;
          possible.set(name, new Set([n]));
          // Every fifth rule is edited, then deleted: both changes must survive too.
          if (n % 5 === 0) {
            possible.get(name)!.add(n + 1_000_000);
            const edited = await admin.patch(`/admin/quota/rules/${name}`, { limit: n + 1_000_000 });
            if (edited.status === 200) possible.set(name, new Set([n + 1_000_000]));
            possible.get(name)!.add('absent');
            const deleted = await admin.delete(`/admin/quota/rules/${name}`);
            if (deleted.status === 204) possible.set(name, new Set(['absent']));
          }
        } catch {
          // The connection died with the server: that write was not acknowledged.
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (possible.size < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.kill();
    killed = true;
    await Promise.all(writers);

    server = await startServer({ db: dbFile });
    try {
      const rules = (await client(server.baseUrl, DEMO_TOKENS.root).get<QuotaRuleInfo[]>('/admin/quota/rules')).body;
      const stored = new Map(rules.map((r) => [r.name!, Number(r.limit)]));
      let deletes = 0;
      for (const [name, states] of possible) {
        const state = stored.has(name) ? stored.get(name)! : 'absent';
        assert.ok(states.has(state), `${name} is ${state} after the crash; acknowledged state: ${[...states].join(' or ')}`);
        if (states.size === 1 && states.has('absent')) deletes++;
      }
      assert.ok(possible.size >= 150);
      assert.ok(deletes > 0, 'the stream included acknowledged deletes');
    } finally {
      await server.stop();
    }
  });
  it('a database from before release ids is migrated: its release attachments get ids, nothing is lost', async () => {
    const dbFile = path.join(dir, 'v2.sqlite');
    const old = new Database(dbFile);
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) {
      old.exec(migration.sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(migration.version, migration.name, 'before');
    }
    old.prepare("INSERT INTO accounts (id, name, type) VALUES (1, 'dana', 'user')").run();
    old.prepare("INSERT INTO tokens (account_id, token_sha256, created_at) VALUES (1, ?, 'before')").run(hashToken('dana-token'));
    const attach = old.prepare('INSERT INTO attachments (repo, charged_to, name, size, issue, comment, release) VALUES (?, ?, ?, ?, ?, ?, ?)');
    attach.run('dana/app', 'dana', 'issue.png', 10, 4, null, null);
    attach.run('dana/app', 'dana', 'app-v2.zip', 40, null, null, 'v2');
    attach.run('dana/lib', 'dana', 'lib-v2.zip', 30, null, null, 'v2');
    attach.run('dana/app', 'dana', 'app-v2.sig', 20, null, null, 'v2');
    attach.run('dana/app', 'dana', 'app-v1.zip', 50, null, null, 'v1');
    old.close();

    const server = await startServer({ db: dbFile, seed: null });
    try {
      const response = await client(server.baseUrl, 'dana-token').get<QuotaUsedAttachment[]>('/user/quota/attachments');
      assert.equal(response.status, 200, response.text);
      const containers = Object.fromEntries(response.body.map((a) => [a.name, a.contained_in.api_url.replace(/^.*\/api\/v1/, '')]));
      // One release per (repo, tag), numbered by its first stored attachment.
      assert.deepEqual(containers, {
        'app-v1.zip': '/repos/dana/app/releases/3',
        'app-v2.zip': '/repos/dana/app/releases/1',
        'lib-v2.zip': '/repos/dana/lib/releases/2',
        'app-v2.sig': '/repos/dana/app/releases/1',
        'issue.png': '/repos/dana/app/issues/4',
      });
      const pages = Object.fromEntries(response.body.map((a) => [a.name, a.contained_in.html_url.replace(/^https?:\/\/[^/]+/, '')]));
      assert.equal(pages['app-v2.zip'], '/dana/app/releases/tag/v2');
    } finally {
      await server.stop();
    }
    const migrated = new Database(dbFile, { readonly: true });
    try {
      assert.deepEqual(
        migrated.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all(),
        MIGRATIONS.map((m) => m.version),
      );
      assert.equal(migrated.prepare('SELECT COUNT(*) FROM attachments').pluck().get(), 5);
    } finally {
      migrated.close();
    }
  });
});
