/**
 * `quota-state backend ls` and `quota-state history` against real DIY backends made by real Pulumi
 * v3.274.1 (scripts/pulumi-histories.mjs: the Automation API in the project and legacy layouts, plain,
 * gzip and zstd), compared with what `pulumi stack history --json` and `pulumi stack ls --json` say of
 * the same folders; then the bad input a backend can hold, and how the backend is found.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { gzipBomb } from '../helpers/bombs';
import { runQuotaState } from '../helpers/processes';

type Generated = ReturnType<typeof ensureHistories>;
let generated: Generated;
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-backend-'));
/** A home without credentials: the machine's own ~/.pulumi never decides which backend a test reads. */
const home = join(scratch, 'home');
mkdirSync(home);
const env = { ...process.env, HOME: home, PULUMI_BACKEND_URL: '' };

function pulumiJson(backendFolder: string, args: string[]): unknown {
  const { env: pulumiEnv, cleanup } = hermeticEnv({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backendFolder}`,
    PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
    PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
  });
  try {
    const result = spawnSync(generated.pulumi, args, { cwd: scratch, env: pulumiEnv, encoding: 'utf8' });
    assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  } finally {
    cleanup();
  }
}

function ours(args: string[], cwd = scratch, extraEnv: Record<string, string> = {}) {
  const result = runQuotaState(args, { cwd, env: { ...env, ...extraEnv } });
  return { ...result, json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

/** A copy of a generated backend to break. */
function copyOf(folder: string): string {
  const copy = mkdtempSync(join(scratch, 'copy-'));
  cpSync(folder, copy, { recursive: true });
  return copy;
}

function historyFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else found.push(join(path, entry.name));
    }
  };
  walk(join(folder, '.pulumi', 'history'));
  return found.sort();
}

describe('quota-state backend ls and history, against real Pulumi DIY backends', function () {
  this.timeout(15 * 60 * 1000);
  before(() => {
    generated = ensureHistories({ log: (line) => console.log(`      ${line}`) });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('history lists the entries real `pulumi stack history --json --page-size 0` lists, in every layout and compression', () => {
    for (const backend of generated.backends) {
      const theirs = pulumiJson(backend.folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', backend.stack]) as Array<Record<string, unknown>>;
      const result = ours(['history', backend.stack, '--backend', `file://${backend.folder}`, '--format', 'json']);
      assert.equal(result.status, 0, result.stderr);
      const { entries, problems } = result.json() as { entries: Array<Record<string, unknown>>; problems: unknown[] };
      assert.deepEqual(problems, [], `${backend.layout} ${backend.compression}`);
      const fields = ['kind', 'startTime', 'endTime', 'message', 'environment', 'config', 'result', 'resourceChanges'];
      const pick = (entry: Record<string, unknown>) => Object.fromEntries(fields.filter((f) => entry[f] !== undefined).map((f) => [f, entry[f]]));
      assert.ok(theirs.length >= 9, `${backend.layout} ${backend.compression}: ${theirs.length} entries`);
      assert.deepEqual(entries.map(pick), theirs.map(pick), `${backend.layout} ${backend.compression}`);
      // Ours: versions count up from the oldest, ids are the files' <UnixNano>, newest first.
      assert.deepEqual(
        entries.map((e) => e.version),
        entries.map((_, i) => entries.length - i),
      );
      assert.ok(entries.every((e, i) => i === 0 || BigInt(e.id as string) < BigInt(entries[i - 1].id as string)));
      assert.ok(entries.every((e) => typeof e.checkpoint === 'string'));
      // The script's kinds and results, as Pulumi wrote them.
      assert.deepEqual(entries.map((e) => `${e.kind}:${e.result}`).reverse(), [
        'update:succeeded',
        'update:succeeded',
        'update:succeeded',
        'update:succeeded',
        'update:succeeded',
        'refresh:succeeded',
        'update:failed',
        'update:succeeded',
        'destroy:succeeded',
      ]);
      // The provider's custom resources: replaced, updated and deleted, as Pulumi counted them.
      const changed = (kind: string) => entries.some((e) => ((e.resourceChanges as Record<string, number> | undefined)?.[kind] ?? 0) > 0);
      assert.ok(['create', 'update', 'replace', 'delete'].every(changed), JSON.stringify(entries.map((e) => e.resourceChanges)));
      if (backend.compression !== 'plain') assert.ok(historyFiles(backend.folder).some((f) => f.endsWith(backend.compression === 'gzip' ? '.history.json.gz' : '.history.json.zst')));
    }
  });

  it('backend ls names the stacks real `pulumi stack ls --json --all` names, with the last update and the file', () => {
    for (const backend of generated.backends) {
      const theirs = pulumiJson(backend.folder, ['stack', 'ls', '--json', '--all']) as Array<{ name: string }>;
      const result = ours(['backend', 'ls', `file://${backend.folder}`, '--format', 'json', '--counts']);
      assert.equal(result.status, 0, result.stderr);
      const listed = result.json() as {
        layout: string;
        stacks: Array<{ name: string; lastUpdate: { kind: string; result: string }; history: number; resources: number; pendingOperations: number; file: { compression: string | null } }>;
      };
      assert.deepEqual(
        listed.stacks.map((s) => s.name),
        theirs.map((s) => s.name).sort(),
      );
      assert.equal(listed.layout, backend.layout);
      const [stack] = listed.stacks;
      assert.deepEqual(stack.lastUpdate && [stack.lastUpdate.kind, stack.lastUpdate.result], ['destroy', 'succeeded']);
      assert.equal(stack.history, 9);
      assert.equal(stack.file.compression, backend.compression === 'plain' ? null : backend.compression);
      // After the destroy, the interrupted update: what it created, and the create it never finished.
      const exported = pulumiJson(backend.folder, ['stack', 'export', '--stack', backend.stack]) as { deployment: { resources?: unknown[]; pending_operations?: unknown[] } };
      assert.equal(stack.resources, exported.deployment.resources?.length ?? 0);
      assert.equal(stack.pendingOperations, exported.deployment.pending_operations?.length ?? 0);
      assert.ok(stack.pendingOperations >= 1);
    }
  });

  it('names the lock holder real Pulumi names when it refuses a locked stack', () => {
    const copy = copyOf(generated.backends[0].folder);
    const folder = join(copy, '.pulumi', 'locks', 'organization', 'hist', 'dev');
    // Only this lock: the interrupted update's own stale lock is gone.
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // lock.go's lockContent, as another Pulumi process leaves it while it runs.
    writeFileSync(join(folder, '2f6c1a9e-1111-4222-8333-444455556666.json'), JSON.stringify({ pid: 4121, username: 'ci', hostname: 'runner-7', timestamp: '2026-11-28T05:40:07.123456789Z' }));
    const { env: pulumiEnv, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: `file://${copy}`, PULUMI_CONFIG_PASSPHRASE: 'history-passphrase' });
    let refusal: string;
    try {
      const result = spawnSync(generated.pulumi, ['state', 'unprotect', '--all', '--yes', '--stack', 'organization/hist/dev'], { cwd: scratch, env: pulumiEnv, encoding: 'utf8' });
      assert.notEqual(result.status, 0);
      refusal = result.stderr + result.stdout;
    } finally {
      cleanup();
    }
    const holder = /created by (\S+)@(\S+) \(pid (\d+)\)/.exec(refusal);
    assert.ok(holder, refusal);
    const result = ours(['backend', 'ls', `file://${copy}`, '--format', 'json']);
    const [stack] = (result.json() as { stacks: Array<{ locks: Array<{ username: string; hostname: string; pid: number }> }> }).stacks;
    assert.deepEqual(
      stack.locks.map((l) => [l.username, l.hostname, String(l.pid)]),
      [[holder[1], holder[2], holder[3]]],
    );
    // Taken on 2026-11-28: older than the default --stale-after, so marked stale.
    assert.match(ours(['backend', 'ls', `file://${copy}`]).stdout, /ci@runner-7 \(pid 4121, stale\)/);
  });

  it('lists the lock the interrupted update left, and marks it stale when its process on this machine is gone', () => {
    const copy = copyOf(generated.backends[0].folder);
    const folder = join(copy, '.pulumi', 'locks', 'organization', 'hist', 'dev');
    const [lockFile] = readdirSync(folder).filter((name) => name.endsWith('.json'));
    assert.ok(lockFile, 'the interrupted update left its lock');
    const left = JSON.parse(readFileSync(join(folder, lockFile), 'utf8')) as { pid: number; username: string; hostname: string };
    const listed = (ours(['backend', 'ls', `file://${copy}`, '--format', 'json']).json() as { stacks: Array<{ locks: Array<{ pid: number; username: string; stale?: true }> }> }).stacks[0].locks;
    assert.deepEqual(
      listed.map((l) => [l.username, l.pid]),
      [[left.username, left.pid]],
    );
    // The same lock, held by a process of this machine that has exited, and by one that runs; taken a minute ago.
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!;
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    const staleOf = (extra: string[] = []) =>
      (ours(['backend', 'ls', `file://${copy}`, '--format', 'json', ...extra]).json() as { stacks: Array<{ locks: Array<{ stale?: true }> }> }).stacks[0].locks[0].stale;
    for (const [pid, stale] of [
      [exited, true],
      [process.pid, undefined],
    ] as const) {
      writeFileSync(join(folder, lockFile), JSON.stringify({ ...left, pid, hostname: hostname(), timestamp: minuteAgo }));
      assert.equal(staleOf(), stale, `pid ${pid}`);
    }
    writeFileSync(join(folder, lockFile), JSON.stringify({ ...left, pid: exited, hostname: hostname() }));
    assert.match(ours(['backend', 'ls', `file://${copy}`]).stdout, new RegExp(`\\(pid ${exited}, stale\\)`));
  });

  it('marks any lock older than --stale-after (default 1h) stale, even one of a running process or another machine', () => {
    const copy = copyOf(generated.backends[0].folder);
    const folder = join(copy, '.pulumi', 'locks', 'organization', 'hist', 'dev');
    const [lockFile] = readdirSync(folder).filter((name) => name.endsWith('.json'));
    const staleOf = (extra: string[] = []) =>
      (ours(['backend', 'ls', `file://${copy}`, '--format', 'json', ...extra]).json() as { stacks: Array<{ locks: Array<{ stale?: true }> }> }).stacks[0].locks[0].stale;
    const lockTaken = (msAgo: number, holder: object) =>
      writeFileSync(join(folder, lockFile), JSON.stringify({ username: 'ci', pid: process.pid, hostname: hostname(), ...holder, timestamp: new Date(Date.now() - msAgo).toISOString() }));
    lockTaken(2 * 3_600_000, {});
    assert.equal(staleOf(), true, 'two hours old, its process running');
    assert.equal(staleOf(['--stale-after', '3h']), undefined, 'younger than --stale-after 3h');
    lockTaken(10 * 60_000, { hostname: 'another-machine', pid: 1 });
    assert.equal(staleOf(), undefined, 'ten minutes old on another machine: may be live');
    assert.equal(staleOf(['--stale-after', '5m']), true);
    const refused = ours(['backend', 'ls', `file://${copy}`, '--stale-after', 'soon']);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /--stale-after must be a duration/);
  });

  it('inflates under QUOTA_STATE_MAX_INFLATED_MIB: a history entry or stack file past it is a problem naming the file', () => {
    const copy = copyOf(generated.backends[0].folder);
    const [newest] = historyFiles(copy)
      .filter((f) => f.endsWith('.history.json'))
      .reverse();
    // A real entry, padded with whitespace past 1 MiB: JSON still, and far smaller compressed.
    writeFileSync(newest, gzipSync(readFileSync(newest, 'utf8') + ' '.repeat(1.5 * 1024 * 1024)));
    const stackFile = join(copy, '.pulumi', 'stacks', 'hist', 'dev.json');
    writeFileSync(stackFile, gzipSync(readFileSync(stackFile, 'utf8') + ' '.repeat(1.5 * 1024 * 1024)));
    const allowed = ours(['history', 'organization/hist/dev', '--backend', `file://${copy}`, '--format', 'json']);
    assert.equal((allowed.json() as { entries: unknown[] }).entries.length, 9);
    const limited = ours(['history', 'organization/hist/dev', '--backend', `file://${copy}`, '--format', 'json'], scratch, { QUOTA_STATE_MAX_INFLATED_MIB: '1' });
    assert.equal(limited.status, 0, limited.stderr);
    const { entries, problems } = limited.json() as { entries: unknown[]; problems: Array<{ file: string; message: string }> };
    assert.equal(entries.length, 8);
    assert.deepEqual(
      problems.map((p) => p.file.split('/').pop()),
      [newest.split('/').pop()],
    );
    assert.match(problems[0].message, /1 MiB/);
    const counted = ours(['backend', 'ls', `file://${copy}`, '--counts', '--format', 'json'], scratch, { QUOTA_STATE_MAX_INFLATED_MIB: '1' });
    const listing = counted.json() as { stacks: Array<{ resources?: number }>; problems: Array<{ file: string; message: string }> };
    assert.equal(listing.stacks[0].resources, undefined);
    assert.ok(
      listing.problems.some((p) => p.file.endsWith('stacks/hist/dev.json') && /1 MiB/.test(p.message)),
      JSON.stringify(listing.problems),
    );
  });

  it('checks every stack file and checkpoint real Pulumi wrote without an error, pending operations included', () => {
    for (const backend of generated.backends) {
      const stacks = join(backend.folder, '.pulumi', 'stacks');
      const files = [...historyFiles(backend.folder).filter((f) => /\.checkpoint\.json/.test(f))];
      for (const entry of readdirSync(stacks, { recursive: true, withFileTypes: true }))
        if (entry.isFile() && /^dev\.json(\.gz|\.zst)?$/.test(entry.name)) files.push(join(entry.parentPath, entry.name));
      assert.ok(files.length >= 10, `${backend.layout} ${backend.compression}: ${files.length} files`);
      const result = ours(['check', '--format', 'json', ...files]);
      assert.equal(result.status, 0, result.stdout + result.stderr);
      const errors = (JSON.parse(result.stdout) as Array<{ diagnostics: Array<{ severity: string; code: string }> }>).flatMap((file) => file.diagnostics.filter((d) => d.severity === 'error'));
      assert.deepEqual(errors, []);
    }
  });

  it('the text forms are tables: the stacks, and the updates newest first', () => {
    const backend = generated.backends[0];
    const listed = ours(['backend', 'ls', '--backend', `file://${backend.folder}`]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /project layout, 1 stack/);
    assert.match(listed.stdout, /organization\/hist\/dev\s+destroy succeeded/);
    const history = ours(['history', 'hist/dev', '--backend', `file://${backend.folder}`, '--limit', '3']);
    assert.equal(history.status, 0, history.stderr);
    const lines = history.stdout.split('\n');
    assert.match(lines[0], /3 updates listed, newest first/);
    assert.match(lines[3], /^9\s+destroy\s+succeeded/);
    assert.match(lines[4], /^8\s+update\s+succeeded/);
    assert.match(lines[5], /^7\s+update\s+failed/);
  });

  it('says which entry cannot be read, and lists the rest: truncated, empty, undecodable, a bomb; marks a missing checkpoint', () => {
    const copy = copyOf(generated.backends[0].folder);
    const files = historyFiles(copy).filter((f) => f.endsWith('.history.json'));
    const checkpoints = historyFiles(copy).filter((f) => f.endsWith('.checkpoint.json'));
    writeFileSync(files[0], '{"kind": "upd'); // truncated
    writeFileSync(files[1], ''); // empty
    writeFileSync(files[2], Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02])); // gzip magic, no stream
    writeFileSync(files[3], gzipBomb(1, 1)); // inflates past the limit
    rmSync(checkpoints[8]); // the newest entry's checkpoint
    writeFileSync(files[4].replace(/-(\d+)\.history\.json$/, '-1.checkpoint.json'), gzipSync('{}')); // a checkpoint without its entry
    const result = ours(['history', 'organization/hist/dev', '--backend', `file://${copy}`, '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    const { entries, problems, orphanCheckpoints } = result.json() as { entries: Array<{ checkpoint?: string }>; problems: Array<{ file: string; message: string }>; orphanCheckpoints: string[] };
    assert.equal(entries.length, 5);
    assert.equal(entries[0].checkpoint, undefined);
    // Named by file, newest first as the entries are.
    const byFile = new Map(problems.map((p) => [p.file.split('/').pop()!, p.message]));
    const [truncated, empty, undecodable, bomb] = files.slice(0, 4).map((f) => f.split('/').pop()!);
    assert.deepEqual([...byFile.keys()], [bomb, undecodable, empty, truncated]);
    assert.match(byFile.get(truncated)!, /JSON/);
    assert.match(byFile.get(empty)!, /empty/);
    assert.match(byFile.get(undecodable)!, /gzip/);
    assert.match(byFile.get(bomb)!, /MiB/);
    assert.deepEqual(orphanCheckpoints, ['1']);
    const text = ours(['history', 'organization/hist/dev', '--backend', `file://${copy}`]);
    assert.match(text.stdout, /checkpoint missing/);
    assert.match(text.stdout, /checkpoint without its entry: 1/);
    assert.equal(text.stderr.split('\n').filter((l) => l.startsWith('warning: ')).length, 4);
  });

  it('refuses what is no backend (exit 1), an unknown meta.yaml version and Pulumi Cloud (exit 2), and an unknown stack (exit 1)', () => {
    const empty = mkdtempSync(join(scratch, 'empty-'));
    const none = ours(['backend', 'ls', `file://${empty}`]);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /is not a Pulumi DIY backend: it has no \.pulumi folder/);
    const future = copyOf(generated.backends[0].folder);
    writeFileSync(join(future, '.pulumi', 'meta.yaml'), 'version: 7\n');
    const newer = ours(['backend', 'ls', `file://${future}`]);
    assert.equal(newer.status, 2);
    assert.match(newer.stderr, /meta\.yaml has version 7/);
    const cloud = ours(['backend', 'ls', 'https://api.pulumi.com']);
    assert.equal(cloud.status, 2);
    assert.match(cloud.stderr, /Pulumi Cloud backend; quota-state reads DIY backends only/);
    const bare = ours(['backend', 'ls', 'state-folder']);
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /"state-folder" is not a backend URL; a folder is named file:\/\/.*state-folder/);
    const missing = ours(['history', 'organization/hist/prod', '--backend', `file://${generated.backends[0].folder}`]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no stack "organization\/hist\/prod".*its stacks: organization\/hist\/dev/);
    const usage = ours(['history']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /history takes one STACK/);
  });

  describe('a meta.yaml Pulumi refuses is refused, naming it; one it reads is read as it reads it (meta.go, yaml.v3)', () => {
    /**
     * Each case: what is put at .pulumi/meta.yaml of a copy of the project backend, and what real
     * Pulumi v3.274.1 does (`pulumi stack ls --all --json`): the stacks it lists, or its error. The
     * FIFO is not given to Pulumi: it blocks opening it (seen: killed after 20 s); ours answers at once.
     */
    const cases: Array<{ name: string; make: (path: string) => void; lists?: string[]; ours?: RegExp; pulumi?: RegExp | 'hangs' }> = [
      { name: 'missing (a project backend: Pulumi writes version 1)', make: (p) => rmSync(p), lists: ['organization/hist/dev'] },
      { name: 'version 0: the legacy layout, no stack there', make: (p) => writeFileSync(p, 'version: 0\n'), lists: [] },
      { name: 'version 1.0 is 1', make: (p) => writeFileSync(p, 'version: 1.0\n'), lists: ['organization/hist/dev'] },
      { name: 'version 1.5 is 1 (truncated)', make: (p) => writeFileSync(p, 'version: 1.5\n'), lists: ['organization/hist/dev'] },
      { name: 'version 0x1 is 1', make: (p) => writeFileSync(p, 'version: 0x1\n'), lists: ['organization/hist/dev'] },
      { name: 'a flow mapping and a comment', make: (p) => writeFileSync(p, '# the layout\n{version: 1}\n'), lists: ['organization/hist/dev'] },
      { name: 'empty', make: (p) => writeFileSync(p, ''), ours: /meta\.yaml is corrupt: missing version/, pulumi: /corrupt store: missing version in "\.pulumi\/meta\.yaml"/ },
      { name: 'no version key', make: (p) => writeFileSync(p, 'other: 1\n'), ours: /meta\.yaml is corrupt: missing version/, pulumi: /missing version/ },
      { name: 'version: null', make: (p) => writeFileSync(p, 'version: null\n'), ours: /meta\.yaml is corrupt: missing version/, pulumi: /missing version/ },
      { name: 'negative', make: (p) => writeFileSync(p, 'version: -1\n'), ours: /meta\.yaml has version -1/, pulumi: /'meta\.yaml' version \(-1\) is not supported/ },
      { name: 'above 1', make: (p) => writeFileSync(p, 'version: 2\n'), ours: /meta\.yaml has version 2/, pulumi: /'meta\.yaml' version \(2\) is not supported/ },
      { name: 'a word', make: (p) => writeFileSync(p, 'version: one\n'), ours: /meta\.yaml is corrupt: version one is not an integer/, pulumi: /cannot unmarshal !!str `one` into int/ },
      { name: 'a quoted number', make: (p) => writeFileSync(p, 'version: "1"\n'), ours: /meta\.yaml is corrupt: version "1" is a string/, pulumi: /cannot unmarshal !!str `1` into int/ },
      {
        name: 'out of int64',
        make: (p) => writeFileSync(p, 'version: 99999999999999999999\n'),
        ours: /meta\.yaml is corrupt: version 99999999999999999999 is out of range/,
        pulumi: /cannot unmarshal !!float/,
      },
      { name: 'a list', make: (p) => writeFileSync(p, '- 1\n'), ours: /meta\.yaml is corrupt: line 1: a list, not a mapping/, pulumi: /cannot unmarshal !!seq/ },
      { name: 'YAML garbage', make: (p) => writeFileSync(p, '{{{: ][\n'), ours: /meta\.yaml is corrupt: line 1/, pulumi: /corrupt store: unmarshal "\.pulumi\/meta\.yaml"/ },
      {
        name: 'binary (gzip bytes)',
        make: (p) => writeFileSync(p, gzipSync('version: 1\n')),
        ours: /meta\.yaml is corrupt: (it is not UTF-8 text|it holds control characters)/,
        pulumi: /corrupt store: unmarshal/,
      },
      {
        name: 'a folder',
        make: (p) => {
          rmSync(p);
          mkdirSync(p);
          writeFileSync(join(p, 'inside'), 'version: 1\n');
        },
        ours: /meta\.yaml cannot be read \(.*a folder, not a regular file\)/,
        pulumi: /write "\.pulumi\/meta\.yaml".*file exists/,
      },
      {
        name: 'a FIFO',
        make: (p) => {
          rmSync(p);
          assert.equal(spawnSync('mkfifo', [p]).status, 0);
        },
        ours: /meta\.yaml cannot be read \(.*a named pipe \(FIFO\), not a regular file\)/,
        pulumi: 'hangs',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const copy = copyOf(generated.backends[0].folder);
        const meta = join(copy, '.pulumi', 'meta.yaml');
        c.make(meta);
        const url = `file://${copy}`;
        if (c.pulumi !== 'hangs') {
          const { env: pulumiEnv, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: url, PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' });
          const theirs = spawnSync(generated.pulumi, ['stack', 'ls', '--all', '--json'], { cwd: scratch, env: pulumiEnv, encoding: 'utf8', timeout: 60_000 });
          cleanup();
          if (c.lists) {
            assert.equal(theirs.status, 0, theirs.stderr);
            assert.deepEqual((JSON.parse(theirs.stdout) as Array<{ name: string }>).map((s) => s.name).sort(), c.lists);
          } else {
            assert.equal(theirs.status, 1);
            assert.match(theirs.stderr, c.pulumi!);
          }
          // Pulumi writes a missing meta.yaml; ours reads the same backend again without it.
          if (c.lists && !c.name.startsWith('missing')) c.make(meta);
          else if (c.lists) rmSync(meta, { force: true });
        }
        const listed = ours(['backend', 'ls', url, '--format', 'json']);
        if (c.lists) {
          assert.equal(listed.status, 0, listed.stderr);
          assert.deepEqual(
            (listed.json() as { stacks: Array<{ name: string }> }).stacks.map((s) => s.name),
            c.lists,
          );
          return;
        }
        const before = c.name === 'a folder' || c.name === 'a FIFO' ? undefined : readFileSync(meta);
        for (const args of [
          ['backend', 'ls', url],
          ['history', 'organization/hist/dev', '--backend', url],
          ['backend', 'upgrade', '--backend', url],
          ['state', 'protect', '--backend', url, 'organization/hist/dev', '--all'],
        ]) {
          const result = ours(args);
          assert.equal(result.status, 2, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
          assert.match(result.stderr, c.ours!, args.join(' '));
          assert.match(result.stderr, new RegExp(`file://${copy}/\\.pulumi/meta\\.yaml|${copy}: \\.pulumi/meta\\.yaml`), 'the message names the file');
          assert.doesNotMatch(result.stderr, /internal error/);
        }
        if (before) assert.deepEqual(readFileSync(meta), before, 'meta.yaml is left as it was');
      });
    }
  });

  it('state … --backend: only STACK and --dest name stacks; a new name or a flag value that reads like a stack stays as written', () => {
    const copy = copyOf(generated.backends[0].folder);
    const stackFile = join(copy, '.pulumi', 'stacks', 'hist', 'dev.json');
    const urns = () => (JSON.parse(readFileSync(stackFile, 'utf8')) as { checkpoint: { latest: { resources: Array<{ urn: string }> } } }).checkpoint.latest.resources.map((r) => r.urn);
    for (const newName of ['hist/dev', 'organization/hist/dev']) {
      const renamed = ours(['state', 'rename', '--backend', `file://${copy}`, 'organization/hist/dev', urns().find((u) => u.includes('::hist:index:Thing::'))!, newName, '--break-lock']);
      assert.equal(renamed.status, 0, renamed.stdout + renamed.stderr);
      assert.ok(urns().includes(`urn:pulumi:dev::hist::hist:index:Thing::${newName}`), urns().join('\n'));
      assert.ok(!urns().some((u) => u.includes(copy)), 'no path in a urn');
    }
    // --dest=STACK names a stack too (the value split from its flag).
    const moved = ours(['state', 'move', '--backend', `file://${copy}`, 'hist/dev', '--dest=hist/dev', urns()[1], '--break-lock']);
    assert.match(moved.stderr, /--dest must be another file/);
  });

  it("finds the backend as Pulumi does: PULUMI_BACKEND_URL, then Pulumi.yaml's backend.url, then the nearest folder holding .pulumi/", () => {
    const backend = generated.backends[0];
    const project = mkdtempSync(join(scratch, 'project-'));
    writeFileSync(join(project, 'Pulumi.yaml'), `name: hist\nruntime: go\nbackend:\n  url: file://${backend.folder}\n`);
    // A bare name takes the project of Pulumi.yaml.
    const viaProject = ours(['history', 'dev', '--format', 'json'], project);
    assert.equal(viaProject.status, 0, viaProject.stderr);
    assert.equal((viaProject.json() as { stack: string }).stack, 'organization/hist/dev');
    const viaEnv = runQuotaState(['backend', 'ls', '--format', 'json'], { cwd: scratch, env: { ...env, PULUMI_BACKEND_URL: `file://${generated.backends[3].folder}` } });
    assert.equal(viaEnv.status, 0, viaEnv.stderr);
    assert.equal((JSON.parse(viaEnv.stdout) as { layout: string }).layout, 'legacy');
    const inside = join(backend.folder, '.pulumi', 'stacks');
    const nearest = ours(['backend', 'ls', '--format', 'json'], inside);
    assert.equal(nearest.status, 0, nearest.stderr);
    assert.equal((nearest.json() as { backend: string }).backend, `file://${backend.folder}`);
  });
});
