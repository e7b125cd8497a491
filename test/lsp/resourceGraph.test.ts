/**
 * The resource graph never blocks the language server, at the sizes users bring: over a real LSP
 * connection to the built server, the whole graph of a 10,000-resource state answers with an overview
 * of groups, a hover sent during its layout is answered at once, a cancelled or superseded picture
 * gives way to the next, a file no editor holds is drawn from disk, and the server's peak memory stays
 * within 1 GiB plus 12 times the file's size. Bounds are ratios to `JSON.parse` of the same text, timed
 * in the same run.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, HoverRequest } from 'vscode-languageserver-protocol/node';
import { ResourceGraphRequest, type ResourceGraphParams, type ResourceGraphResult } from '../../shared/protocol';
import { generateState } from '../bench/generate';
import { LspTestClient } from '../helpers/lspClient';

const RESOURCES = 10_000;

/** The best of three `JSON.parse` timings of `text`: the unit of every bound here. */
function parseMs(text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    JSON.parse(text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** The server process's peak resident memory (VmHWM), worker threads included. */
function peakRss(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) * 1024;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

describe('the resource graph over LSP, at 10,000 resources', function () {
  this.timeout(300_000);
  let client: LspTestClient;
  let dir: string;
  let text: string;
  let uri: string;
  /** JSON.parse of the text, timed again before each measurement: the same load weighs on both. */
  let parse: number;
  beforeEach(() => {
    parse = parseMs(text);
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'graph-lsp-'));
    text = generateState({ resources: RESOURCES });
    const path = join(dir, `large-${RESOURCES}.state.json`);
    writeFileSync(path, text);
    uri = pathToFileURL(path).toString();
    client = await LspTestClient.start();
    await client.open(uri, text);
    // The first hover parses the text on the server's thread (navigation): paid here, so the hover
    // timed below measures only whether the graph holds it up.
    await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 10 } });
  });

  after(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const graph = (params: Omit<ResourceGraphParams, 'uri'>, token?: CancellationTokenSource) =>
    client.connection.sendRequest(ResourceGraphRequest, { uri, ...params }, token?.token) as Promise<ResourceGraphResult | null>;

  it('answers the whole graph as an overview of groups within 20× JSON.parse, and a hover during its layout within 2× (at least 1 s)', async () => {
    const whole = timed(() => graph({ depth: 'all' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hover = await timed(() => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 10 } }));
    const { value: view, ms } = await whole;
    assert.ok(view, 'a picture');
    assert.ok(view.overview, 'the whole graph of 10,000 resources is an overview');
    assert.ok(view.total.nodes >= RESOURCES, `the overview counts every resource (${view.total.nodes})`);
    assert.ok(view.overview.resources >= RESOURCES);
    assert.ok(view.nodes.length <= 200, `at most 200 boxes (${view.nodes.length})`);
    assert.ok(
      view.nodes.some((node) => node.group && node.group.members > 1),
      'groups stand for many resources',
    );
    assert.ok(
      view.edges.some((edge) => (edge.count ?? 1) > 1),
      'edges between groups are counted',
    );
    assert.ok(ms <= 20 * parse, `whole graph ${ms.toFixed(0)} ms ≤ 20 × JSON.parse (${parse.toFixed(0)} ms)`);
    assert.ok(hover.ms <= Math.max(2 * parse, 1000), `hover during the layout ${hover.ms.toFixed(0)} ms ≤ max(2 × JSON.parse, 1 s)`);
  });

  it('expands a group on request and groups by type or provider', async () => {
    const byType = await graph({ depth: 'all', groupBy: 'type' });
    assert.equal(byType?.overview?.by, 'type');
    const group = byType!.nodes.find((node) => node.group && node.group.members > 10)!;
    const expanded = await graph({ depth: 'all', groupBy: 'type', expand: [group.id] });
    const members = expanded!.nodes.filter((node) => !node.group && node.type === group.group!.key);
    assert.ok(members.length > 0, 'the expanded group shows its resources');
    assert.ok(members.length <= 40);
    const byProvider = await graph({ depth: 'all', groupBy: 'provider' });
    assert.equal(byProvider?.overview?.by, 'provider');
  });

  it('gives way to a depth-1 picture within 5× JSON.parse when the whole graph is cancelled', async () => {
    const cancellation = new CancellationTokenSource();
    const whole = graph({ depth: 'all', groupBy: 'parent' }, cancellation).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    cancellation.cancel();
    const { value: focused, ms } = await timed(() => graph({ depth: 1 }));
    await whole;
    assert.ok(focused && focused.nodes.length > 0 && !focused.overview, 'a focused picture');
    assert.equal(focused.depth, 1);
    assert.ok(ms <= 5 * parse, `depth 1 after a cancelled whole graph ${ms.toFixed(0)} ms ≤ 5 × JSON.parse (${parse.toFixed(0)} ms)`);
  });

  it('answers a superseded picture of the same file with nothing, and the newer one in full', async () => {
    const older = graph({ depth: 'all', groupBy: 'provider' });
    const newer = graph({ depth: 2 });
    assert.equal(await older, null);
    const view = await newer;
    assert.equal(view?.depth, 2);
    assert.ok(view!.nodes.length > 0);
  });

  it('draws a file no editor holds from disk, and again after it changes', async () => {
    const other = join(dir, 'closed.state.json');
    const small = generateState({ resources: 40, seed: 7 });
    writeFileSync(other, small);
    const otherUri = pathToFileURL(other).toString();
    const view = await client.connection.sendRequest(ResourceGraphRequest, { uri: otherUri, depth: 'all' });
    assert.ok(view && view.nodes.length >= 40, `the file's resources are drawn (${view?.nodes.length})`);
    writeFileSync(other, generateState({ resources: 60, seed: 7 }));
    const again = await client.connection.sendRequest(ResourceGraphRequest, { uri: otherUri, depth: 'all' });
    assert.ok(again && again.total.nodes >= 60, `the changed file is read again (${again?.total.nodes})`);
  });

  it('names a file that cannot be read', async () => {
    const missing = pathToFileURL(join(dir, 'missing.state.json')).toString();
    await assert.rejects(client.connection.sendRequest(ResourceGraphRequest, { uri: missing, depth: 1 }), /missing\.state\.json/);
  });

  it('keeps the server within 1 GiB plus 12× the file size, and logs no error', () => {
    const peak = peakRss(client.process.pid!);
    const bound = 1024 ** 3 + 12 * Buffer.byteLength(text);
    assert.ok(peak <= bound, `peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB ≤ ${(bound / 2 ** 20).toFixed(0)} MiB`);
    client.assertNoLoggedErrors();
  });
});
