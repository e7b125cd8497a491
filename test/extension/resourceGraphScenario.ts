/**
 * The resource graph in a real VS Code, the same in Node's extension host and the browser's: a state
 * file written into the workspace, Show Resource Graph from its record's lens, and the webview's own
 * messages read back: the nodes and edges it drew for a focus, a refocus by a click on a node (which
 * reveals the node's record in the editor), a search, an edit followed, and a syntax error that keeps
 * the last good picture. Only the `vscode` API is used, so both suites run it.
 */
import * as vscode from 'vscode';
import type { RenderedGraph } from '../../client/resourceGraph/messages';
import { activeExtension, revertAndCloseAll, waitFor, workspaceUri } from './common';

const U = (type: string, name: string) => `urn:pulumi:dev::shop::${type}::${name}`;
export const GRAPH_URNS = {
  root: U('pulumi:pulumi:Stack', 'shop-dev'),
  provider: U('pulumi:providers:aws', 'default'),
  site: U('my:web:Site', 'site'),
  bucket: U('my:web:Site$aws:s3/bucket:Bucket', 'assets'),
  policy: U('aws:s3/bucketPolicy:BucketPolicy', 'policy'),
  queue: U('aws:sqs/queue:Queue', 'jobs'),
  gone: U('aws:iam/role:Role', 'gone'),
};
const { root, provider, site, bucket, policy, queue, gone } = GRAPH_URNS;

/** Parent, dependency (with a property's label), provider and deletedWith edges, a dangling reference, a protected record. */
export function graphFixtureText(): string {
  const resources = [
    { urn: root, custom: false, type: 'pulumi:pulumi:Stack' },
    { urn: provider, custom: true, id: 'prov-1', type: 'pulumi:providers:aws' },
    { urn: site, custom: false, type: 'my:web:Site', parent: root },
    { urn: bucket, custom: true, id: 'assets-1', type: 'aws:s3/bucket:Bucket', parent: site, provider: `${provider}::prov-1`, protect: true },
    {
      urn: policy,
      custom: true,
      id: 'policy-1',
      type: 'aws:s3/bucketPolicy:BucketPolicy',
      parent: root,
      provider: `${provider}::prov-1`,
      dependencies: [bucket],
      propertyDependencies: { bucket: [bucket] },
      deletedWith: bucket,
    },
    { urn: queue, custom: true, id: 'jobs-1', type: 'aws:sqs/queue:Queue', parent: root, provider: `${provider}::prov-1`, dependencies: [gone] },
  ];
  return `${JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' }, resources } }, null, 2)}\n`;
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const sorted = (values: string[]) => [...values].sort();
const edgeKey = (e: { from: string; to: string; kind: string }) => `${e.from} -${e.kind}-> ${e.to}`;

async function rendered(what: string, check: (graph: RenderedGraph) => boolean): Promise<RenderedGraph> {
  const { hooks } = await activeExtension();
  return waitFor(what, () => {
    const graph = hooks.resourceGraph.current().rendered;
    return graph && check(graph) ? graph : undefined;
  }, [hooks.resourceGraph.onDidRender]);
}

/** Runs the whole scenario; throws with a message naming what was not as expected. */
export async function resourceGraphScenario(name = 'graph.state.json'): Promise<void> {
  const { hooks } = await activeExtension();
  const uri = workspaceUri(name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(graphFixtureText()));
  try {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);

    // The record's "graph" lens carries { uri, urn }; run the command as the lens does.
    const lenses = await waitFor(
      'the graph lens',
      async () => {
        const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
        const graphLens = found.find((l) => l.command?.command === 'quotaState.showResourceGraph' && (l.command.arguments?.[0] as { urn?: string } | undefined)?.urn === bucket);
        return graphLens ? found : undefined;
      },
      [],
    );
    const lens = lenses.find((l) => l.command?.command === 'quotaState.showResourceGraph' && (l.command.arguments?.[0] as { urn?: string }).urn === bucket)!;
    await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));

    // Depth 1 around the bucket: its parent, its provider, and the policy that depends on it and is deleted with it.
    const first = await rendered('the bucket focused', (g) => g.focus === bucket);
    expect(JSON.stringify(sorted(first.nodes)) === JSON.stringify(sorted([bucket, site, provider, policy])), `nodes around the bucket: ${JSON.stringify(first.nodes)}`);
    const edges = sorted(first.edges.map(edgeKey));
    const expectedEdges = sorted(
      [
        { from: bucket, to: site, kind: 'parent' },
        { from: bucket, to: provider, kind: 'provider' },
        { from: bucket, to: policy, kind: 'dependency' },
        { from: policy, to: bucket, kind: 'deletedWith' },
        { from: policy, to: provider, kind: 'provider' },
      ].map(edgeKey),
    );
    expect(JSON.stringify(edges) === JSON.stringify(expectedEdges), `edges around the bucket: ${JSON.stringify(edges)}`);
    const dependency = first.edges.find((e) => e.kind === 'dependency');
    expect(JSON.stringify(dependency?.labels) === JSON.stringify(['bucket']), `the dependency's labels: ${JSON.stringify(dependency?.labels)}`);
    expect(first.edgeList.length === 4, `the text alternative lists the bucket's 4 edges: ${JSON.stringify(first.edgeList)}`);
    // Read from the focus: the policy depends on the bucket, so the bucket is needed by the policy.
    expect(first.edgeList.includes('needed by policy (bucket)') && first.edgeList.includes('child of site'), `the edges read from the bucket: ${JSON.stringify(first.edgeList)}`);

    // A click on the policy node: the record is revealed in the editor and the graph refocuses.
    await hooks.resourceGraph.simulate({ type: 'simulate', action: 'click', id: policy });
    const second = await rendered('the policy focused', (g) => g.focus === policy);
    expect(second.nodes.includes(root) && second.nodes.includes(bucket), `nodes around the policy: ${JSON.stringify(second.nodes)}`);
    const recordStart = document.getText().lastIndexOf('{', document.getText().indexOf(`"urn": "${policy}"`));
    await waitFor(
      `the policy's record (offset ${recordStart}) selected in the editor`,
      () => (vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri.toString() && e.document.offsetAt(e.selection.active) === recordStart) ? true : undefined),
      [vscode.window.onDidChangeTextEditorSelection],
    );

    // A search finds resources anywhere in the file, nearest first.
    await hooks.resourceGraph.simulate({ type: 'simulate', action: 'search', query: 'jobs' });
    const searched = await rendered('the search for jobs', (g) => g.matches !== undefined);
    expect(JSON.stringify(searched.matches) === JSON.stringify([queue]), `matches for "jobs": ${JSON.stringify(searched.matches)}`);
    // Focusing the queue shows the role it refers to, which is not in the state, as a missing node.
    await vscode.commands.executeCommand('quotaState.showResourceGraph', { uri: uri.toString(), urn: queue });
    const third = await rendered('the queue focused', (g) => g.focus === queue);
    expect(third.nodes.includes(gone), `the missing role drawn: ${JSON.stringify(third.nodes)}`);

    // The graph follows an edit: the queue's dangling dependency removed.
    const text = document.getText();
    const dangling = `"${gone}"`;
    const at = text.indexOf(dangling);
    expect(at > 0, 'the fixture holds the dangling dependency');
    const edit = new vscode.WorkspaceEdit();
    edit.delete(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + dangling.length)));
    await vscode.workspace.applyEdit(edit);
    await rendered('the edit followed', (g) => g.focus === queue && !g.nodes.includes(gone));

    // A syntax error: the last good picture stays, and the notice says so.
    const broken = new vscode.WorkspaceEdit();
    broken.insert(uri, document.positionAt(document.getText().indexOf('"resources"')), '{{');
    await vscode.workspace.applyEdit(broken);
    const stale = await rendered('the stale notice', (g) => /syntax/i.test(g.notice ?? ''));
    expect(stale.focus === queue && stale.nodes.includes(root), `the last good graph kept: ${JSON.stringify(stale)}`);
  } finally {
    await revertAndCloseAll();
    await vscode.workspace.fs.delete(uri);
  }
}

/** A stack of `count` resources under components of ten: past 100, its whole graph is an overview of groups. */
function largeFixtureText(count: number): string {
  const resources: unknown[] = [{ urn: root, custom: false, type: 'pulumi:pulumi:Stack' }];
  for (let i = 0; resources.length < count; i++) {
    const component = U('my:web:Site', `site${i}`);
    resources.push({ urn: component, custom: false, type: 'my:web:Site', parent: root });
    for (let j = 0; j < 9 && resources.length < count; j++)
      resources.push({ urn: U('aws:sqs/queue:Queue', `q${i}-${j}`), custom: true, id: `q${i}-${j}`, type: 'aws:sqs/queue:Queue', parent: component });
  }
  return `${JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' }, resources } }, null, 2)}\n`;
}

/**
 * Node's extension host only (the browser's server has no disk): the panel keeps depth and "whole
 * graph" per file and opens a new file at depth 1; a whole graph past 100 resources is an overview
 * whose group opens on a click; a file no editor holds is drawn from disk, and followed as it changes.
 */
export async function resourceGraphLargeScenario(): Promise<void> {
  const { hooks } = await activeExtension();
  const large = workspaceUri('graph-large.state.json');
  const closed = workspaceUri('graph-closed.state.json');
  await vscode.workspace.fs.writeFile(large, new TextEncoder().encode(largeFixtureText(300)));
  await vscode.workspace.fs.writeFile(closed, new TextEncoder().encode(graphFixtureText()));
  try {
    // Never opened in an editor: the server reads the file from disk.
    await vscode.commands.executeCommand('quotaState.showResourceGraph', large);
    const focused = await rendered('the large file at depth 1', (g) => g.focus === root && g.nodes.length > 1);
    expect(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === large.toString()), 'the graph did not open the file as a document');
    expect(focused.groups === undefined, 'depth 1 is a focused picture');
    await hooks.resourceGraph.simulate({ type: 'simulate', action: 'depth', depth: 'all' });
    const overview = await rendered('the overview of groups', (g) => (g.groups?.length ?? 0) > 10);
    const group = overview.groups!.find((id) => id.includes('site7'))!;
    expect(group !== undefined, `a group per component: ${JSON.stringify(overview.groups)}`);
    await hooks.resourceGraph.simulate({ type: 'simulate', action: 'click', id: group });
    await rendered('the group opened', (g) => g.nodes.includes(U('aws:sqs/queue:Queue', 'q7-3')));

    // Another file opens focused at depth 1, and the first keeps its whole graph.
    await vscode.commands.executeCommand('quotaState.showResourceGraph', closed);
    const other = await rendered('the other file at depth 1', (g) => g.nodes.includes(policy) && g.groups === undefined);
    expect(hooks.resourceGraph.current().view?.depth === 1, `the other file's depth: ${hooks.resourceGraph.current().view?.depth}`);
    expect(other.nodes.length > 0, 'drawn from disk');
    await vscode.commands.executeCommand('quotaState.showResourceGraph', large);
    await rendered('the large file back at its whole graph', (g) => (g.groups?.length ?? 0) > 10);

    // The file changes on disk while the panel shows it: the picture follows.
    await vscode.commands.executeCommand('quotaState.showResourceGraph', closed);
    await rendered('the closed file again', (g) => g.nodes.includes(policy));
    const grown = graphFixtureText().replace(
      '"resources": [',
      `"resources": [\n    { "urn": "${U('aws:sns/topic:Topic', 'news')}", "custom": true, "id": "t1", "type": "aws:sns/topic:Topic", "parent": "${root}" },`,
    );
    await vscode.workspace.fs.writeFile(closed, new TextEncoder().encode(grown));
    await rendered('the change on disk followed', (g) => g.nodes.includes(U('aws:sns/topic:Topic', 'news')));
  } finally {
    await revertAndCloseAll();
    await vscode.workspace.fs.delete(large);
    await vscode.workspace.fs.delete(closed);
  }
}
