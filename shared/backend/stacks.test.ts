/**
 * `stack rm`, `restore-deleted`, `rename` and the deleted area's pruning over the one store interface
 * (a memory store): what each writes, in which order, and what each refuses with nothing written.
 */
import { strict as assert } from 'node:assert';
import { memoryStore, type MemoryStore } from '../../test/helpers/memoryStore';
import { listDeleted, listPulumiLeftovers, planPruneDeleted, removeStack, restoreDeleted, StackExists, StackHasResources } from './deleted';
import { renameStack, renameStackText, renameUrn } from './rename';
import { stackObjects } from './stackObjects';
import { copyStack, planCopy, writeNewDestinationMeta } from './copy';
import { readBackend } from './backend';

const identity = { pid: 1, username: 'u', hostname: 'h' };
const stackOf = (name: string, resources: Array<{ urn: string; type: string; [key: string]: unknown }>) =>
  JSON.stringify({ version: 3, checkpoint: { stack: `organization/p/${name}`, latest: { resources } } });
const root = (name: string) => ({ urn: `urn:pulumi:${name}::p::pulumi:pulumi:Stack::p-${name}`, type: 'pulumi:pulumi:Stack' });

function backend(resources: Array<{ urn: string; type: string; [key: string]: unknown }> = [root('dev')]): MemoryStore {
  return memoryStore({
    '.pulumi/meta.yaml': 'version: 1\n',
    '.pulumi/stacks/p/dev.json': stackOf('dev', resources),
    '.pulumi/stacks/p/dev.json.bak': stackOf('dev', []),
    '.pulumi/stacks/p/dev.pulumi-tags': '{"version":1,"tags":{"team":"blue"}}',
    '.pulumi/stacks/p/dev.x.json': stackOf('dev.x', []),
    '.pulumi/history/p/dev/dev-100.history.json': '{"kind":"update"}',
    '.pulumi/history/p/dev/dev-100.checkpoint.json': stackOf('dev', []),
    '.pulumi/history/p/dev/dev-200.history.json': '{"kind":"update"}',
    '.pulumi/history/p/dev/dev-200.checkpoint.json': stackOf('dev', resources),
    '.pulumi/backups/p/dev/dev.150.json': stackOf('dev', []),
  });
}

describe('stack rm, restore-deleted and rename over the store interface', () => {
  it("a stack's objects: its own files only, history and backups first, the stack file last", async () => {
    const names = (await stackObjects(backend(), { project: 'p', name: 'dev' })).map((o) => o.name);
    assert.equal(names[names.length - 1], '.pulumi/stacks/p/dev.json');
    assert.ok(!names.includes('.pulumi/stacks/p/dev.x.json'), "another stack's file (dev.x) is not dev's");
    assert.ok(names.indexOf('.pulumi/history/p/dev/dev-100.checkpoint.json') < names.indexOf('.pulumi/history/p/dev/dev-100.history.json'));
    assert.equal(names.length, 8);
  });

  it('rm refuses a stack with resources other than its root stack, writing nothing; --force moves it into the deleted area', async () => {
    const store = backend([root('dev'), { urn: 'urn:pulumi:dev::p::aws:s3/bucket:Bucket::b', type: 'aws:s3/bucket:Bucket' }]);
    const before = [...store.files.keys()].sort();
    await assert.rejects(removeStack(store, { project: 'p', name: 'dev' }, { identity, nowMs: 1000 }), StackHasResources);
    assert.deepEqual([...store.files.keys()].sort(), before);
    const { folder, moved } = await removeStack(store, { project: 'p', name: 'dev' }, { identity, nowMs: 1000, force: true });
    assert.equal(folder, '.pulumi/deleted/p/dev/1000000000/');
    assert.equal(moved.length, 8);
    assert.deepEqual([...store.files.keys()].filter((n) => !n.startsWith('.pulumi/deleted/')).sort(), ['.pulumi/meta.yaml', '.pulumi/stacks/p/dev.x.json'], 'the other stack and no lock are left');
    assert.ok(store.files.has(`${folder}manifest.json`));
    assert.ok(store.files.has(`${folder}history/p/dev/dev-200.checkpoint.json`));
    const [entry] = await listDeleted(store);
    assert.deepEqual([entry.stack, entry.complete, entry.historyEntries, entry.objects], ['organization/p/dev', true, 2, 8]);
  });

  it('rm of a lone root stack needs no --force; restore-deleted brings every object back, byte for byte, and empties the entry', async () => {
    const store = backend();
    const before = new Map([...store.files].map(([name, o]) => [name, new TextDecoder().decode(o.bytes)]));
    await removeStack(store, { project: 'p', name: 'dev' }, { identity, nowMs: 1000 });
    const report = await restoreDeleted(store, { project: 'p', name: 'dev' }, { identity });
    assert.equal(report.from, 'deleted-area');
    assert.deepEqual(report.recovered, { historyEntries: 2, backups: 1, tags: true, objects: 8 });
    assert.deepEqual(report.lost, []);
    assert.deepEqual(new Map([...store.files].map(([name, o]) => [name, new TextDecoder().decode(o.bytes)])), before);
  });

  it('restore-deleted refuses when the stack exists again, writing nothing', async () => {
    const store = backend();
    await removeStack(store, { project: 'p', name: 'dev' }, { identity, nowMs: 1000 });
    store.files.set('.pulumi/stacks/p/dev.json.gz', { bytes: new Uint8Array([0x1f, 0x8b]), version: 999, modifiedMs: 1 });
    const before = [...store.files.keys()].sort();
    await assert.rejects(restoreDeleted(store, { project: 'p', name: 'dev' }, { identity }), StackExists);
    assert.deepEqual([...store.files.keys()].sort(), before);
  });

  it("restore-deleted recovers what Pulumi's own stack rm leaves (the .bak, the backups) and names what it cannot", async () => {
    const store = backend();
    // Pulumi's removeStack: the stack file to its .bak; the tags and the history deleted.
    store.files.set('.pulumi/stacks/p/dev.json.bak', store.files.get('.pulumi/stacks/p/dev.json')!);
    for (const name of [...store.files.keys()]) if (name === '.pulumi/stacks/p/dev.json' || name.endsWith('.pulumi-tags') || name.startsWith('.pulumi/history/')) store.files.delete(name);
    assert.deepEqual(
      (await listPulumiLeftovers(store, 'project')).map((l) => [l.stack, l.backups]),
      [['organization/p/dev', 1]],
    );
    const report = await restoreDeleted(store, { project: 'p', name: 'dev' }, { identity });
    assert.equal(report.from, 'pulumi-leftovers');
    assert.equal(report.stackFileFrom, '.pulumi/stacks/p/dev.json.bak');
    assert.equal(store.text('.pulumi/stacks/p/dev.json'), stackOf('dev', [root('dev')]));
    assert.equal(report.lost.length, 2);
    assert.match(report.lost.join('\n'), /history/);
  });

  it('prune of the deleted area: by age, by count per stack, and incomplete entries always', async () => {
    const entry = (stack: string, id: string, complete = true) => ({ stack, name: stack, id, folder: `f/${id}/`, complete, objects: 1, bytes: 1, historyEntries: 0 });
    const entries = [entry('a', '1000000000'), entry('a', '3000000000'), entry('b', '2000000000', false), entry('b', '4000000000')];
    assert.deepEqual(
      planPruneDeleted(entries, { olderThanMs: 2500 }).map((e) => e.id),
      ['1000000000', '2000000000'],
    );
    assert.deepEqual(
      planPruneDeleted(entries, { keep: 1 }).map((e) => e.id),
      ['1000000000', '2000000000'],
    );
  });

  it("rename: urns, the root stack's name, references, checkpoint.stack; history renamed with its bytes, tags and backups moved, the old file as .bak", async () => {
    const store = backend([root('dev'), { urn: 'urn:pulumi:dev::p::a:b:C::x', type: 'a:b:C', parent: root('dev').urn, provider: 'urn:pulumi:dev::p::pulumi:providers:a::default::id-1' }]);
    const historyBytes = store.text('.pulumi/history/p/dev/dev-200.checkpoint.json');
    const report = await renameStack(store, { project: 'p', name: 'dev' }, { project: 'p', name: 'prod' }, { identity });
    assert.deepEqual([report.historyFiles, report.backups, report.tags], [4, 1, true]);
    const renamed = JSON.parse(store.text('.pulumi/stacks/p/prod.json')!) as { checkpoint: { stack: string; latest: { resources: Array<Record<string, string>> } } };
    assert.equal(renamed.checkpoint.stack, 'organization/p/prod');
    assert.equal(renamed.checkpoint.latest.resources[0].urn, 'urn:pulumi:prod::p::pulumi:pulumi:Stack::p-prod');
    assert.equal(renamed.checkpoint.latest.resources[1].parent, 'urn:pulumi:prod::p::pulumi:pulumi:Stack::p-prod');
    assert.equal(renamed.checkpoint.latest.resources[1].provider, 'urn:pulumi:prod::p::pulumi:providers:a::default::id-1');
    assert.equal(store.text('.pulumi/history/p/prod/prod-200.checkpoint.json'), historyBytes, 'history contents untouched');
    assert.ok(store.files.has('.pulumi/stacks/p/prod.pulumi-tags'));
    assert.ok(store.files.has('.pulumi/backups/p/prod/prod.150.json'));
    assert.ok(!store.files.has('.pulumi/stacks/p/dev.json'));
    assert.ok(store.files.has('.pulumi/stacks/p/dev.json.bak'));
    assert.ok(store.files.has('.pulumi/stacks/p/dev.x.json'), 'another stack is untouched');
    assert.deepEqual(
      [...store.files.keys()].filter((n) => n.startsWith('.pulumi/history/p/dev/')),
      [],
    );
    // Refused onto an existing stack, nothing written.
    const before = [...store.files.keys()].sort();
    await assert.rejects(renameStack(store, { project: 'p', name: 'prod' }, { project: 'p', name: 'dev.x' }, { identity }), /already exists/);
    assert.deepEqual([...store.files.keys()].sort(), before);
  });

  it('renameUrn: only the old stack (and project) is renamed; type chains keep their parents', () => {
    const r = { oldName: 'dev', oldProject: 'p', newName: 'prod', newProject: 'q' };
    assert.equal(renameUrn('urn:pulumi:dev::p::a:b:C$d:e:F::n', r), 'urn:pulumi:prod::q::a:b:C$d:e:F::n');
    assert.equal(renameUrn('urn:pulumi:other::p::a:b:C::n', r), 'urn:pulumi:other::p::a:b:C::n');
    assert.equal(renameUrn('urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev', r), 'urn:pulumi:prod::q::pulumi:pulumi:Stack::q-prod');
    const text = renameStackText(
      JSON.stringify({
        checkpoint: {
          stack: 'dev',
          latest: {
            resources: [{ urn: 'urn:pulumi:dev::p::a:b:C::n', outputs: { ref: { '4dabf18193072939515e22adb298388d': '5cf8f73096256a8f31e491e813e4eb8e', urn: 'urn:pulumi:dev::p::a:b:C::m' } } }],
          },
        },
      }),
      { oldName: 'dev', newName: 'prod' },
      'prod',
    );
    assert.match(text, /"urn":"urn:pulumi:prod::p::a:b:C::m"/);
  });
});

describe('backend copy over the store interface', () => {
  const copyOptions = { identity, nowMs: 5000 };
  const snapshot = (store: MemoryStore) => new Map([...store.files].map(([name, o]) => [name, new TextDecoder().decode(o.bytes)]));
  /** DST never holds a stack file whose history entries (each with its checkpoint) are not all there. */
  const historyWhole = (src: MemoryStore, dst: MemoryStore) => {
    if (!dst.files.has('.pulumi/stacks/p/dev.json')) return;
    for (const name of src.files.keys()) if (name.startsWith('.pulumi/history/p/dev/')) assert.equal(dst.text(name), src.text(name), `${name} with the stack file`);
  };

  it('copies every object, the stack file last; a rerun skips them all; DST reads back the same; SRC untouched', async () => {
    const src = backend([root('dev'), { urn: 'urn:pulumi:dev::p::a:b:C::x', type: 'a:b:C' }]);
    const before = snapshot(src);
    const dst = memoryStore();
    const order: string[] = [];
    const plan = await planCopy(src, await readBackend(src), dst, undefined, {});
    assert.deepEqual(
      plan.stacks.map((s) => [s.stack, s.destination, s.objects.length]),
      [
        ['organization/p/dev', 'absent', 8],
        ['organization/p/dev.x', 'absent', 1],
      ],
    );
    await writeNewDestinationMeta(dst);
    const [dev] = plan.stacks;
    const first = await copyStack(src, dst, dev, { ...copyOptions, progress: (_s, object, outcome) => outcome === 'written' && order.push(object.to) });
    assert.deepEqual([first.written, first.skipped, first.differences], [8, 0, []]);
    assert.equal(order[order.length - 1], '.pulumi/stacks/p/dev.json');
    const again = await copyStack(src, dst, (await planCopy(src, await readBackend(src), dst, await readBackend(dst), {})).stacks[0], copyOptions);
    assert.deepEqual([again.written, again.skipped], [0, 8]);
    assert.deepEqual(snapshot(src), before);
  });

  it('killed after any write, a rerun finishes it; DST never holds a stack file whose history is missing; SRC untouched', async () => {
    const src = backend([root('dev'), { urn: 'urn:pulumi:dev::p::a:b:C::x', type: 'a:b:C' }]);
    const before = snapshot(src);
    for (let kill = 1; kill <= 12; kill++) {
      let writes = 0;
      const dst = memoryStore(
        {},
        {
          before: (call) => {
            if (call === 'write' && ++writes > kill) throw new Error('killed');
          },
        },
      );
      const plan = await planCopy(src, await readBackend(src), dst, undefined, { stacks: (await readBackend(src)).stacks.filter((s) => s.name === 'dev') });
      await writeNewDestinationMeta(dst)
        .then(() => copyStack(src, dst, plan.stacks[0], copyOptions))
        .catch(() => undefined);
      historyWhole(src, dst);
      // The killed run's lock is left behind, as a killed process leaves it: the rerun breaks it.
      writes = -1000;
      const rerun = await planCopy(src, await readBackend(src), dst, await readBackend(dst).catch(() => undefined), { stacks: (await readBackend(src)).stacks.filter((s) => s.name === 'dev') });
      if (rerun.newDestination) await writeNewDestinationMeta(dst);
      const outcome = await copyStack(src, dst, rerun.stacks[0], { ...copyOptions, breakLock: true });
      assert.deepEqual(outcome.differences, []);
      historyWhole(src, dst);
      assert.deepEqual(snapshot(src), before);
    }
  });

  it('refuses a stack DST holds with another state; --overwrite keeps that one in DST’s deleted area; --move puts SRC’s in SRC’s deleted area after verifying', async () => {
    const src = backend();
    const dst = backend([root('dev'), { urn: 'urn:pulumi:dev::p::a:b:C::other', type: 'a:b:C' }]);
    const srcBackend = await readBackend(src);
    const only = { stacks: srcBackend.stacks.filter((s) => s.name === 'dev') };
    const refused = await planCopy(src, srcBackend, dst, await readBackend(dst), only);
    assert.equal(refused.stacks[0].destination, 'different');
    assert.match(refused.stacks[0].refused ?? '', /--overwrite/);
    const plan = await planCopy(src, srcBackend, dst, await readBackend(dst), { ...only, overwrite: true });
    const outcome = await copyStack(src, dst, plan.stacks[0], { ...copyOptions, overwrite: true, move: true });
    assert.equal(outcome.replaced, '.pulumi/deleted/p/dev/5000000000/');
    assert.equal(outcome.moved, '.pulumi/deleted/p/dev/5000000000/');
    assert.equal(dst.text('.pulumi/stacks/p/dev.json'), stackOf('dev', [root('dev')]));
    assert.deepEqual(
      (await listDeleted(dst)).map((e) => e.reason),
      ['backend copy --overwrite'],
    );
    assert.deepEqual(
      (await listDeleted(src)).map((e) => e.reason),
      ['backend copy --move'],
    );
    assert.ok(!src.files.has('.pulumi/stacks/p/dev.json'));
  });

  it('a legacy SRC into a project-layout DST: each stack placed in its urn’s project, or --project-for’s', async () => {
    const src = memoryStore({
      '.pulumi/stacks/dev.json': stackOf('dev', [root('dev')]),
      '.pulumi/stacks/dev.pulumi-tags': '{}',
      '.pulumi/history/dev/dev-1.history.json': '{}',
      '.pulumi/history/dev/dev-1.checkpoint.json': '{}',
      '.pulumi/stacks/empty.json': JSON.stringify({ version: 3, checkpoint: { stack: 'empty' } }),
    });
    const dst = memoryStore({ '.pulumi/meta.yaml': 'version: 1\n' });
    const srcBackend = await readBackend(src);
    const unplaced = await planCopy(src, srcBackend, dst, await readBackend(dst).catch(() => undefined), {});
    assert.match(unplaced.stacks.find((s) => s.stack === 'empty')!.refused ?? '', /--project-for empty=PROJECT/);
    const plan = await planCopy(src, srcBackend, dst, undefined, { projectFor: new Map([['empty', 'q']]) });
    assert.deepEqual(
      plan.stacks.map((s) => s.target),
      ['organization/p/dev', 'organization/q/empty'],
    );
    assert.deepEqual(
      plan.stacks[0].objects.map((o) => o.to),
      ['.pulumi/history/p/dev/dev-1.checkpoint.json', '.pulumi/history/p/dev/dev-1.history.json', '.pulumi/stacks/p/dev.pulumi-tags', '.pulumi/stacks/p/dev.json'],
    );
  });
});
