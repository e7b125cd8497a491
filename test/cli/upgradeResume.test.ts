/**
 * `quota-state backend upgrade` survives a crash at any instant: on a real legacy backend grown to
 * hundreds of history entries, the upgrade is killed (SIGKILL) at points spread over its whole run;
 * after each kill the backend is either the legacy layout, whole, or the project layout, whole, and a
 * rerun finishes the upgrade (its own lock left behind is cleared, as the process is gone). Real
 * Pulumi then reads the stack with its full history, and nothing of the old layout, no lock and no
 * journal is left.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { pulumiOnHistoryBackend } from '../helpers/realPulumi';
import { mulberry32 } from '../helpers/prng';
import { distPath, runQuotaState } from '../helpers/processes';

/** How many times the legacy history is copied: 9 entries become 9 × (1 + COPIES). */
const COPIES = 40;
const KILLS = 22;

type Generated = ReturnType<typeof ensureHistories>;

describe('quota-state backend upgrade, killed at any instant, finishes on a rerun', function () {
  this.timeout(20 * 60 * 1000);
  let generated: Generated;
  let scratch: string;
  let grown: string;
  let entries: number;

  const pulumi = (folder: string, args: string[]) => pulumiOnHistoryBackend(generated.pulumi, folder, args, scratch);

  const upgrade = (folder: string) => runQuotaState(['backend', 'upgrade', '--backend', `file://${folder}`]);

  before(() => {
    generated = ensureHistories();
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-upgrade-resume-'));
    // The real legacy backend, its history copied under later timestamps: an upgrade long enough to be killed anywhere in.
    grown = join(scratch, 'grown');
    cpSync(generated.backends.find((b) => b.layout === 'legacy')!.folder, grown, { recursive: true });
    rmSync(join(grown, '.pulumi', 'locks'), { recursive: true, force: true });
    const history = join(grown, '.pulumi', 'history', 'dev');
    const originals = readdirSync(history).filter((name) => /^dev-\d+\./.test(name));
    for (let copy = 1; copy <= COPIES; copy++) {
      for (const name of originals) {
        const nanos = /^dev-(\d+)\./.exec(name)![1];
        writeFileSync(join(history, name.replace(nanos, String(BigInt(nanos) + BigInt(copy) * 1_000_000_000_000n))), readFileSync(join(history, name)));
      }
    }
    const listed = pulumi(grown, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'dev']);
    assert.equal(listed.status, 0, listed.stderr);
    entries = (JSON.parse(listed.stdout) as unknown[]).length;
    assert.equal(entries, 9 * (1 + COPIES), 'Pulumi lists every grown entry of the legacy backend');
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** Every file under `.pulumi/`, relative. */
  const filesOf = (folder: string) =>
    readdirSync(join(folder, '.pulumi'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));

  it(`leaves a backend a rerun finishes, wherever in the run it is killed (${KILLS} kills)`, async () => {
    // How long a whole run takes here: the kills are spread over it.
    const timing = join(scratch, 'timing');
    cpSync(grown, timing, { recursive: true });
    const start = performance.now();
    assert.equal(upgrade(timing).status, 0);
    const whole = performance.now() - start;
    const random = mulberry32(53);
    const outcomes: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const folder = join(scratch, `kill-${kill}`);
      cpSync(grown, folder, { recursive: true });
      const delay = whole * ((kill + random()) / KILLS);
      const child = spawn(process.execPath, [distPath('cli/quota-state.js'), 'backend', 'upgrade', '--backend', `file://${folder}`], { stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      setTimeout(() => child.kill('SIGKILL'), delay);
      const code = await exited;
      const journal = existsSync(join(folder, '.pulumi', 'quota-state-upgrade.json'));
      const meta = existsSync(join(folder, '.pulumi', 'meta.yaml')) ? readFileSync(join(folder, '.pulumi', 'meta.yaml'), 'utf8').trim() : 'none';
      outcomes.push(`${delay.toFixed(0)} ms: ${code === null ? 'killed' : `exit ${code}`}, ${meta}, journal ${journal}`);

      // At every instant, Pulumi reads one whole layout: the legacy one until meta.yaml says 1, then the new one.
      const stackRef = meta === 'version: 1' ? 'organization/hist/dev' : 'dev';
      const before = pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', stackRef]);
      assert.equal(before.status, 0, `after a kill at ${delay.toFixed(0)} ms Pulumi reads ${stackRef}: ${before.stderr}`);
      assert.equal((JSON.parse(before.stdout) as unknown[]).length, entries, `after a kill at ${delay.toFixed(0)} ms: every entry of ${stackRef}`);

      const rerun = upgrade(folder);
      assert.equal(rerun.status, 0, `the rerun after a kill at ${delay.toFixed(0)} ms: ${rerun.stdout}${rerun.stderr}`);
      const history = pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']);
      assert.equal(history.status, 0, history.stderr);
      assert.equal((JSON.parse(history.stdout) as unknown[]).length, entries, `every entry after the rerun (kill at ${delay.toFixed(0)} ms)`);
      assert.equal(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']).status, 0);
      const left = filesOf(folder).filter(
        (name) => /^\.pulumi\/(history|backups)\/dev\//.test(name) || /^\.pulumi\/stacks\/dev\.json$/.test(name) || name.startsWith('.pulumi/locks/') || name.endsWith('quota-state-upgrade.json'),
      );
      assert.deepEqual(left, [], `nothing of the old layout, no lock and no journal left (kill at ${delay.toFixed(0)} ms)`);
      rmSync(folder, { recursive: true, force: true });
    }
    // The kills fell before, during and after the switch to the new layout.
    assert.ok(
      outcomes.some((o) => o.includes('killed') && o.includes('none')),
      outcomes.join('\n'),
    );
    assert.ok(
      outcomes.some((o) => o.includes('killed') && o.includes('journal true')),
      outcomes.join('\n'),
    );
  });

  it('says an upgrade was interrupted in backend ls, and finishes one interrupted after meta.yaml', () => {
    const folder = join(scratch, 'after-meta');
    cpSync(grown, folder, { recursive: true });
    // Interrupted after step 3: the new layout whole, the old objects and the journal left.
    assert.equal(upgrade(folder).status, 0);
    mkdirSync(join(folder, '.pulumi', 'history', 'dev'), { recursive: true });
    const leftover = '.pulumi/history/dev/dev-1.history.json';
    writeFileSync(join(folder, leftover), '{}');
    writeFileSync(
      join(folder, '.pulumi', 'quota-state-upgrade.json'),
      JSON.stringify({
        journal: 1,
        started: '2026-12-01T00:00:00Z',
        holder: { pid: 1, hostname: 'elsewhere' },
        stacks: [{ stack: 'dev', project: 'hist', moves: [{ from: leftover, to: '.pulumi/history/hist/dev/dev-1.history.json' }] }],
      }),
    );
    writeFileSync(join(folder, '.pulumi', 'history', 'hist', 'dev', 'dev-1.history.json'), '{}');
    const listed = runQuotaState(['backend', 'ls', `file://${folder}`]);
    assert.match(listed.stderr, /upgrade .*interrupted.*quota-state backend upgrade/);
    const rerun = upgrade(folder);
    assert.equal(rerun.status, 0, rerun.stderr);
    assert.match(rerun.stdout, /finished the interrupted upgrade of 1 stack/);
    assert.equal(existsSync(join(folder, leftover)), false);
    assert.equal(existsSync(join(folder, '.pulumi', 'quota-state-upgrade.json')), false);
    rmSync(join(folder, '.pulumi', 'history', 'hist', 'dev', 'dev-1.history.json'));
    assert.equal(pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']).status, 0);
  });

  it('finishes an upgrade an older run stopped halfway: meta.yaml first, a truncated new stack file, half the history moved', () => {
    const folder = join(scratch, 'halfway');
    cpSync(grown, folder, { recursive: true });
    const pulumiDir = join(folder, '.pulumi');
    writeFileSync(join(pulumiDir, 'meta.yaml'), 'version: 1\n');
    mkdirSync(join(pulumiDir, 'stacks', 'hist'), { recursive: true });
    const stackText = readFileSync(join(pulumiDir, 'stacks', 'dev.json'));
    writeFileSync(join(pulumiDir, 'stacks', 'hist', 'dev.json'), stackText.subarray(0, stackText.length >> 1));
    const oldHistory = join(pulumiDir, 'history', 'dev');
    const newHistory = join(pulumiDir, 'history', 'hist', 'dev');
    mkdirSync(newHistory, { recursive: true });
    readdirSync(oldHistory)
      .sort()
      .slice(0, 100)
      .forEach((name) => renameSync(join(oldHistory, name), join(newHistory, name)));
    const listed = runQuotaState(['backend', 'ls', `file://${folder}`]);
    assert.match(listed.stderr, /legacy stack file beside meta\.yaml version 1/);
    const rerun = upgrade(folder);
    assert.equal(rerun.status, 0, rerun.stdout + rerun.stderr);
    assert.match(rerun.stderr, /legacy stack files are beside it/);
    const history = pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', 'organization/hist/dev']);
    assert.equal(history.status, 0, history.stderr);
    assert.equal((JSON.parse(history.stdout) as unknown[]).length, entries);
    assert.ok(readFileSync(join(pulumiDir, 'stacks', 'hist', 'dev.json')).equals(stackText), 'the truncated copy was replaced by the whole stack file');
    assert.equal(existsSync(join(pulumiDir, 'stacks', 'dev.json')), false);
    assert.equal(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']).status, 0);
  });

  it('removes no emptied folder through a symbolic link: a linked .pulumi/backups keeps its outside folder', () => {
    const folder = join(scratch, 'linked-backups');
    cpSync(grown, folder, { recursive: true });
    const outside = join(scratch, 'outside-backups');
    mkdirSync(join(outside, 'dev'), { recursive: true });
    rmSync(join(folder, '.pulumi', 'backups'), { recursive: true, force: true });
    symlinkSync(outside, join(folder, '.pulumi', 'backups'));
    const result = upgrade(folder);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.ok(existsSync(join(outside, 'dev')), 'the empty folder outside the backend is still there');
  });
});
