import { strict as assert } from 'node:assert';
import { structureOf } from '../../state/vocabulary';
import { diffMarkdown, diffStates, diffSummary, diffText, statesDiffer, type StateDiff } from './diff';

type ResourceDiff = StateDiff['resources'][number];
type FieldChange = ResourceDiff['changes'][number];

const BUCKET = 'aws:s3/bucket:Bucket';
const urn = (name: string, type = BUCKET) => `urn:pulumi:dev::app::${type}::${name}`;
const SECRET_KEY = '4dabf18193072939515e22adb298388d';
const secret = (ciphertext: string) => ({ [SECRET_KEY]: '1b47061264138c4ac30d75fd1eb44270', ciphertext });
const MANIFEST = { time: '2025-06-01T12:00:00Z', magic: 'm', version: 'v3.180.0' };

/** A custom resource as Pulumi writes it; `created` and `modified` differ on every side, as Pulumi rewrites them. */
function record(name: string, fields: Record<string, unknown> = {}, stamp = '1'): Record<string, unknown> {
  return {
    urn: urn(name, (fields.type as string) ?? BUCKET),
    custom: true,
    id: `${name}-id`,
    type: BUCKET,
    inputs: { bucket: name },
    created: `2025-06-0${stamp}T00:00:00Z`,
    modified: `2025-06-0${stamp}T00:00:00Z`,
    ...fields,
  };
}

/** A `pulumi stack export` of the records. */
const exported = (resources: unknown[], deployment: Record<string, unknown> = {}) => ({ version: 3, deployment: { manifest: MANIFEST, resources, ...deployment } });

/** A resource's diff as diffStates gives it. */
function entry(kind: ResourceDiff['kind'], name: string, extra: Partial<ResourceDiff> = {}): ResourceDiff {
  const ids = kind === 'added' ? { newId: `${name}-id` } : kind === 'removed' ? { oldId: `${name}-id` } : { oldId: `${name}-id`, newId: `${name}-id` };
  return { kind, urn: urn(name), key: urn(name), type: BUCKET, ...ids, changes: [], ...extra };
}

interface Row {
  name: string;
  before: unknown;
  after: unknown;
  resources: ResourceDiff[];
  pending?: StateDiff['pendingOperations'];
  manifest?: FieldChange[];
  summary: string;
  differ: boolean;
  /** diffText's lines, `showSame` on, when the row checks them. */
  text?: string[];
}

const rows: Row[] = [
  {
    name: 'identical states: nothing differs',
    before: exported([record('a'), record('b')]),
    after: exported([record('a'), record('b')]),
    resources: [entry('same', 'a'), entry('same', 'b')],
    summary: 'no changes (2 same)',
    differ: false,
    text: ['no changes (2 same)', `  ${urn('a')}`, `  ${urn('b')}`],
  },
  {
    name: 'created and modified are no change',
    before: exported([record('a', {}, '1')]),
    after: exported([record('a', {}, '2')]),
    resources: [entry('same', 'a')],
    summary: 'no changes (1 same)',
    differ: false,
  },
  {
    name: 'an added resource, after the matched ones',
    before: exported([record('b')]),
    after: exported([record('a'), record('b')]),
    resources: [entry('same', 'b'), entry('added', 'a')],
    summary: '1 added, 1 same',
    differ: true,
    text: ['1 added, 1 same', `+ ${urn('a')} (added)`, `  ${urn('b')}`],
  },
  {
    name: 'a removed resource, last',
    before: exported([record('a'), record('b')]),
    after: exported([record('b')]),
    resources: [entry('same', 'b'), entry('removed', 'a')],
    summary: '1 removed, 1 same',
    differ: true,
    text: ['1 removed, 1 same', `- ${urn('a')} (removed)`, `  ${urn('b')}`],
  },
  {
    name: 'changed leaves: a value, an added and a removed key, an array grown, a key that is no identifier',
    before: exported([record('a', { inputs: { bucket: 'a', acl: 'private', tags: { Name: 'old', 'aws:cfn': 'x' } }, dependencies: [urn('b')] })]),
    after: exported([record('a', { inputs: { bucket: 'a', tags: { Name: 'new', 'aws:cfn': 'y' }, policy: { rules: [1] } }, dependencies: [urn('b'), urn('c')] })]),
    resources: [
      entry('changed', 'a', {
        changes: [
          { path: 'inputs.acl', kind: 'removed', old: 'private' },
          { path: 'inputs.tags.Name', kind: 'changed', old: 'old', new: 'new' },
          { path: 'inputs.tags["aws:cfn"]', kind: 'changed', old: 'x', new: 'y' },
          { path: 'inputs.policy', kind: 'added', new: { rules: [1] } },
          { path: 'dependencies[1]', kind: 'added', new: urn('c') },
        ],
      }),
    ],
    summary: '1 changed',
    differ: true,
    text: [
      '1 changed',
      `~ ${urn('a')}`,
      '    - inputs.acl: "private"',
      '    ~ inputs.tags.Name: "old" => "new"',
      '    ~ inputs.tags["aws:cfn"]: "x" => "y"',
      '    + inputs.policy: {"rules":[1]}',
      `    + dependencies[1]: "${urn('c')}"`,
    ],
  },
  {
    name: 'a type change of a leaf, an array shrunk, and created compared below the top',
    before: exported([record('a', { outputs: { size: 1, created: 'x', list: [1, 2] } })]),
    after: exported([record('a', { outputs: { size: '1', created: 'y', list: [1] } })]),
    resources: [
      entry('changed', 'a', {
        changes: [
          { path: 'outputs.size', kind: 'changed', old: 1, new: '1' },
          { path: 'outputs.created', kind: 'changed', old: 'x', new: 'y' },
          { path: 'outputs.list[1]', kind: 'removed', old: 2 },
        ],
      }),
    ],
    summary: '1 changed',
    differ: true,
  },
  {
    name: 'a new id is a replacement; its id line is left out of the text',
    before: exported([record('a')]),
    after: exported([record('a', { id: 'a-id-2' })]),
    resources: [entry('replaced', 'a', { newId: 'a-id-2', changes: [{ path: 'id', kind: 'changed', old: 'a-id', new: 'a-id-2' }] })],
    summary: '1 replaced',
    differ: true,
    text: ['1 replaced', `+- ${urn('a')} (replaced: id a-id => a-id-2)`],
  },
  {
    name: 'renamed by an alias (no other sign of it): the urn change itself is not listed',
    before: exported([record('old', {}, '1')]),
    after: exported([{ ...record('old', {}, '2'), urn: urn('new'), id: 'new-id', aliases: [urn('old')] }]),
    resources: [
      entry('renamed', 'new', {
        oldUrn: urn('old'),
        oldId: 'old-id',
        newId: 'new-id',
        changes: [
          { path: 'id', kind: 'changed', old: 'old-id', new: 'new-id' },
          { path: 'aliases', kind: 'added', new: [urn('old')] },
        ],
      }),
    ],
    summary: '1 renamed',
    differ: true,
    text: ['1 renamed', `~ ${urn('old')} => ${urn('new')} (renamed)`, '    ~ id: "old-id" => "new-id"', `    + aliases: ["${urn('old')}"]`],
  },
  {
    name: 'renamed by its created time (no alias), a changed leaf kept',
    before: exported([{ ...record('old'), custom: false, id: '', inputs: { n: 1 } }]),
    after: exported([{ ...record('old'), urn: urn('new'), custom: false, id: '', inputs: { n: 2 } }]),
    resources: [{ kind: 'renamed', urn: urn('new'), key: urn('new'), oldUrn: urn('old'), type: BUCKET, changes: [{ path: 'inputs.n', kind: 'changed', old: 1, new: 2 }] }],
    summary: '1 renamed',
    differ: true,
  },
  {
    name: 'renamed by the id of a custom resource, when the created times differ',
    before: exported([record('old', {}, '1')]),
    after: exported([{ ...record('old', {}, '2'), urn: urn('new') }]),
    resources: [entry('renamed', 'new', { oldUrn: urn('old'), oldId: 'old-id', newId: 'old-id' })],
    summary: '1 renamed',
    differ: true,
  },
  {
    name: 'not a rename across types: one added, one removed',
    before: exported([record('old')]),
    after: exported([{ ...record('old'), urn: urn('new'), type: 'aws:s3/bucketV2:BucketV2' }]),
    resources: [
      { kind: 'added', urn: urn('new'), key: urn('new'), type: 'aws:s3/bucketV2:BucketV2', newId: 'old-id', changes: [] },
      { kind: 'removed', urn: urn('old'), key: urn('old'), type: BUCKET, oldId: 'old-id', changes: [] },
    ],
    summary: '1 added, 1 removed',
    differ: true,
  },
  {
    name: 'copies of one urn are matched by position',
    before: exported([record('a', { id: 'one' }), record('a', { id: 'two', inputs: { n: 1 } })]),
    after: exported([record('a', { id: 'one' }), record('a', { id: 'two', inputs: { n: 2 } }), record('a', { id: 'three' })]),
    resources: [
      { kind: 'same', urn: urn('a'), key: `${urn('a')}#1`, type: BUCKET, oldId: 'one', newId: 'one', changes: [] },
      { kind: 'changed', urn: urn('a'), key: `${urn('a')}#2`, type: BUCKET, oldId: 'two', newId: 'two', changes: [{ path: 'inputs.n', kind: 'changed', old: 1, new: 2 }] },
      { kind: 'added', urn: urn('a'), key: `${urn('a')}#3`, type: BUCKET, newId: 'three', changes: [] },
    ],
    summary: '1 added, 1 changed, 1 same',
    differ: true,
    text: ['1 added, 1 changed, 1 same', `+ ${urn('a')}#3 (added)`, `~ ${urn('a')}#2`, '    ~ inputs.n: 1 => 2', `  ${urn('a')}#1`],
  },
  {
    name: 'two secrets that differ: "secret changed", never shown, and the resource counts as the same',
    before: exported([record('a', { outputs: { password: secret('c1') } })]),
    after: exported([record('a', { outputs: { password: secret('c2') } })]),
    resources: [entry('same', 'a', { changes: [{ path: 'outputs.password', kind: 'secret changed' }] })],
    summary: 'no changes (1 same)',
    differ: false,
    text: ['no changes (1 same)', `  ${urn('a')}`, '    ~ outputs.password: [secret changed]'],
  },
  {
    name: 'a secret against a plaintext, and secrets inside added and removed values, are masked',
    before: exported([record('a', { outputs: { password: secret('c1'), old: { key: secret('c3') } } })]),
    after: exported([record('a', { outputs: { password: 'hunter2', added: [secret('c4'), 'plain'] } })]),
    resources: [
      entry('changed', 'a', {
        changes: [
          { path: 'outputs.password', kind: 'changed', old: '[secret]', new: 'hunter2' },
          { path: 'outputs.old', kind: 'removed', old: { key: '[secret]' } },
          { path: 'outputs.added', kind: 'added', new: ['[secret]', 'plain'] },
        ],
      }),
    ],
    summary: '1 changed',
    differ: true,
    text: ['1 changed', `~ ${urn('a')}`, '    ~ outputs.password: "[secret]" => "hunter2"', '    - outputs.old: {"key":"[secret]"}', '    + outputs.added: ["[secret]","plain"]'],
  },
  {
    name: 'pending operations added and removed count as a difference',
    before: exported([record('a')], {
      pending_operations: [
        { resource: { urn: urn('gone') }, type: 'deleting' },
        { resource: { urn: urn('a') }, type: 'updating' },
      ],
    }),
    after: exported([record('a')], {
      pending_operations: [
        { resource: { urn: urn('a') }, type: 'updating' },
        { resource: { urn: urn('b') }, type: 'creating' },
      ],
    }),
    resources: [entry('same', 'a')],
    pending: { added: [{ urn: urn('b'), type: 'creating' }], removed: [{ urn: urn('gone'), type: 'deleting' }] },
    summary: '1 same, 2 pending operations changed',
    differ: true,
    text: ['1 same, 2 pending operations changed', `  ${urn('a')}`, `+ pending operation: creating ${urn('b')}`, `- pending operation: deleting ${urn('gone')}`],
  },
  {
    name: 'one pending operation, singular',
    before: exported([]),
    after: exported([], { pending_operations: [{ resource: { urn: urn('b') }, type: 'creating' }] }),
    resources: [],
    pending: { added: [{ urn: urn('b'), type: 'creating' }], removed: [] },
    summary: '1 pending operation changed',
    differ: true,
  },
  {
    name: 'a manifest change is shown but is no difference',
    before: exported([record('a')]),
    after: { version: 3, deployment: { manifest: { ...MANIFEST, version: 'v3.181.0', plugins: [] }, resources: [record('a')] } },
    resources: [entry('same', 'a')],
    manifest: [
      { path: 'manifest.version', kind: 'changed', old: 'v3.180.0', new: 'v3.181.0' },
      { path: 'manifest.plugins', kind: 'added', new: [] },
    ],
    summary: 'no changes (1 same)',
    differ: false,
    text: ['no changes (1 same)', `  ${urn('a')}`, '~ manifest.version: "v3.180.0" => "v3.181.0"', '+ manifest.plugins: []'],
  },
  {
    name: 'a checkpoint against an export: each read where its deployment is',
    before: { version: 3, checkpoint: { stack: 'organization/app/dev', latest: { manifest: MANIFEST, resources: [record('a')] } } },
    after: exported([record('a', { inputs: { bucket: 'renamed-bucket' } })]),
    resources: [entry('changed', 'a', { changes: [{ path: 'inputs.bucket', kind: 'changed', old: 'a', new: 'renamed-bucket' }] })],
    summary: '1 changed',
    differ: true,
  },
  {
    name: 'records without a urn are left out; an empty state against one',
    before: exported([{ type: BUCKET }, 'not a record']),
    after: exported([record('a')]),
    resources: [entry('added', 'a')],
    summary: '1 added',
    differ: true,
  },
];

describe('diffStates: what changed between two states', () => {
  for (const row of rows) {
    it(row.name, () => {
      const diff = diffStates(structureOf(row.before), structureOf(row.after));
      const counts = { added: 0, removed: 0, renamed: 0, replaced: 0, changed: 0, same: 0 };
      for (const resource of row.resources) counts[resource.kind]++;
      assert.deepEqual(diff, { summary: counts, resources: row.resources, pendingOperations: row.pending ?? { added: [], removed: [] }, manifest: row.manifest ?? [] });
      assert.equal(diffSummary(diff), row.summary);
      assert.equal(statesDiffer(diff), row.differ);
      if (row.text) assert.deepEqual(diffText(diff, { showSame: true }).split('\n'), row.text);
    });
  }
});

describe('diffText and diffMarkdown', () => {
  const changed = diffStates(structureOf(exported([record('a'), record('b')])), structureOf(exported([record('a', { inputs: { bucket: 'x' } }), record('b')])));
  const identical = diffStates(structureOf(exported([record('a')])), structureOf(exported([record('a')])));

  it('the text leaves the same resources out unless asked', () => {
    assert.equal(diffText(changed), ['1 changed, 1 same', `~ ${urn('a')}`, '    ~ inputs.bucket: "a" => "x"'].join('\n'));
    assert.equal(diffText(identical), 'no changes (1 same)');
  });

  it('Markdown: the summary in bold, with a title, then the text in a diff block', () => {
    assert.equal(diffMarkdown(changed, { title: 'dev' }), ['**dev: 1 changed, 1 same**', '', '```diff', `~ ${urn('a')}`, '    ~ inputs.bucket: "a" => "x"', '```'].join('\n'));
    assert.equal(diffMarkdown(identical), '**no changes (1 same)**');
    assert.equal(diffMarkdown(identical, { showSame: true }), ['**no changes (1 same)**', '', '```diff', `  ${urn('a')}`, '```'].join('\n'));
  });

  it('no resources on either side: no changes', () => {
    const empty = diffStates(structureOf(exported([])), structureOf(exported([])));
    assert.equal(diffSummary(empty), 'no changes');
    assert.equal(statesDiffer(empty), false);
  });
});

describe('diffStates with showSecrets: secrets in plaintext compared by their values', () => {
  const plain = (value: unknown) => ({ [SECRET_KEY]: '1b47061264138c4ac30d75fd1eb44270', plaintext: JSON.stringify(value) });
  const states = (a: unknown, b: unknown) => [structureOf(exported([record('a', { outputs: { pw: a } })])), structureOf(exported([record('a', { outputs: { pw: b } })]))] as const;

  it('a changed value: both shown, the resource changed; without showSecrets still "secret changed" alone', () => {
    const [before, after] = states(plain('old-pw'), plain('new-pw'));
    const shown = diffStates(before, after, { showSecrets: true });
    assert.deepEqual(shown.resources[0], entry('changed', 'a', { changes: [{ path: 'outputs.pw', kind: 'secret changed', old: 'old-pw', new: 'new-pw' }] }));
    assert.equal(diffText(shown), ['1 changed', `~ ${urn('a')}`, '    ~ outputs.pw: [secret] "old-pw" => "new-pw"'].join('\n'));
    const masked = diffStates(before, after);
    assert.deepEqual(masked.resources[0], entry('same', 'a', { changes: [{ path: 'outputs.pw', kind: 'secret changed' }] }));
    assert.ok(!diffText(masked, { showSame: true }).includes('pw"'));
  });

  it('the same value written again (another JSON text, a secret inside): no change', () => {
    const inner = { [SECRET_KEY]: '1b47061264138c4ac30d75fd1eb44270', ciphertext: JSON.stringify('x') };
    const [before, after] = states(plain({ a: 1, b: 'x' }), { [SECRET_KEY]: '1b47061264138c4ac30d75fd1eb44270', plaintext: JSON.stringify({ b: inner, a: 1 }) });
    assert.deepEqual(diffStates(before, after, { showSecrets: true }).resources[0], entry('same', 'a'));
  });

  it('a ciphertext left unopened: "secret changed", no value', () => {
    const [before, after] = states(secret('v1:aaa'), plain('new-pw'));
    assert.deepEqual(diffStates(before, after, { showSecrets: true }).resources[0].changes, [{ path: 'outputs.pw', kind: 'secret changed' }]);
  });
});
