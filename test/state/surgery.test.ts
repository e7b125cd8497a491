/** State surgery (shared/state/surgery): each operation's result, its edits, its refusals, and Pulumi's deviations by name. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import { clearPending, moveResources, removeResources, renameResource, repairState, setFlag } from '../../shared/state/surgery';
import { applyEdits } from '../../shared/edits';
import { buildCases, runOurs } from './surgery/cases';
import { TEST_SECRETS_PROVIDERS } from './surgery/generate';
import { A, B, CHILD, COMP, PROV, PROV_REF, ROOT, sampleRecords, U, type Rec } from './surgery/sample';

const records = sampleRecords;

function exportText(resources: Rec[], extra: Rec = {}, indent = 4): string {
  return `${JSON.stringify({ version: 3, ...extra, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources } }, null, indent)}\n`;
}

const resourcesOf = (text: string) => (JSON.parse(text) as { deployment: { resources: Rec[] } }).deployment.resources;
const urnsOf = (text: string) => resourcesOf(text).map((r) => r.urn);

describe('state surgery: remove', () => {
  it('refuses a resource with dependents and lists them as Pulumi does', () => {
    const outcome = removeResources(exportText(records()), [A]);
    assert.equal(outcome.status, 'refused');
    assert.equal(
      outcome.errors[0],
      `${A} can't be safely deleted because the following resources depend on it:\n * "b"             (${B})\n\nDelete those resources first or pass --target-dependents.`,
    );
    assert.deepEqual(outcome.edits, []);
  });

  it('removes the dependents too with targetDependents, and edits only the removed records', () => {
    const text = exportText(records());
    const outcome = removeResources(text, [COMP], { targetDependents: true });
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.deepEqual(urnsOf(outcome.text), [ROOT, PROV]);
    assert.deepEqual(outcome.dependentsRemoved, [CHILD, A, B]);
    assert.equal(outcome.message, 'Resource deleted');
    // Untouched records keep their bytes.
    for (const kept of [0, 1]) assert.ok(outcome.text.includes(JSON.stringify(records()[kept], null, 4).split('\n').join('\n            ')));
  });

  it('refuses a protected target unless forced', () => {
    const resources = records();
    resources[5].protect = true;
    const refusedOutcome = removeResources(exportText(resources), [B]);
    assert.equal(refusedOutcome.status, 'refused');
    assert.match(refusedOutcome.errors[0], /can't be safely deleted because it is protected\. Re-run this command with --force to force deletion/);
    const forced = removeResources(exportText(resources), [B], { force: true });
    assert.equal(forced.status, 'applied');
    assert.ok(forced.notes.some((n) => n.includes('due to presence of --force')));
  });

  it('orders several targets as Pulumi does (dependents first) and removes all with --all', () => {
    const outcome = removeResources(exportText(records()), [A, B]);
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.equal(outcome.message, '2 resources deleted');
    const all = removeResources(exportText(records()), [], { all: true });
    assert.deepEqual(urnsOf(all.text), []);
    assert.equal(all.message, 'Resources deleted');
  });

  it('answers an unknown urn with Pulumi\'s wording and "Did you mean"', () => {
    const outcome = removeResources(exportText(records()), [U('aws:s3:Bucket', 'bb')]);
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.errors[0], /^No such resource ".*::bb" exists in the current state\nDid you mean:\n {2}urn:pulumi:s::p::aws:s3:Bucket::b\n/);
  });

  it('lists the copies of an ambiguous urn and addresses one as URN#N', () => {
    const resources = [...records(), { urn: B, custom: true, id: 'b0', type: 'aws:s3:Bucket', parent: ROOT, provider: PROV_REF, delete: true }];
    const ambiguous = removeResources(exportText(resources), [B]);
    assert.equal(ambiguous.status, 'refused');
    assert.match(ambiguous.errors[0], /ambiguously referred to multiple resources[\s\S]*#1 \(id "b1", live\)[\s\S]*#2 \(id "b0", pending deletion\)/);
    const second = removeResources(exportText(resources), [`${B}#2`]);
    assert.equal(second.status, 'applied', second.errors.join('\n'));
    assert.deepEqual(
      resourcesOf(second.text)
        .filter((r) => r.urn === B)
        .map((r) => r.id),
      ['b1'],
    );
  });

  it('refuses a file with a JSON syntax error, saying where', () => {
    const outcome = removeResources('{"version": 3, "deployment": {"resources": [}', [A]);
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.errors[0], /not valid JSON \(line 1, column \d+/);
  });
});

describe('state surgery: flags, version and features', () => {
  it('taint sets version 4 and the taint feature; untainting the last drops back to version 3', () => {
    const tainted = setFlag(exportText(records()), 'taint', [A]);
    const root = JSON.parse(tainted.text) as Rec;
    assert.equal(root.version, 4);
    assert.deepEqual(root.features, ['taint']);
    const untainted = setFlag(tainted.text, 'untaint', [], { all: true });
    const after = JSON.parse(untainted.text) as Rec;
    assert.equal(after.version, 3);
    assert.equal(after.features, undefined);
    assert.equal(untainted.text, exportText(records()));
  });

  it('drops stale features as the serializer does, and a bare deployment gets neither', () => {
    const stale = exportText(records(), { features: ['taint'] }).replace('"version": 3', '"version": 4');
    const outcome = setFlag(stale, 'protect', [A]);
    const root = JSON.parse(outcome.text) as Rec;
    assert.equal(root.version, 3);
    assert.equal(root.features, undefined);
    const bare = JSON.stringify({ manifest: {}, resources: records() }, null, 2);
    const protectedBare = setFlag(bare, 'protect', [A]);
    assert.equal((JSON.parse(protectedBare.text) as Rec).version, undefined);
  });

  it('protect inserts one member and leaves every other byte alone; records pending deletion are not eligible', () => {
    const text = exportText(records());
    const outcome = setFlag(text, 'protect', [A]);
    assert.equal(outcome.edits.length, 1);
    assert.equal(outcome.edits[0].length, 0);
    assert.equal(applyEdits(text, outcome.edits), outcome.text);
    const withCopy = exportText([...records(), { urn: B, custom: true, id: 'b0', type: 'aws:s3:Bucket', delete: true }]);
    const refusedOutcome = setFlag(withCopy, 'protect', [`${B}#2`]);
    assert.equal(refusedOutcome.status, 'refused');
    assert.match(refusedOutcome.errors[0], /pending deletion/);
  });

  it('keeps a minified file minified', () => {
    const text = JSON.stringify({ version: 3, deployment: { manifest: {}, resources: records() } });
    const outcome = setFlag(text, 'taint', [A]);
    assert.ok(!outcome.text.includes('\n'));
    assert.match(outcome.text, /^\{"version":4,"features":\["taint"\],/);
  });

  it("keeps a checkpoint's config and says Pulumi drops it", () => {
    const text = JSON.stringify({ version: 3, checkpoint: { stack: 'organization/p/s', config: { 'p:x': '1' }, latest: { manifest: {}, resources: records() } } }, null, 4);
    const outcome = setFlag(text, 'protect', [A]);
    assert.deepEqual(((JSON.parse(outcome.text) as Rec).checkpoint as Rec).config, { 'p:x': '1' });
    assert.ok(outcome.notes.some((n) => n.includes('Pulumi drops it')));
  });
});

describe('state surgery: rename', () => {
  it('renames a provider and rewrites every provider reference to it', () => {
    const outcome = renameResource(exportText(records()), PROV, 'main');
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    const after = resourcesOf(outcome.text);
    assert.equal(after[1].urn, U('pulumi:providers:aws', 'main'));
    for (const r of after.slice(3)) assert.equal(r.provider, `${U('pulumi:providers:aws', 'main')}::prov-1`);
  });

  it('rewrites parents, dependencies and property dependencies; aliases are left as Pulumi leaves them', () => {
    const resources = records();
    resources[5].aliases = [A];
    const outcome = renameResource(exportText(resources), A, 'a2');
    const after = resourcesOf(outcome.text);
    assert.deepEqual(after[5].dependencies, [U('aws:s3:Bucket', 'a2')]);
    assert.deepEqual(after[5].propertyDependencies, { x: [U('aws:s3:Bucket', 'a2')] });
    assert.deepEqual(after[5].aliases, [A]);
    const component = renameResource(exportText(records()), COMP, 'comp2');
    assert.equal(resourcesOf(component.text)[3].parent, U('my:Comp', 'comp2'));
    // The child's urn keeps its type chain: a rename changes the name only.
    assert.equal(resourcesOf(component.text)[3].urn, CHILD);
  });

  it('takes a name, not a urn, and refuses a name that is taken', () => {
    assert.equal(renameResource(exportText(records()), 'not-a-urn', 'x').errors[0], 'The provided input URN is not valid');
    assert.equal(renameResource(exportText(records()), A, 'b').errors[0], 'The chosen new urn for the state corresponds to an already existing resource');
    // Pulumi would write `…::urn:pulumi:…`, a urn nobody can rename back (#11746): refused, with the name part offered.
    assert.equal(renameResource(exportText(records()), A, U('aws:s3:Bucket', 'a2')).errors[0], 'NEW-NAME is a name, not a URN (Pulumi #11746): did you mean "a2"?');
  });

  it('deviation replaceWith-duplicated: rewrites replaceWith lists in place where Pulumi appends and duplicates them', () => {
    const resources = records();
    resources[5].replaceWith = [A];
    const text = exportText(resources, { features: ['replaceWith'] }).replace('"version": 3', '"version": 4');
    const outcome = renameResource(text, A, 'a2');
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    // Pulumi 3.274.1 writes [a, a2] and then panics on its own integrity check.
    assert.deepEqual(resourcesOf(outcome.text)[5].replaceWith, [U('aws:s3:Bucket', 'a2')]);
    const unrelated = renameResource(text, COMP, 'comp2');
    // Pulumi writes [a, a] here.
    assert.deepEqual(resourcesOf(unrelated.text)[5].replaceWith, [A]);
  });

  it('deviation rename-ambiguous-child: renames a parent whose child has a copy pending deletion', () => {
    const resources = [...records(), { urn: CHILD, custom: true, id: 'c0', type: 'aws:s3:Bucket', parent: COMP, provider: PROV_REF, delete: true }];
    const outcome = renameResource(exportText(resources), COMP, 'comp2');
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.deepEqual(
      resourcesOf(outcome.text)
        .filter((r) => r.urn === CHILD)
        .map((r) => r.parent),
      [U('my:Comp', 'comp2'), U('my:Comp', 'comp2')],
    );
  });
});

describe('state surgery: repair', () => {
  it('sorts records into dependency order and prunes dangling references', () => {
    const resources = records();
    const shuffled = [resources[0], resources[5], resources[1], resources[3], resources[2], resources[4]];
    shuffled[1] = { ...shuffled[1], dependencies: [A, U('aws:s3:Bucket', 'gone')] };
    const outcome = repairState(exportText(shuffled));
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.deepEqual(urnsOf(outcome.text), [ROOT, PROV, COMP, CHILD, A, B]);
    assert.deepEqual(resourcesOf(outcome.text)[5].dependencies, [A]);
    assert.deepEqual(
      outcome.referencesCut.map((c) => c.target),
      [U('aws:s3:Bucket', 'gone')],
    );
    assert.deepEqual(outcome.remainingErrors, []);
  });

  it('clears a missing parent and rebuilds the urn; children follow', () => {
    const resources = records().filter((r) => r.urn !== COMP);
    const outcome = repairState(exportText(resources));
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    const after = resourcesOf(outcome.text);
    const child = after.find((r) => r.id === 'c1')!;
    assert.equal(child.urn, U('aws:s3:Bucket', 'child'));
    assert.equal(child.parent, undefined);
    assert.deepEqual(after.find((r) => r.id === 'a1')!.dependencies, [U('aws:s3:Bucket', 'child')]);
  });

  it('leaves a valid file alone', () => {
    const outcome = repairState(exportText(records()));
    assert.equal(outcome.status, 'unchanged');
    assert.equal(outcome.message, 'The snapshot is already valid; skipping repair');
  });

  it('refuses a cycle and shows it', () => {
    const resources = records();
    resources[4] = { ...resources[4], dependencies: [B] };
    const outcome = repairState(exportText(resources));
    assert.equal(outcome.status, 'refused');
    assert.equal(outcome.errors[0], 'snapshot has cyclic dependencies');
    assert.ok(outcome.errors.some((e) => e.includes('Dependency cycle')));
  });

  it('keeps a dangling provider reference, as Pulumi does, and says the error remains', () => {
    const resources = records().filter((r) => r.urn !== PROV);
    resources.push(resources.splice(1, 1)[0]);
    const outcome = repairState(exportText(resources));
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.ok(outcome.remainingErrors.some((e) => e.includes('unknown-provider')));
    assert.match(outcome.message, /errors? remains?/);
  });

  it('deviation repair-keeps-dangling-replaceWith: drops a dangling replaceWith', () => {
    const resources = records();
    resources[5].replaceWith = [U('aws:s3:Bucket', 'gone')];
    const text = exportText(resources, { features: ['replaceWith'] }).replace('"version": 3', '"version": 4');
    const outcome = repairState(text);
    assert.equal(outcome.status, 'applied', outcome.errors.join('\n'));
    assert.equal(resourcesOf(outcome.text)[5].replaceWith, undefined);
    assert.equal((JSON.parse(outcome.text) as Rec).version, 3);
  });
});

describe('state surgery: clear pending operations', () => {
  const withPending = () =>
    JSON.stringify(
      {
        version: 3,
        deployment: {
          manifest: {},
          resources: records(),
          pending_operations: [
            { resource: { urn: A, type: 'aws:s3:Bucket', custom: true }, type: 'creating' },
            { resource: { urn: B, type: 'aws:s3:Bucket', custom: true }, type: 'updating' },
          ],
        },
      },
      null,
      2,
    );

  it('clears one by urn, naming it, or all', () => {
    const one = clearPending(withPending(), [B]);
    assert.deepEqual(one.pendingCleared, [{ type: 'updating', urn: B }]);
    assert.equal(((JSON.parse(one.text) as Rec).deployment as Rec).pending_operations instanceof Array, true);
    const all = clearPending(withPending());
    assert.equal(((JSON.parse(all.text) as Rec).deployment as Rec).pending_operations, undefined);
    assert.equal(all.message, '2 pending operations cleared');
  });

  it('refuses a urn with no pending operation', () => {
    assert.equal(clearPending(withPending(), [CHILD]).status, 'refused');
  });
});

describe('state surgery: move', () => {
  const dest = (resources: Rec[], providers = false) =>
    JSON.stringify({ version: 3, checkpoint: { stack: 'organization/q/d', latest: { manifest: {}, ...(providers ? { secrets_providers: TEST_SECRETS_PROVIDERS } : {}), resources } } }, null, 2);

  it('moves a component with its children, copies the provider, creates the root stack and cuts cross-file dependencies', () => {
    const moved = moveResources(exportText(records()), dest([]), [COMP]);
    assert.equal(moved.source.status, 'applied', [...moved.source.errors, ...moved.dest.errors].join('\n'));
    assert.deepEqual(urnsOf(moved.source.text), [ROOT, PROV, A, B]);
    assert.deepEqual(resourcesOf(moved.source.text)[2].dependencies, []);
    assert.deepEqual(moved.source.referencesCut, [{ from: A, kind: 'dependency', target: CHILD, key: undefined }]);
    const destResources = ((JSON.parse(moved.dest.text) as Rec).checkpoint as { latest: { resources: Rec[] } }).latest.resources;
    assert.deepEqual(
      destResources.map((r) => r.urn),
      [U('pulumi:pulumi:Stack', 'q-d', 'd', 'q'), U('pulumi:providers:aws', 'default', 'd', 'q'), U('my:Comp', 'comp', 'd', 'q'), U('my:Comp$aws:s3:Bucket', 'child', 'd', 'q')],
    );
    assert.equal(destResources[3].provider, `${U('pulumi:providers:aws', 'default', 'd', 'q')}::prov-1`);
  });

  it('refuses to move into a file that holds the same urn', () => {
    const existing = { urn: U('aws:s3:Bucket', 'b', 'd', 'q'), custom: true, id: 'x', type: 'aws:s3:Bucket' };
    const moved = moveResources(exportText(records()), dest([existing]), [B]);
    assert.equal(moved.source.status, 'refused');
    assert.match(moved.source.errors[0], /resource urn:pulumi:d::q::aws:s3:Bucket::b already exists in destination stack/);
  });

  it('refuses to move ciphertext between files that do not share a secrets provider', () => {
    const resources = records();
    resources[5].outputs = { secret: { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270', ciphertext: 'v1:abc:def' } };
    const moved = moveResources(exportText(resources), dest([], true), [B]);
    assert.equal(moved.dest.status, 'refused');
    assert.match(moved.dest.errors[0], /cannot be re-encrypted offline/);
  });

  it('moves into a stack that has no deployment yet (a checkpoint whose latest is empty)', () => {
    const empty = JSON.stringify({ version: 3, checkpoint: { stack: 'organization/q/d', latest: null } }, null, 4);
    const moved = moveResources(exportText(records()), empty, [B]);
    assert.equal(moved.dest.status, 'applied', [...moved.source.errors, ...moved.dest.errors].join('\n'));
    assert.equal(applyEdits(empty, moved.dest.edits), moved.dest.text);
    const latest = ((JSON.parse(moved.dest.text) as Rec).checkpoint as { latest: { resources: Rec[] } }).latest;
    assert.deepEqual(
      latest.resources.map((r) => r.urn),
      [U('pulumi:pulumi:Stack', 'q-d', 'd', 'q'), U('pulumi:providers:aws', 'default', 'd', 'q'), U('aws:s3:Bucket', 'b', 'd', 'q')],
    );
  });

  it('refuses to move a provider', () => {
    assert.match(moveResources(exportText(records()), dest([]), [PROV]).source.errors[0], /^cannot move providers/);
  });
});

describe('state surgery on the real fixtures', () => {
  const folder = join(__dirname, '..', 'fixtures', 'state', 'real');
  it('repairs the checkpoint fixtures that list children before their parents, leaving no error', () => {
    for (const name of ['checkpoint-v3', 'checkpoint-v4']) {
      const text = readFileSync(join(folder, `pulumi__pkg_resource_stack_testdata_${name}.json`), 'utf8');
      const outcome = repairState(text);
      assert.equal(outcome.status, 'applied', `${name}: ${outcome.errors.join('\n')}`);
      assert.deepEqual(
        analyzeState(outcome.text).diagnostics.filter((d) => d.severity === 'error' && d.code === 'forward-reference'),
        [],
      );
    }
  });
});

describe('state surgery: minimal edits, on every case of the differential suite', () => {
  it('the edits give the new text, and every record the operation did not change keeps its bytes', () => {
    const cases = buildCases(Array.from({ length: 28 }, (_, i) => 1000 + i));
    let checked = 0;
    for (const c of cases) {
      const { source } = runOurs(c);
      if (source.status !== 'applied') continue;
      assert.equal(applyEdits(c.input, source.edits), source.text, c.name);
      const after = source.text;
      const before = JSON.parse(c.input) as { checkpoint: { latest: { resources?: Rec[] } } };
      const changed = new Set(source.changes.map((change) => change.index));
      const minified = !c.input.trimEnd().includes('\n');
      for (const [index, record] of (before.checkpoint.latest.resources ?? []).entries()) {
        if (changed.has(index) || c.kind === 'rename' || c.kind === 'repair' || c.kind === 'move') continue;
        const text = minified ? JSON.stringify(record) : JSON.stringify(record, null, 4).split('\n').join('\n                ');
        if (source.changes.some((change) => change.action === 'removed' && change.index === index)) continue;
        assert.ok(after.includes(text), `${c.name}: record ${index} lost its bytes`);
        checked++;
      }
    }
    assert.ok(checked > 1000, `only ${checked} records checked`);
  });
});

describe('state surgery parses once', () => {
  /** Runs `body`, counting JSON.parse calls on the whole state text or the result (a record's own parse is not one). */
  function wholeParses(length: number, body: () => void): number {
    const original = JSON.parse;
    let count = 0;
    JSON.parse = ((source: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (typeof source === 'string' && source.length >= length * 0.9) count++;
      return original(source, reviver);
    }) as typeof JSON.parse;
    try {
      body();
    } finally {
      JSON.parse = original;
    }
    return count;
  }

  it("from the text: the input once (its analysis reuses the parse), the result once; from an editor's analysed snapshot, only the result", () => {
    const text = exportText(records());
    const fromText = wholeParses(text.length, () => assert.equal(setFlag(text, 'protect', [B]).status, 'applied'));
    assert.equal(fromText, 2);
    const analysed = analyzeState(text);
    const fromSnapshot = wholeParses(text.length, () => assert.equal(setFlag(analysed, 'protect', [B]).status, 'applied'));
    assert.equal(fromSnapshot, 1);
    // Both give the same result.
    assert.equal(setFlag(analysed, 'protect', [B]).text, setFlag(text, 'protect', [B]).text);
  });
});
