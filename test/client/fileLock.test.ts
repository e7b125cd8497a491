/**
 * The editor's save lock (client/fileLock.ts) over a real folder, as `vscode.workspace.fs` gives it
 * (`createDirectory` succeeds when the folder exists): it excludes other editors, waits for and is
 * waited for by quota-state's (the same `<file>.lock`, taken over Node's fs by the folder store's
 * conditional write), and recovers stale locks.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireFolderLock, type LockFolderIo } from '../../shared/folderLock';
import { fileBackendStore } from '../../shared/node/fileStore';
import { nodeFolderLockIo } from '../../shared/node/folderLockIo';

/** A lock folder on disk with vscode.workspace.fs's semantics (mkdirp; delete non-recursive refuses a non-empty folder). */
function diskIo(folder: string): LockFolderIo {
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    mtime: async () => {
      await pause();
      try {
        return statSync(folder).mtimeMs;
      } catch {
        return undefined;
      }
    },
    create: async () => {
      await pause();
      mkdirSync(folder, { recursive: true });
    },
    writeOwner: async (name, content) => {
      await pause();
      writeFileSync(join(folder, name), content);
    },
    list: async () => {
      await pause();
      return readdirSync(folder);
    },
    removeOwner: async (name) => rm(join(folder, name)),
    remove: async (recursive) => (recursive ? rm(folder, { recursive: true }) : rmdir(folder)),
  };
}

describe("the editor's save lock (client/fileLock.ts)", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-editor-lock-'));
    file = join(dir, 's.json.gz');
    writeFileSync(file, 'x');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is taken and released, leaving nothing behind', async () => {
    const lock = await acquireFolderLock(diskIo(`${file}.lock`));
    assert.ok(lock);
    assert.equal(readdirSync(`${file}.lock`).length, 1, 'its owner file');
    await lock.release();
    assert.deepEqual(readdirSync(dir), ['s.json.gz']);
  });

  it('excludes other editors: of many claimants at once, one holds it at a time', async () => {
    let holding = 0;
    let most = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const lock = await acquireFolderLock(diskIo(`${file}.lock`), { waitMs: 20_000 });
        assert.ok(lock, 'each gets its turn');
        holding++;
        most = Math.max(most, holding);
        await new Promise((resolve) => setTimeout(resolve, 15));
        holding--;
        done++;
        await lock.release();
      }),
    );
    assert.equal(done, 6);
    assert.equal(most, 1);
    assert.deepEqual(readdirSync(dir), ['s.json.gz']);
  });

  it("waits for quota-state's lock and gives up while it is held; quota-state's waits for the editor's", async () => {
    const quotaState = await acquireFolderLock(nodeFolderLockIo(`${file}.lock`), { holder: 'quota-state' });
    assert.ok(quotaState);
    try {
      assert.equal(await acquireFolderLock(diskIo(`${file}.lock`), { waitMs: 300 }), undefined);
    } finally {
      await quotaState.release();
    }
    const lock = await acquireFolderLock(diskIo(`${file}.lock`), { waitMs: 300 });
    assert.ok(lock, 'free once quota-state released it');
    assert.equal(await acquireFolderLock(nodeFolderLockIo(`${file}.lock`), { holder: 'quota-state', waitMs: 300 }), undefined, "quota-state's lock waits for the editor's");
    await lock.release();
  });

  it("quota-state's write waits for an editor's save and refuses, naming the lock, when it is not released", async () => {
    const store = fileBackendStore(dir, `file://${dir}`);
    const { version } = await store.read('s.json.gz');
    const lock = await acquireFolderLock(diskIo(`${file}.lock`));
    assert.ok(lock);
    try {
      await assert.rejects(store.write('s.json.gz', new TextEncoder().encode('y'), { ifVersion: version }), /is being written by another program: its lock .*s\.json\.gz\.lock was not released/);
    } finally {
      await lock.release();
    }
    await store.write('s.json.gz', new TextEncoder().encode('y'), { ifVersion: version });
    assert.deepEqual(readdirSync(dir), ['s.json.gz'], 'written once the editor is done, and nothing left behind');
  });

  it("recovers a stale lock: quota-state's empty folder, or an editor's with its owner file", async () => {
    const old = new Date(Date.now() - 60_000);
    for (const owner of [undefined, 'gone.vscode-owner']) {
      mkdirSync(`${file}.lock`);
      if (owner) writeFileSync(join(`${file}.lock`, owner), '{}');
      utimesSync(`${file}.lock`, old, old);
      const lock = await acquireFolderLock(diskIo(`${file}.lock`), { waitMs: 300 });
      assert.ok(lock, `stale ${owner ?? 'empty'} lock recovered`);
      await lock.release();
      assert.deepEqual(readdirSync(dir), ['s.json.gz']);
    }
  });
});
