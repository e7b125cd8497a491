/**
 * The store's generation, which every cache of the reference server is keyed by: each write of the
 * store moves it, another connection's commit moves it, and reads leave it where it is (or nothing
 * would ever be served from a cache).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../quota-api/db';
import { seedFromFile } from '../../quota-api/seed';
import { checkVerdict, modelFor } from '../../quota-api/store/evaluation';
import { addRuleToGroup, createGroup, deleteGroup, listGroups, removeRuleFromGroup } from '../../quota-api/store/groups';
import { QuotaStore } from '../../quota-api/store/quotaStore';
import { createRule, deleteRule, editRule, listRules } from '../../quota-api/store/rules';
import { settings } from '../../quota-api/store/settings';
import { accountByTokenHash, addToken } from '../../quota-api/store/tokens';
import { usageOf } from '../../quota-api/store/usage';
import { addAccountToGroup, findAccount, removeAccountFromGroup, setAccountGroups } from '../../quota-api/store/users';
import { hashToken } from '../../quota-api/tokens';
import { DEMO_SEED, tempDir } from './helpers';

describe('quota-api store: the generation caches are keyed by', () => {
  let dir: string;
  let file: string;
  let store: QuotaStore;

  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'quota.sqlite');
    store = new QuotaStore(openDatabase(file));
    seedFromFile(store, DEMO_SEED);
  });
  afterEach(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stays the same across every read, so that caches are used', () => {
    const before = store.generation();
    const bob = findAccount(store, 'bob')!;
    accountByTokenHash(store, hashToken('demo-bob-token'));
    checkVerdict(store, bob, 'size:all', store.generation());
    modelFor(store, bob);
    usageOf(store, bob);
    settings(store);
    listRules(store);
    listGroups(store);
    assert.equal(store.generation(), before);
  });

  const writes: Array<[string, (store: QuotaStore) => void]> = [
    ['createRule', (s) => createRule(s, { name: 'new-rule', limit: 1, subjects: ['size:all'] })],
    ['editRule', (s) => editRule(s, 'repos-100m', { limit: 1 })],
    ['deleteRule', (s) => deleteRule(s, 'repos-100m')],
    ['createGroup', (s) => createGroup(s, 'new-group', [])],
    ['deleteGroup', (s) => deleteGroup(s, 'free')],
    ['addRuleToGroup', (s) => addRuleToGroup(s, 'free', 'pro-total-5g')],
    ['removeRuleFromGroup', (s) => removeRuleFromGroup(s, 'free', 'repos-100m')],
    ['addAccountToGroup', (s) => addAccountToGroup(s, 'free', 'bob')],
    ['removeAccountFromGroup', (s) => removeAccountFromGroup(s, 'pro', 'carol')],
    ['setAccountGroups', (s) => setAccountGroups(s, 'bob', ['pro'])],
    ['addToken', (s) => addToken(s, 'bob', hashToken('another-bob-token'), { admin: true })],
  ];
  for (const [name, write] of writes) {
    it(`moves with ${name}`, () => {
      const before = store.generation();
      write(store);
      assert.notEqual(store.generation(), before);
    });
  }

  it("moves with another connection's commit, not with its reads", () => {
    const before = store.generation();
    const other = new Database(file);
    try {
      other.prepare('SELECT COUNT(*) FROM quota_rules').get();
      assert.equal(store.generation(), before, "another connection's read");
      other.prepare("UPDATE repos SET git_size = 0 WHERE owner = 'bob'").run();
      assert.notEqual(store.generation(), before, "another connection's commit");
    } finally {
      other.close();
    }
  });

  it('inside a transaction is one no later call answers, since what is read there may roll back', () => {
    const before = store.generation();
    let inside = -1;
    assert.throws(() =>
      store.db.transaction(() => {
        editRule(store, 'repos-100m', { limit: 1 });
        inside = store.generation();
        throw new Error('roll back');
      })(),
    );
    assert.notEqual(inside, before);
    assert.notEqual(store.generation(), inside);
  });
});
