/**
 * `quota-state stack rm`, `restore-deleted` and `rename` on the generated real histories, judged by
 * real Pulumi v3.274.1: after rm, Pulumi no longer lists the stack; after restore-deleted it reads
 * it back with its whole history, export and tags; after rename it loads the renamed stack and lists
 * its history; and what Pulumi's own `stack rm` leaves is recovered in part, naming what is lost.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { pulumiOnHistoryBackend } from '../helpers/realPulumi';
import { runQuotaState } from '../helpers/processes';

const scratch = join(tmpdir(), `quota-state-stacks-${process.pid}`);
let generated: ReturnType<typeof ensureHistories>;

function copyOf(variant: string, name: string): string {
  const from = generated.backends.find((b) => `${b.layout}-${b.compression}` === variant)!.folder;
  const copy = join(scratch, name);
  cpSync(from, copy, { recursive: true });
  // The generator's interrupted update left its lock: these tests are not about locks.
  rmSync(join(copy, '.pulumi', 'locks'), { recursive: true, force: true });
  return copy;
}

function pulumi(folder: string, args: string[], cwd = scratch): string {
  const result = pulumiOnHistoryBackend(generated.pulumi, folder, args, cwd);
  assert.equal(result.status, 0, `pulumi ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

const ours = (args: string[], cwd = scratch) => runQuotaState(args, { cwd, env: { ...process.env, HOME: scratch, PULUMI_BACKEND_URL: '' } });
const historyOf = (folder: string, stack: string) => JSON.parse(pulumi(folder, ['stack', 'history', '--json', '--page-size', '0', '--stack', stack])) as Array<Record<string, unknown>>;
const stacksOf = (folder: string) => (JSON.parse(pulumi(folder, ['stack', 'ls', '--json', '--all'])) as Array<{ name: string }>).map((s) => s.name);

describe('quota-state stack rm, restore-deleted and rename, against real Pulumi', function () {
  this.timeout(15 * 60 * 1000);
  before(() => {
    generated = ensureHistories();
    mkdirSync(scratch, { recursive: true });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const variant of ['project-plain', 'project-zstd', 'legacy-plain']) {
    it(`${variant}: rm refuses without --force; with it Pulumi no longer lists the stack; restore-deleted gives it back with history, export and tags`, () => {
      const folder = copyOf(variant, `rm-${variant}`);
      const stack = variant.startsWith('legacy') ? 'dev' : 'organization/hist/dev';
      pulumi(folder, ['stack', 'tag', 'set', '--stack', stack, 'owner', 'team-a']);
      const history = historyOf(folder, stack);
      const exported = pulumi(folder, ['stack', 'export', '--stack', stack]);
      const tags = pulumi(folder, ['stack', 'tag', 'ls', '--json', '--stack', stack]);

      const refused = ours(['stack', 'rm', stack, '--backend', `file://${folder}`]);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /still has resources; removal rejected/);
      assert.equal(pulumi(folder, ['stack', 'export', '--stack', stack]), exported, 'nothing written');

      const removed = ours(['stack', 'rm', stack, '--backend', `file://${folder}`, '--force']);
      assert.equal(removed.status, 0, removed.stderr);
      assert.match(removed.stdout, /has been removed: \d+ objects \(9 history entries\) are kept in \.pulumi\/deleted\//);
      assert.deepEqual(stacksOf(folder), []);
      const listed = ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`, '--format', 'json']);
      assert.equal(listed.status, 0, listed.stderr);
      const deleted = (JSON.parse(listed.stdout) as { deleted: Array<{ stack: string; historyEntries: number; complete: boolean }> }).deleted;
      assert.deepEqual(
        deleted.map((d) => [d.stack, d.historyEntries, d.complete]),
        [[stack, 9, true]],
      );

      const restored = ours(['stack', 'restore-deleted', stack, '--backend', `file://${folder}`]);
      assert.equal(restored.status, 0, restored.stderr);
      assert.match(restored.stdout, /recovered: 9 history entries, 9 backups, the tags/);
      // Pulumi's `stack ls` above wrote meta.yaml version 1 into the legacy backend it found without stacks: the stack comes back in its project.
      const now = variant.startsWith('legacy') ? 'organization/hist/dev' : stack;
      if (variant.startsWith('legacy')) assert.match(restored.stdout, /placed in project hist/);
      assert.deepEqual(historyOf(folder, now), history);
      assert.equal(pulumi(folder, ['stack', 'export', '--stack', now]), exported);
      assert.equal(pulumi(folder, ['stack', 'tag', 'ls', '--json', '--stack', now]), tags);
      // The entry is gone: a second restore has nothing of ours, and the stack exists anyway.
      const again = ours(['stack', 'restore-deleted', now, '--backend', `file://${folder}`]);
      assert.equal(again.status, 1);
      assert.match(again.stderr, /exists/);
    });
  }

  it('backend prune --deleted: an entry older than --older-than goes (--dry-run first removes nothing); a newer one stays', () => {
    const folder = copyOf('project-plain', 'prune-deleted');
    assert.equal(ours(['stack', 'rm', 'organization/hist/dev', '--force', '--backend', `file://${folder}`]).status, 0);
    // The entry as if removed in September 2001 (its folder is its <UnixNano>): newer than 10000 days, older than 30.
    const area = join(folder, '.pulumi', 'deleted', 'hist', 'dev');
    const [id] = readdirSync(area);
    renameSync(join(area, id), join(area, '1000000000000000000'));
    const kept = ours(['backend', 'prune', '--deleted', '--older-than', '10000d', '--backend', `file://${folder}`]);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /removed 0 of 1 deleted entries/);
    const dry = ours(['backend', 'prune', '--deleted', '--older-than', '30d', '--dry-run', '--backend', `file://${folder}`]);
    assert.match(dry.stdout, /would remove \.pulumi\/deleted\/hist\/dev\/1000000000000000000\/ \(organization\/hist\/dev, 9 history entries/);
    assert.ok(existsSync(join(area, '1000000000000000000', 'manifest.json')));
    const pruned = ours(['backend', 'prune', '--deleted', '--older-than', '30d', '--backend', `file://${folder}`]);
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.match(pruned.stdout, /removed 1 of 1 deleted entries \(\d+ objects\)/);
    const listed = JSON.parse(ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`, '--format', 'json']).stdout) as { deleted: unknown[] };
    assert.deepEqual(listed.deleted, []);
  });

  it("restore-deleted after Pulumi's own `stack rm --force`: the stack from its .bak, the backups kept, the history and tags named as lost", () => {
    const folder = copyOf('project-gzip', 'pulumi-rm');
    const exported = pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']);
    pulumi(folder, ['stack', 'rm', '--force', '--yes', '--stack', 'organization/hist/dev']);
    const listed = ours(['backend', 'ls', '--deleted', '--backend', `file://${folder}`]);
    assert.match(listed.stdout, /organization\/hist\/dev {2}\.pulumi\/stacks\/hist\/dev\.json\.gz\.bak, 9 backups/);
    const restored = ours(['stack', 'restore-deleted', 'organization/hist/dev', '--backend', `file://${folder}`]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /from what Pulumi's stack rm left: \.pulumi\/stacks\/hist\/dev\.json\.gz/);
    assert.match(restored.stdout, /not recovered: the history/);
    assert.match(restored.stdout, /not recovered: the tags/);
    assert.equal(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/dev']), exported);
  });

  it('rename: real Pulumi loads the renamed stack and lists its whole history; tags and backups follow; Pulumi.<stack>.yaml is renamed', () => {
    const folder = copyOf('project-plain', 'rename');
    const project = join(scratch, 'rename-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
    writeFileSync(join(project, 'Pulumi.dev.yaml'), 'config: {}\n');
    pulumi(folder, ['stack', 'tag', 'set', '--stack', 'organization/hist/dev', 'owner', 'team-a']);
    const history = historyOf(folder, 'organization/hist/dev');
    const renamed = ours(['stack', 'rename', 'organization/hist/dev', 'prod', '--backend', `file://${folder}`], project);
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.deepEqual(stacksOf(folder), ['organization/hist/prod']);
    // The history's entries are the same updates, byte for byte (their contents untouched).
    assert.deepEqual(historyOf(folder, 'organization/hist/prod'), history);
    const exported = JSON.parse(pulumi(folder, ['stack', 'export', '--stack', 'organization/hist/prod'])) as { deployment: { resources: Array<{ urn: string }> } };
    assert.ok(exported.deployment.resources.every((r) => r.urn.startsWith('urn:pulumi:prod::hist::')));
    assert.equal(exported.deployment.resources[0].urn, 'urn:pulumi:prod::hist::pulumi:pulumi:Stack::hist-prod');
    assert.match(pulumi(folder, ['stack', 'tag', 'ls', '--stack', 'organization/hist/prod']), /owner\s+team-a/);
    assert.equal(readdirSync(join(folder, '.pulumi', 'backups', 'hist', 'prod')).filter((f) => !f.endsWith('.attrs')).length, 9);
    assert.ok(existsSync(join(project, 'Pulumi.prod.yaml')) && !existsSync(join(project, 'Pulumi.dev.yaml')));
    // A new stack under the old name inherits no tags (Pulumi's rename leaves them behind).
    pulumi(folder, ['stack', 'init', 'organization/hist/dev'], project);
    assert.doesNotMatch(pulumi(folder, ['stack', 'tag', 'ls', '--stack', 'organization/hist/dev']), /team-a/);
    // Onto an existing stack: refused, as Pulumi refuses.
    const onto = ours(['stack', 'rename', 'organization/hist/prod', 'dev', '--backend', `file://${folder}`], project);
    assert.equal(onto.status, 1);
    assert.match(onto.stderr, /a stack named organization\/hist\/dev already exists/);
  });
});
