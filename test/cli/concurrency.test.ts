/**
 * Writes that cannot lose an update: `quota-state state …` runs started together on one file, a file
 * that changes between read and write (the edit is made again on the new content, or refused with
 * nothing written), the `FILE.lock` another writer holds or left behind, and Pulumi's own DIY lock
 * with the real Pulumi.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fix } from '../../cli/commands/fix';
import { runStateCommand } from '../../cli/commands/state';
import type { CliIO } from '../../cli/io';
import { realIo } from '../../cli/realIo';
import { lockFolder } from '../../cli/stateFiles';
import { acquireFolderLock } from '../../shared/folderLock';
import { nodeFolderLockIo } from '../../shared/node/folderLockIo';
import { distPath, ROOT, type ProcessResult } from '../helpers/processes';
import { DiyBackend, pulumiBinaries, qualifiedStack } from '../helpers/realPulumi';

const BIN = resolve(ROOT, 'bin', 'quota-state.js');
const P = 'urn:pulumi:production::webshop';

/** Eight edits of examples/webshop.state.json, each independent of the others (any subset applies in any order). */
const EDITS = [
  { op: 'remove', urn: `${P}::aws:lambda/function:Function::orders-api` },
  { op: 'remove', urn: `${P}::webshop:index:StaticSite$aws:s3/bucketPolicy:BucketPolicy::storefront-policy` },
  { op: 'taint', urn: `${P}::webshop:index:StaticSite$aws:s3/bucketV2:BucketV2::storefront-assets` },
  { op: 'taint', urn: `${P}::aws:rds/instance:Instance::orders-db` },
  { op: 'taint', urn: `${P}::aws:iam/role:Role::api-role` },
  { op: 'taint', urn: `${P}::webshop:index:StaticSite::storefront` },
  { op: 'taint', urn: `${P}::pulumi:providers:aws::default_6_54_0` },
  { op: 'taint', urn: `${P}::pulumi:pulumi:Stack::webshop-production` },
] as const;
type Edit = (typeof EDITS)[number];

interface Resource {
  urn: string;
  taint?: boolean;
}

/** Which of `edits` a state text has: removed urns are gone, tainted ones are marked. */
function editsIn(text: string, edits: readonly Edit[]): Set<Edit> {
  const resources = (JSON.parse(text) as { deployment: { resources: Resource[] } }).deployment.resources;
  return new Set(edits.filter((edit) => (edit.op === 'remove' ? !resources.some((r) => r.urn === edit.urn) : resources.some((r) => r.urn === edit.urn && r.taint === true))));
}

function runAsync(args: string[]): Promise<ProcessResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

interface Tally {
  applied: number;
  refused: number;
  lost: number;
}

/**
 * Runs `edits` at once on a fresh copy of the example and checks the outcome: each run applied (its
 * edit in the final file) or refused (exit 1, a message about the lock or a change, its edit absent);
 * the final file has exactly the applied edits; FILE.bak is the version the last writer read.
 */
async function trial(dir: string, edits: readonly Edit[], tally: Tally): Promise<void> {
  const file = join(dir, 'webshop.state.json');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ROOT, 'examples', 'webshop.state.json'), file);
  const original = readFileSync(file, 'utf8');
  const results = await Promise.all(edits.map((edit) => runAsync(['state', edit.op, file, edit.urn])));
  const final = readFileSync(file, 'utf8');
  const present = editsIn(final, edits);
  const applied = new Set<Edit>();
  results.forEach((result, index) => {
    const edit = edits[index];
    const where = `${edit.op} ${edit.urn.replace(/^.*::/, '')}: exit ${result.status}\n${result.stdout}${result.stderr}`;
    if (result.status === 0) {
      assert.match(result.stdout, /\(written\)/, where);
      assert.ok(present.has(edit), `applied, yet its edit is not in the final file (a lost update): ${where}`);
      applied.add(edit);
      tally.applied++;
    } else {
      assert.equal(result.status, 1, where);
      assert.match(result.stderr, /\(refused\)\n\s+.*(lock|changed since it was read)/, where);
      assert.ok(!present.has(edit), `refused, yet its edit is in the final file: ${where}`);
      tally.refused++;
    }
  });
  tally.lost += [...applied].filter((edit) => !present.has(edit)).length;
  assert.deepEqual([...present].sort(), [...applied].sort(), 'the final file has exactly the applied edits');
  if (applied.size === 0) {
    assert.equal(final, original);
    return;
  }
  const backup = readFileSync(`${file}.bak`, 'utf8');
  const backedUp = editsIn(backup, edits);
  assert.ok(
    [...backedUp].every((edit) => applied.has(edit)),
    'FILE.bak holds only edits that were applied',
  );
  assert.equal(backedUp.size, applied.size - 1, 'FILE.bak is what the last writer read: every applied edit but its own');
  if (backedUp.size === 0) assert.equal(backup, original);
  assert.deepEqual(readdirSync(dir).sort(), ['webshop.state.json', 'webshop.state.json.bak'], 'no lock or temporary file is left');
}

describe('writes that cannot lose an update', function () {
  this.timeout(300_000);
  let dir: string;
  before(() => distPath('cli/quota-state.js'));
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'quota-state-concurrency-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [runs, trials] of [
    [2, 6],
    [8, 3],
  ] as const) {
    it(`${runs} surgeries at once on one file: each applies or refuses, none is lost, FILE.bak is a version that existed (${trials} trials)`, async () => {
      const tally: Tally = { applied: 0, refused: 0, lost: 0 };
      for (let i = 0; i < trials; i++) await trial(join(dir, `trial-${i}`), EDITS.slice(0, runs), tally);
      console.log(`      ${runs} at once, ${trials} trials: ${tally.applied} applied, ${tally.refused} refused, ${tally.lost} lost`);
      assert.equal(tally.lost, 0);
    });
  }

  it('two opposite moves at once (A → B and B → A): both apply, nothing lost or doubled', async () => {
    const checkpoint = (stack: string, name: string) =>
      JSON.stringify({
        version: 3,
        checkpoint: {
          stack: `organization/p/${stack}`,
          latest: {
            manifest: {},
            resources: [
              { urn: `urn:pulumi:${stack}::p::pulumi:pulumi:Stack::p-${stack}`, custom: false, type: 'pulumi:pulumi:Stack' },
              { urn: `urn:pulumi:${stack}::p::aws:s3:Bucket::${name}`, custom: true, id: `${name}-1`, type: 'aws:s3:Bucket', parent: `urn:pulumi:${stack}::p::pulumi:pulumi:Stack::p-${stack}` },
            ],
          },
        },
      });
    const names = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { checkpoint: { latest: { resources: Resource[] } } }).checkpoint.latest.resources.map((r) => r.urn.replace(/^.*::/, '')).sort();
    for (let i = 0; i < 3; i++) {
      const [one, two] = [join(dir, `one-${i}.json`), join(dir, `two-${i}.json`)];
      writeFileSync(one, checkpoint('one', 'a'));
      writeFileSync(two, checkpoint('two', 'b'));
      const [there, back] = await Promise.all([
        runAsync(['state', 'move', one, 'urn:pulumi:one::p::aws:s3:Bucket::a', '--dest', two]),
        runAsync(['state', 'move', two, 'urn:pulumi:two::p::aws:s3:Bucket::b', '--dest', one]),
      ]);
      assert.equal(there.status, 0, there.stdout + there.stderr);
      assert.equal(back.status, 0, back.stdout + back.stderr);
      assert.deepEqual(names(one), ['b', 'p-one']);
      assert.deepEqual(names(two), ['a', 'p-two']);
    }
  });

  /** The CLI's io in this process, its output kept. */
  function capturing(cwd: string): { io: CliIO; said: () => string } {
    const lines: string[] = [];
    return { io: { ...realIo(cwd), stdout: (text) => void lines.push(text), stderr: (text) => void lines.push(text) }, said: () => lines.join('\n') };
  }

  describe('in process, through the modules the CLI runs', () => {
    let file: string;
    let original: string;
    beforeEach(() => {
      file = join(dir, 'webshop.state.json');
      copyFileSync(join(ROOT, 'examples', 'webshop.state.json'), file);
      original = readFileSync(file, 'utf8');
    });
    const intruder = () => original.replace('"orders-api-5c1d"', '"orders-api-5c1f"');

    it('a state file another program writes between the read and the write: the edit is made again on its content, nothing lost', async () => {
      let intrusions = 0;
      const { io, said } = capturing(dir);
      const code = await runStateCommand(['taint', file, EDITS[2].urn], io, new Map(), {
        edited: () => {
          if (intrusions++ === 0) writeFileSync(file, intruder()); // another program, once, which takes no lock
        },
      });
      assert.equal(code, 0, said());
      assert.equal(intrusions, 2, 'computed again on the new content');
      const final = readFileSync(file, 'utf8');
      assert.match(final, /"orders-api-5c1f"/, "the other program's change is kept");
      assert.deepEqual([...editsIn(final, EDITS)], [EDITS[2]], 'and ours is made on it');
      assert.equal(readFileSync(`${file}.bak`, 'utf8'), intruder(), 'FILE.bak is what the edit was computed from');
      assert.deepEqual(readdirSync(dir).sort(), ['webshop.state.json', 'webshop.state.json.bak'], 'no lock, no temporary file');
    });

    it('a state file that keeps changing between read and write is refused after a few seconds, and nothing is written', async () => {
      let intrusions = 0;
      const { io, said } = capturing(dir);
      const code = await runStateCommand(['taint', file, EDITS[2].urn], io, new Map(), { edited: () => writeFileSync(file, `${intruder()}${' '.repeat(++intrusions)}`) });
      assert.equal(code, 1, said());
      assert.match(said(), /\(refused\)\n\s+webshop\.state\.json changed since it was read .*nothing was written/);
      assert.ok(intrusions > 1, 'tried again meanwhile');
      assert.equal(readFileSync(file, 'utf8'), `${intruder()}${' '.repeat(intrusions)}`);
      assert.deepEqual(readdirSync(dir), ['webshop.state.json'], 'no FILE.bak, no lock, no temporary file');
    });

    it("quota-state fix's write refuses the same way", async () => {
      let intrusions = 0;
      const { io, said } = capturing(dir);
      const code = await fix([file], io, new Map(), { edited: () => writeFileSync(file, `${original}${'\n'.repeat(++intrusions)}`) });
      assert.equal(code, 1, said());
      assert.match(said(), /webshop\.state\.json: refused: webshop\.state\.json changed since it was read/);
      assert.equal(readFileSync(file, 'utf8'), `${original}${'\n'.repeat(intrusions)}`);
      assert.deepEqual(readdirSync(dir), ['webshop.state.json']);
    });

    it('a run waits for the FILE.lock another writer holds and, when it is not released, refuses naming it', async () => {
      const held = await acquireFolderLock(nodeFolderLockIo(`${file}.lock`), { holder: 'test' });
      assert.ok(held);
      try {
        const result = spawnSync(process.execPath, [BIN, 'state', 'taint', file, EDITS[2].urn], { encoding: 'utf8' });
        assert.equal(result.status, 1, result.stdout + result.stderr);
        assert.match(result.stderr, /webshop\.state\.json is being written by another program: its lock .*webshop\.state\.json\.lock was not released within 5 seconds; it was not written/);
      } finally {
        await held.release();
      }
      assert.equal(readFileSync(file, 'utf8'), original);
      // The writer keeps FILE.bak just before its conditional write: it holds the content the file still has.
      assert.deepEqual(
        readdirSync(dir).filter((name) => name !== 'webshop.state.json.bak'),
        ['webshop.state.json'],
        'no lock or temporary file of ours',
      );
      if (existsSync(`${file}.bak`)) assert.equal(readFileSync(`${file}.bak`, 'utf8'), original);
    });

    it("the stale lock of a process that is gone is recovered (quota-state's, and an editor's with its owner file)", () => {
      const old = new Date(Date.now() - 60_000);
      mkdirSync(`${file}.lock`);
      utimesSync(`${file}.lock`, old, old);
      const first = spawnSync(process.execPath, [BIN, 'state', 'taint', file, EDITS[2].urn], { encoding: 'utf8' });
      assert.equal(first.status, 0, first.stdout + first.stderr);
      mkdirSync(`${file}.lock`);
      writeFileSync(join(`${file}.lock`, '5f0c-editor.owner'), '{}');
      utimesSync(`${file}.lock`, old, old);
      const second = spawnSync(process.execPath, [BIN, 'state', 'taint', file, EDITS[3].urn], { encoding: 'utf8' });
      assert.equal(second.status, 0, second.stdout + second.stderr);
      assert.deepEqual([...editsIn(readFileSync(file, 'utf8'), EDITS)], [EDITS[2], EDITS[3]]);
      assert.ok(!existsSync(`${file}.lock`));
    });
  });

  describe("Pulumi's DIY lock, with the real Pulumi", () => {
    let backend: DiyBackend;
    let stackFile: string;
    const urn = 'urn:pulumi:s::p::aws:s3/bucket:Bucket::site';
    const stack = qualifiedStack('p', 's');
    before(() => pulumiBinaries());
    beforeEach(() => {
      backend = new DiyBackend();
      backend.initStack('p', 's');
      const root = 'urn:pulumi:s::p::pulumi:pulumi:Stack::p-s';
      const resources = [
        { urn: root, custom: false, type: 'pulumi:pulumi:Stack' },
        { urn, custom: true, id: 'site-1', type: 'aws:s3/bucket:Bucket', parent: root, outputs: { bucket: 'site-1' } },
      ];
      const input = join(backend.root, 'input.json');
      writeFileSync(
        input,
        JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-11-01T00:00:00Z', magic: createHash('sha256').update('v3.274.1').digest('hex'), version: 'v3.274.1' }, resources } }),
      );
      backend.ok(['stack', 'import', '--stack', stack, '--file', input]);
      stackFile = backend.stackFile('p', 's');
    });
    afterEach(() => backend.dispose());

    it("while quota-state holds the stack, pulumi refuses: our lock is Pulumi's", async () => {
      const folder = lockFolder(stackFile)!;
      let refused: ReturnType<DiyBackend['run']> | undefined;
      const { io, said } = capturing(backend.root);
      const code = await runStateCommand(['taint', stackFile, urn], io, new Map(), { edited: () => void (refused ??= backend.run(['state', 'protect', '--stack', stack, urn, '--yes'])) });
      assert.equal(code, 0, said());
      assert.ok(refused);
      assert.notEqual(refused.status, 0, refused.stdout);
      assert.match(refused.stderr + refused.stdout, /the stack is currently locked by 1 lock\(s\)/);
      assert.match(refused.stderr + refused.stdout, new RegExp(`created by [^@\\s]+@[^\\s]+ \\(pid ${process.pid}\\)`));
      assert.deepEqual(readdirSync(folder), [], 'our lock is removed when done');
      backend.ok(['state', 'protect', '--stack', stack, urn, '--yes']);
    });

    it('a lock of another process, in Pulumi’s format, refuses the CLI, naming the holder', () => {
      const folder = lockFolder(stackFile)!;
      mkdirSync(folder, { recursive: true });
      const lock = join(folder, '3f6a2b9e-41c7-4d8e-9a55-0c1e2d3f4a5b.json');
      writeFileSync(lock, JSON.stringify({ pid: 31337, username: 'deploy', hostname: 'ci-runner-3', timestamp: '2026-05-04T09:08:07.123456789Z' }));
      const result = spawnSync(process.execPath, [BIN, 'state', 'protect', stackFile, urn], { encoding: 'utf8' });
      assert.equal(result.status, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./);
      assert.match(result.stderr, /3f6a2b9e-41c7-4d8e-9a55-0c1e2d3f4a5b\.json: created by deploy@ci-runner-3 \(pid 31337\) at 2026-05-04T09:08:07Z/);
      // Pulumi reads the same lock the same way.
      const pulumi = backend.run(['state', 'protect', '--stack', stack, urn, '--yes']);
      assert.match(pulumi.stderr + pulumi.stdout, /created by deploy@ci-runner-3 \(pid 31337\) at 2026-05-04T09:08:07Z/);
    });

    it('after a CLI surgery no lock of ours is left, and Pulumi reads and writes the stack', () => {
      const result = spawnSync(process.execPath, [BIN, 'state', 'taint', stackFile, urn], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stdout + result.stderr);
      const folder = lockFolder(stackFile)!;
      assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], []);
      assert.ok(!existsSync(`${stackFile}.lock`));
      const output = join(backend.root, 'output.json');
      backend.ok(['stack', 'export', '--stack', stack, '--file', output]);
      const exported = JSON.parse(readFileSync(output, 'utf8')) as { deployment: { resources: Resource[] } };
      assert.equal(exported.deployment.resources.find((r) => r.urn === urn)?.taint, true);
      backend.ok(['state', 'untaint', '--stack', stack, urn, '--yes']);
    });
  });
});
