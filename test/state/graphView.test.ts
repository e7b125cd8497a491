/**
 * The editor's picture of the resource graph (shared/state/graph/view.ts): focus by node, by the
 * cursor's record and by default; depth; edge-kind, type and provider filters; search; marks from
 * the checker and the pending operations; the cap on what is laid out; and bad input: a cycle,
 * dangling references, copies of one urn. Every laid-out node has a place and every edge a path.
 */
import { strict as assert } from 'node:assert';
import { createStateService, type GraphView } from '../../shared/state';

const service = createStateService();
const U = (type: string, name: string) => `urn:pulumi:dev::shop::${type}::${name}`;
const ROOT = U('pulumi:pulumi:Stack', 'shop-dev');
const PROVIDER = U('pulumi:providers:aws', 'default');
const SITE = U('my:web:Site', 'site');
const BUCKET = U('aws:s3/bucket:Bucket', 'assets');
const POLICY = U('aws:s3/bucketPolicy:BucketPolicy', 'policy');

function documentOf(resources: unknown[], pending: unknown[] = []) {
  const text = JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources, pending_operations: pending } }, null, 2);
  const snapshot = service.parse(text);
  return { text, document: { snapshot, navigation: service.navigationIndex(snapshot) }, diagnostics: service.analyze(text).diagnostics };
}

const base = () => [
  { urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' },
  { urn: PROVIDER, custom: true, id: 'p1', type: 'pulumi:providers:aws' },
  { urn: SITE, custom: false, type: 'my:web:Site', parent: ROOT },
  { urn: BUCKET, custom: true, id: 'b1', type: 'aws:s3/bucket:Bucket', parent: SITE, provider: `${PROVIDER}::p1`, protect: true },
  { urn: POLICY, custom: true, id: 'pol', type: 'aws:s3/bucketPolicy:BucketPolicy', parent: ROOT, provider: `${PROVIDER}::p1`, dependencies: [BUCKET], propertyDependencies: { bucket: [BUCKET] } },
];

function assertLaidOut(view: GraphView): void {
  for (const node of view.nodes) {
    assert.ok(Number.isFinite(node.x) && Number.isFinite(node.y) && node.width > 0 && node.height > 0, node.id);
    assert.ok(node.x - node.width / 2 >= 0 && node.x + node.width / 2 <= view.width, `${node.id} inside the picture`);
  }
  for (const edge of view.edges) assert.ok(edge.points.length >= 2, `${edge.from} → ${edge.to} has a path`);
}

describe('the resource graph picture (graph view)', () => {
  it('focuses the record under the cursor, at depth 1, with every edge kind and the labels', () => {
    const { text, document, diagnostics } = documentOf(base());
    const view = service.graph.view(document, diagnostics, { offset: text.indexOf(BUCKET) });
    assert.equal(view.focus, BUCKET);
    assert.deepEqual(view.nodes.map((n) => n.id).sort(), [BUCKET, PROVIDER, POLICY, SITE].sort());
    assert.deepEqual(
      view.edges.map((e) => `${e.kind}:${e.from === BUCKET ? 'out' : 'in'}:${e.labels.join(',')}`).sort(),
      ['dependency:out:bucket', 'parent:out:', 'provider:in:', 'provider:out:'].sort(),
    );
    const bucket = view.nodes.find((n) => n.id === BUCKET)!;
    assert.equal(bucket.protect, true);
    assert.equal(bucket.provider, PROVIDER);
    assert.equal(text.slice(bucket.span!.offset, bucket.span!.offset + 1), '{');
    assert.ok(text.slice(bucket.span!.offset, bucket.span!.offset + bucket.span!.length).includes(`"id": "b1"`));
    assertLaidOut(view);
  });

  it('focuses the stack by default, widens with the depth, and lays out the whole graph when asked', () => {
    const { document, diagnostics } = documentOf(base());
    assert.equal(service.graph.view(document, diagnostics).focus, ROOT);
    assert.deepEqual(
      service.graph.view(document, diagnostics, { depth: 0 }).nodes.map((n) => n.id),
      [ROOT],
    );
    const whole = service.graph.view(document, diagnostics, { focus: SITE, depth: 'all' });
    assert.equal(whole.nodes.length, 5);
    assert.deepEqual(whole.total, { nodes: 5, edges: whole.edges.length });
    assertLaidOut(whole);
  });

  it('filters edge kinds, types and providers, and keeps the focus', () => {
    const { document, diagnostics } = documentOf(base());
    const parentsOnly = service.graph.view(document, diagnostics, { focus: BUCKET, edgeKinds: ['parent'] });
    assert.deepEqual(parentsOnly.nodes.map((n) => n.id).sort(), [BUCKET, SITE].sort());
    const policies = service.graph.view(document, diagnostics, { focus: ROOT, depth: 'all', type: 'aws:s3/bucketPolicy:BucketPolicy' });
    assert.deepEqual(policies.nodes.map((n) => n.id).sort(), [ROOT, POLICY].sort());
    const byProvider = service.graph.view(document, diagnostics, { focus: ROOT, depth: 'all', provider: PROVIDER });
    assert.deepEqual(byProvider.nodes.map((n) => n.id).sort(), [ROOT, PROVIDER, BUCKET, POLICY].sort());
    assert.deepEqual(byProvider.providers, [{ urn: PROVIDER, name: 'default' }]);
    assert.ok(byProvider.types.includes('aws:s3/bucket:Bucket'));
  });

  it('finds by name, type or urn, nearest to the focus first', () => {
    const { document, diagnostics } = documentOf(base());
    const view = service.graph.view(document, diagnostics, { focus: SITE, search: 'AWS:S3' });
    assert.deepEqual(
      view.matches!.map((m) => m.id),
      [BUCKET, POLICY],
    );
    assert.deepEqual(service.graph.view(document, diagnostics, { focus: SITE, search: 'nothing-like-it' }).matches, []);
  });

  it('marks the checker findings, pending operations and deletions on their nodes', () => {
    const records = base();
    (records[4] as Record<string, unknown>).dependencies = [BUCKET, U('aws:iam/role:Role', 'gone')];
    const pending = [{ resource: { urn: BUCKET, custom: true, type: 'aws:s3/bucket:Bucket' }, type: 'updating' }];
    const { document, diagnostics } = documentOf([...records, { urn: BUCKET, custom: true, id: 'b0', type: 'aws:s3/bucket:Bucket', delete: true }], pending);
    assert.ok(diagnostics.some((d) => d.severity === 'error'));
    const view = service.graph.view(document, diagnostics, { focus: POLICY, depth: 1 });
    const policy = view.nodes.find((n) => n.id === POLICY)!;
    assert.ok(policy.errors >= 1, JSON.stringify(policy));
    const gone = view.nodes.find((n) => n.urn.endsWith('::gone'))!;
    assert.equal(gone.missing, true);
    assert.equal(gone.span, undefined);
    // Two copies of the bucket: each its own node, the one pending deletion marked.
    const copies = service.graph.view(document, diagnostics, { focus: ROOT, depth: 'all' }).nodes.filter((n) => n.urn === BUCKET);
    assert.deepEqual(
      copies.map((n) => [n.id, n.delete, n.pending]),
      [
        [`${BUCKET}#1`, false, 1],
        [`${BUCKET}#2`, true, 1],
      ],
    );
  });

  it('lays out a cycle, and shows the nearest 150 of a thousand siblings, saying how many are within reach', () => {
    const a = U('my:C', 'a');
    const b = U('my:C', 'b');
    const cyclic = documentOf([
      { urn: a, custom: false, type: 'my:C', parent: b },
      { urn: b, custom: false, type: 'my:C', parent: a, dependencies: [a] },
    ]);
    const loop = service.graph.view(cyclic.document, cyclic.diagnostics, { focus: a, depth: 'all' });
    assert.equal(loop.nodes.length, 2);
    assertLaidOut(loop);
    const many = Array.from({ length: 1000 }, (_, i) => ({ urn: U('my:C', `c${i}`), custom: false, type: 'my:C', parent: ROOT }));
    const wide = documentOf([{ urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' }, ...many]);
    const view = service.graph.view(wide.document, wide.diagnostics, {});
    assert.equal(view.nodes.length, 150);
    assert.deepEqual(view.truncated, { shown: 150, within: 1001 });
  });

  it('answers an empty file with no focus and nothing drawn', () => {
    const { document, diagnostics } = documentOf([]);
    const view = service.graph.view(document, diagnostics, {});
    assert.equal(view.focus, null);
    assert.deepEqual([view.nodes, view.edges], [[], []]);
  });
});
