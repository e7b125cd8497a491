/**
 * Compressed DIY stack files through the built `quota-state`: `check` reads what `state` reads (a
 * gzip or zstd file is checked as the state it holds, under its own path, in every format), `fix`
 * sends it to `state repair`, a zstd stack is refused for editing where node:zlib cannot write zstd,
 * and `QUOTA_STATE_MAX_INFLATED_MIB` lowers the limit.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { distPath, ROOT } from '../helpers/processes';

const EXAMPLE = join(ROOT, 'examples', 'webshop.state.json');
const FORMATS = ['text', 'json', 'github', 'sarif'];
const ROLE = 'urn:pulumi:production::webshop::aws:iam/role:Role::api-role';

/** A zstd frame of raw blocks (no declared size, 128 KiB window), as a streaming encoder may write one. */
function zstdRaw(content: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  for (let at = 0; at < content.length; at += 128 * 1024) {
    const block = content.subarray(at, at + 128 * 1024);
    const header = (block.length << 3) | (at + 128 * 1024 >= content.length ? 1 : 0);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), block);
  }
  return Buffer.concat(parts);
}

describe('quota-state on compressed stack files', () => {
  let dir: string;
  const run = (args: string[], env: Record<string, string> = {}) => {
    const result = spawnSync(process.execPath, [distPath('cli/quota-state.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-compressed-'));
    const plain = readFileSync(EXAMPLE);
    copyFileSync(EXAMPLE, join(dir, 'webshop.state.json'));
    writeFileSync(join(dir, 'webshop.state.json.gz'), zlib.gzipSync(plain));
    writeFileSync(join(dir, 'webshop.state.json.zst'), zstdRaw(plain));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const compressed of ['webshop.state.json.gz', 'webshop.state.json.zst']) {
    it(`check gives ${compressed} the plain file's diagnostics, under its own path, in every format`, () => {
      for (const format of FORMATS) {
        const plain = run(['check', 'webshop.state.json', '--format', format]);
        const packed = run(['check', compressed, '--format', format]);
        assert.equal(plain.status, 1, plain.stderr);
        assert.equal(packed.status, 1, `${format}: ${packed.stderr}`);
        assert.equal(packed.stderr, '');
        assert.ok(packed.stdout.includes(compressed), `${format} names ${compressed}`);
        assert.equal(packed.stdout.split(compressed).join('webshop.state.json'), plain.stdout, format);
      }
      const text = run(['check', compressed]).stdout;
      assert.match(text, new RegExp(`^${compressed.replace(/\./g, '\\.')}:161:29: error unknown-provider: `, 'm'));
      assert.match(text, /^1 file checked, 4 problems$/m);
    });
  }

  it('checks compressed stacks on worker threads too, by content when the name says nothing, and skips compressed non-state', () => {
    copyFileSync(join(dir, 'webshop.state.json.gz'), join(dir, 'backup.gz'));
    writeFileSync(join(dir, 'notes.txt.gz'), zlib.gzipSync('just some notes'));
    const result = run(['check', 'webshop.state.json.gz', 'webshop.state.json.zst', 'backup.gz', 'notes.txt.gz', '--jobs', '2', '--format', 'json']);
    assert.equal(result.status, 1, result.stderr);
    const reports = JSON.parse(result.stdout) as Array<{ file: string; skipped?: boolean; diagnostics: unknown[] }>;
    assert.deepEqual(
      reports.map((r) => [r.file, r.skipped ?? false, r.diagnostics.length]),
      [
        ['webshop.state.json.gz', false, 4],
        ['webshop.state.json.zst', false, 4],
        ['backup.gz', false, 4],
        ['notes.txt.gz', true, 0],
      ],
    );
  });

  it('refuses a corrupt compressed file as unreadable input (exit 2), naming it', () => {
    const gz = readFileSync(join(dir, 'webshop.state.json.gz'));
    writeFileSync(join(dir, 'truncated.json.gz'), gz.subarray(0, gz.length - 100));
    const result = run(['check', 'truncated.json.gz', 'webshop.state.json']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^quota-state: truncated\.json\.gz looks gzip-compressed but does not decompress: /);
    assert.match(result.stdout, /^1 file checked, 4 problems$/m);
  });

  it('fix leaves a compressed stack to `state repair`, writing nothing', () => {
    const before = readFileSync(join(dir, 'webshop.state.json.gz'));
    const result = run(['fix', 'webshop.state.json.gz']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'webshop.state.json.gz: skipped: a compressed stack file; `quota-state state repair webshop.state.json.gz` repairs it in place, compressed');
    assert.deepEqual(readFileSync(join(dir, 'webshop.state.json.gz')), before);
    const repaired = run(['state', 'repair', 'webshop.state.json.gz']);
    assert.equal(repaired.status, 0, repaired.stderr + repaired.stdout);
    assert.equal(zlib.gunzipSync(readFileSync(join(dir, 'webshop.state.json.gz.bak'))).toString(), readFileSync(EXAMPLE, 'utf8'));
  });

  it('edits a zstd stack only where node:zlib can write zstd; elsewhere refuses before writing (a dry run still works)', () => {
    const file = join(dir, 'webshop.state.json.zst');
    const before = readFileSync(file);
    const dryRun = run(['state', 'protect', file, ROLE, '--dry-run']);
    assert.equal(dryRun.status, 0, dryRun.stderr);
    assert.match(dryRun.stdout, /^\+\s+"protect": true,?$/m);
    const edit = run(['state', 'protect', file, ROLE]);
    const writer = zlib as unknown as { zstdCompressSync?: unknown; zstdDecompressSync?: (b: Buffer) => Buffer };
    if (writer.zstdCompressSync) {
      assert.equal(edit.status, 0, edit.stderr + edit.stdout);
      assert.match(writer.zstdDecompressSync!(readFileSync(file)).toString(), /"protect": true/);
      return;
    }
    assert.equal(edit.status, 1, edit.stderr + edit.stdout);
    assert.match(edit.stderr, /webshop\.state\.json\.zst is zstd-compressed, and this Node\.js \(v[\d.]+\) can read zstd but not write it .*nothing was written/);
    assert.deepEqual(readFileSync(file), before);
    assert.ok(!existsSync(`${file}.bak`));
  });

  it('QUOTA_STATE_MAX_INFLATED_MIB lowers the limit for check, fix and state; a bad value is refused', () => {
    writeFileSync(join(dir, 'two.json.gz'), zlib.gzipSync(Buffer.alloc(2 * 1024 * 1024 + 1, 0x20)));
    const limited = { QUOTA_STATE_MAX_INFLATED_MIB: '2' };
    for (const args of [
      ['check', 'two.json.gz'],
      ['fix', 'two.json.gz'],
      ['state', 'repair', 'two.json.gz'],
    ]) {
      const result = run(args, limited);
      assert.equal(result.status, 2, `${args[0]}: ${result.stdout}`);
      assert.equal(result.stderr.trim(), 'quota-state: two.json.gz decompresses to more than 2 MiB, the limit for a decompressed file; it was not read further');
    }
    assert.equal(run(['check', 'webshop.state.json.gz'], limited).status, 1);
    for (const bad of ['0', '257', '1.5', 'lots']) {
      const result = run(['check', 'webshop.state.json.gz'], { QUOTA_STATE_MAX_INFLATED_MIB: bad });
      assert.equal(result.status, 2);
      assert.equal(result.stderr.trim(), `quota-state: QUOTA_STATE_MAX_INFLATED_MIB must be a whole number of MiB from 1 to 256, not "${bad}"`);
    }
  });
});
