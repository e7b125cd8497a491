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

  describe('the whole graph of many resources, as an overview of groups', () => {
    /** `components` components under the stack, each with `each` buckets, each bucket depending on the first bucket of the previous component. */
    function stackOf(components: number, each: number) {
      const resources: unknown[] = [
        { urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' },
        { urn: PROVIDER, custom: true, id: 'p1', type: 'pulumi:providers:aws' },
      ];
      for (let c = 0; c < components; c++) {
        const component = U('my:web:Site', `site${c}`);
        resources.push({ urn: component, custom: false, type: 'my:web:Site', parent: ROOT });
        for (let i = 0; i < each; i++) {
          const type = i % 2 ? 'aws:s3/bucket:Bucket' : 'aws:sqs/queue:Queue';
          const dependencies = c > 0 ? [U('aws:sqs/queue:Queue', `r${c - 1}-0`)] : [];
          resources.push({ urn: U(type, `r${c}-${i}`), custom: true, id: `id${c}-${i}`, type, parent: component, provider: `${PROVIDER}::p1`, dependencies });
        }
      }
      return documentOf(resources);
    }

    it('groups by top-level component by default, one box per group, counting the edges between groups', () => {
      const { document, diagnostics } = stackOf(8, 30);
      const view = service.graph.view(document, diagnostics, { depth: 'all' });
      assert.equal(view.overview?.by, 'parent');
      assert.equal(view.overview?.resources, 2 + 8 * 31);
      const sites = view.nodes.filter((n) => n.group && n.name.startsWith('site'));
      assert.equal(sites.length, 8);
      for (const site of sites) assert.equal(site.group!.members, 31, `${site.name} holds the component and its 30 resources`);
      // Component c's 30 resources each depend on the queue of component c-1: one edge between the groups stands for 30.
      const between = view.edges.filter((e) => e.kind === 'dependency');
      assert.equal(between.length, 7);
      for (const edge of between) assert.equal(edge.count, 30);
      assert.ok(view.nodes.every((n) => !n.id.startsWith('urn:') || !n.group));
      assertLaidOut(view);
    });

    it('groups by type or by provider when asked', () => {
      const { document, diagnostics } = stackOf(8, 30);
      const byType = service.graph.view(document, diagnostics, { depth: 'all', groupBy: 'type' });
      assert.deepEqual(
        byType.nodes
          .filter((n) => n.group)
          .map((n) => `${n.group!.key}:${n.group!.members}`)
          .sort(),
        ['aws:s3/bucket:Bucket:120', 'aws:sqs/queue:Queue:120', 'my:web:Site:8', 'pulumi:providers:aws:1', 'pulumi:pulumi:Stack:1'],
      );
      const byProvider = service.graph.view(document, diagnostics, { depth: 'all', groupBy: 'provider' });
      assert.deepEqual(
        byProvider.nodes
          .filter((n) => n.group)
          .map((n) => `${n.group!.key}:${n.group!.members}`)
          .sort(),
        [`${PROVIDER}:240`, '(no provider):10'].sort(),
      );
      assertLaidOut(byProvider);
    });

    it('shows an expanded group resource by resource (at most 40), and a chosen focus opens its group', () => {
      const { document, diagnostics } = stackOf(8, 60);
      const overview = service.graph.view(document, diagnostics, { depth: 'all' });
      const site3 = overview.nodes.find((n) => n.name.startsWith('site3 '))!;
      const expanded = service.graph.view(document, diagnostics, { depth: 'all', expand: [site3.id] });
      const members = expanded.nodes.filter((n) => !n.group && (n.urn.includes('::r3-') || n.urn === U('my:web:Site', 'site3')));
      assert.equal(members.length, 40);
      const rest = expanded.nodes.find((n) => n.id === site3.id)!;
      assert.deepEqual(rest.group, { by: 'parent', key: U('my:web:Site', 'site3'), members: 61 - 40, expanded: true });
      assertLaidOut(expanded);
      const focused = service.graph.view(document, diagnostics, { depth: 'all', focus: U('aws:s3/bucket:Bucket', 'r5-59') });
      assert.ok(
        focused.nodes.some((n) => n.id === U('aws:s3/bucket:Bucket', 'r5-59') && !n.group),
        'the focus is drawn as itself',
      );
    });

    it('puts the smallest groups beyond 40 in one, and places the boxes in rows when asked for the grid', () => {
      const { document, diagnostics } = stackOf(80, 2);
      const view = service.graph.view(document, diagnostics, { depth: 'all' });
      assert.equal(view.overview?.groups, 40);
      const other = view.nodes.find((n) => n.name === '(other)')!;
      assert.ok(other.group && other.group.members > 2);
      assert.equal(
        view.nodes.filter((n) => n.group).reduce((sum, n) => sum + n.group!.members, 0),
        2 + 80 * 3,
      );
      const grid = service.graph.view(document, diagnostics, { depth: 'all', layout: 'grid' });
      assert.equal(grid.layout, 'grid');
      assert.equal(view.layout, 'layered');
      assertLaidOut(grid);
    });

    it('draws a whole graph of at most 100 resources resource by resource', () => {
      const { document, diagnostics } = stackOf(3, 30);
      const view = service.graph.view(document, diagnostics, { depth: 'all' });
      assert.equal(view.overview, undefined);
      assert.equal(view.nodes.length, 2 + 3 * 31);
    });
  });
});
