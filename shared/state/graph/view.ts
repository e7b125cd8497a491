/**
 * The editor's picture of the resource graph: the graph with every edge kind (`allEdges`), focused on
 * one resource within a depth, filtered, marked with the checker's findings and the pending
 * operations, and laid out by dagre (a layered layout of the Sugiyama kind). It runs in the language
 * server, off the editor's UI thread, and the webview only draws what it answers.
 *
 * The whole graph is built once per parsed snapshot; a refocus or a new depth walks it again and lays
 * out only what is shown, at most `LAID_OUT_NODE_LIMIT` nodes, nearest to the focus first.
 */
import type Dagre from '@dagrejs/dagre';
import type { Diagnostic, Span } from '../../diagnostics';
import type { StateDocument } from '../services/context';
import { isObject } from '../model/structure';
import { buildGraph, type GraphNode, type ResourceGraph } from './graph';
import { GRAPH_EDGE_KINDS, type GraphEdgeKind } from './kinds';

// dagre loads with the first picture, not with every start of the server.
let dagreModule: typeof Dagre | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dagre = () => (dagreModule ??= (require('@dagrejs/dagre') as { default: typeof Dagre }).default);

/** Above this many nodes the whole graph is never laid out unasked (the view offers a focus or the DOT export). */
const LAID_OUT_NODE_LIMIT = 2000;
/**
 * A focus shows at most this many nodes, nearest first, and says how many more are within reach: a
 * stack's root has every top-level resource as a child, and a layered layout of a thousand siblings
 * takes seconds and shows nothing readable.
 */
const FOCUS_NODE_LIMIT = 150;

export interface GraphViewRequest {
  /** The node to focus (an id the view answered); else the record at `offset`; else the stack. */
  focus?: string;
  offset?: number;
  /** Edges away from the focus (default 1); `all` is the whole graph. */
  depth?: number | 'all';
  /** The edge kinds walked and drawn (default: all). */
  edgeKinds?: GraphEdgeKind[];
  /** Only resources of this type (and the focus). */
  type?: string;
  /** Only resources of this provider (its urn; and the focus). */
  provider?: string;
  /** Resources whose name, type or urn holds this text (case-insensitive), nearest first. */
  search?: string;
}

export interface GraphViewNode extends Omit<GraphNode, 'missing'> {
  missing: boolean;
  /** Pending operations on this urn. */
  pending: number;
  errors: number;
  warnings: number;
  /** The urn of its provider (without the id), when it has one. */
  provider?: string;
  /** Where its record is, when it has one (a missing node has none). */
  span?: Span;
  /** The centre and size of its box. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GraphViewEdge {
  from: string;
  to: string;
  kind: GraphEdgeKind;
  labels: string[];
  points: Array<{ x: number; y: number }>;
}

export interface GraphView {
  focus: string | null;
  depth: number | 'all';
  nodes: GraphViewNode[];
  edges: GraphViewEdge[];
  width: number;
  height: number;
  /** The whole graph's size. */
  total: { nodes: number; edges: number };
  /** Set when more resources are within reach than are laid out. */
  truncated?: { shown: number; within: number };
  /** The answer to `search`: at most 50, nearest to the focus first. */
  matches?: Array<{ id: string; name: string; type: string }>;
  /** What the filters can select. */
  types: string[];
  providers: Array<{ urn: string; name: string }>;
}

interface Built {
  graph: ResourceGraph;
  byId: Map<string, ResourceGraph['nodes'][number]>;
  /** Each node's record index (missing nodes have none). */
  recordOf: Map<string, number>;
  /** The node of each record index. */
  nodeOfRecord: Map<number, string>;
  providerOf: Map<string, string>;
  neighbours: Map<string, Array<{ other: string; kind: GraphEdgeKind }>>;
  outgoing: Map<string, ResourceGraph['edges']>;
  pending: Map<string, number>;
  types: string[];
  providers: Array<{ urn: string; name: string }>;
}

const built = new WeakMap<object, Built>();

function build(document: StateDocument): Built {
  const { snapshot } = document;
  let cached = built.get(snapshot);
  if (cached) return cached;
  const records = snapshot.structure.resources.map((entry) => entry.value);
  const graph = buildGraph(records, { allEdges: true });
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  // The ids buildGraph gives, in the same order: the urn, or urn#N among several copies.
  const counts = new Map<string, number>();
  for (const record of records) if (isObject(record) && typeof record.urn === 'string' && record.urn) counts.set(record.urn, (counts.get(record.urn) ?? 0) + 1);
  const seen = new Map<string, number>();
  const recordOf = new Map<string, number>();
  const nodeOfRecord = new Map<number, string>();
  const providerOf = new Map<string, string>();
  records.forEach((record, index) => {
    if (!isObject(record) || typeof record.urn !== 'string' || !record.urn) return;
    const n = (seen.get(record.urn) ?? 0) + 1;
    seen.set(record.urn, n);
    const id = counts.get(record.urn)! > 1 ? `${record.urn}#${n}` : record.urn;
    recordOf.set(id, index);
    nodeOfRecord.set(index, id);
    if (typeof record.provider === 'string' && record.provider.includes('::')) providerOf.set(id, record.provider.slice(0, record.provider.lastIndexOf('::')));
  });
  const neighbours = new Map<string, Array<{ other: string; kind: GraphEdgeKind }>>();
  const link = (a: string, b: string, kind: GraphEdgeKind) => {
    let list = neighbours.get(a);
    if (!list) neighbours.set(a, (list = []));
    list.push({ other: b, kind });
  };
  const outgoing = new Map<string, ResourceGraph['edges']>();
  for (const edge of graph.edges) {
    link(edge.from, edge.to, edge.kind);
    link(edge.to, edge.from, edge.kind);
    let list = outgoing.get(edge.from);
    if (!list) outgoing.set(edge.from, (list = []));
    list.push(edge);
  }
  const pending = new Map<string, number>();
  for (const entry of snapshot.structure.pendingResources) if (entry.urn) pending.set(entry.urn, (pending.get(entry.urn) ?? 0) + 1);
  const types = [...new Set(graph.nodes.map((node) => node.type).filter(Boolean))].sort();
  const providers = [...new Set(providerOf.values())].sort().map((urn) => ({ urn, name: byId.get(urn)?.name ?? urn.slice(urn.lastIndexOf('::') + 2) }));
  cached = { graph, byId, recordOf, nodeOfRecord, providerOf, neighbours, outgoing, pending, types, providers };
  built.set(snapshot, cached);
  return cached;
}

/** Builds the whole graph of a document ahead of its first picture (the server does it after validation while a graph is open). */
export function prepareGraphView(document: StateDocument): void {
  build(document);
}

/** The focus a request names, else the record at its offset, else the stack, else the first node. */
function focusOf(document: StateDocument, graph: Built, request: GraphViewRequest): string | null {
  if (request.focus && graph.byId.has(request.focus)) return request.focus;
  if (request.offset !== undefined) {
    const index = document.navigation.recordAt(request.offset);
    const id = index === undefined ? undefined : graph.nodeOfRecord.get(index);
    if (id) return id;
  }
  const stack = graph.graph.nodes.find((node) => node.type === 'pulumi:pulumi:Stack');
  return stack?.id ?? graph.graph.nodes[0]?.id ?? null;
}

/** Breadth first from the focus over the chosen edge kinds: every node within `depth`, nearest first. */
function reach(graph: Built, focus: string, depth: number, kinds: ReadonlySet<GraphEdgeKind>): string[] {
  const order = [focus];
  const seen = new Set(order);
  let frontier = [focus];
  for (let step = 0; step < depth && frontier.length; step++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const { other, kind } of graph.neighbours.get(id) ?? []) {
        if (!kinds.has(kind) || seen.has(other)) continue;
        seen.add(other);
        order.push(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  return order;
}

/** Counts the checker's errors and warnings per record, by where each diagnostic starts. */
function findingsPerRecord(document: StateDocument, diagnostics: readonly Diagnostic[]): Map<number, { errors: number; warnings: number }> {
  const found = new Map<number, { errors: number; warnings: number }>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== 'error' && diagnostic.severity !== 'warning') continue;
    const index = document.navigation.recordAt(document.snapshot.lines.offsetAt(diagnostic.range.start));
    if (index === undefined) continue;
    const counts = found.get(index) ?? { errors: 0, warnings: 0 };
    if (diagnostic.severity === 'error') counts.errors++;
    else counts.warnings++;
    found.set(index, counts);
  }
  return found;
}

const CHARACTER_WIDTH = 7;
const NODE_HEIGHT = 40;
const MAX_LABEL = 48;

/** The picture the editor draws of `document`'s graph for `request`. */
export function graphView(document: StateDocument, diagnostics: readonly Diagnostic[], request: GraphViewRequest = {}): GraphView {
  const graph = build(document);
  const kinds = new Set(request.edgeKinds ?? GRAPH_EDGE_KINDS);
  const depth = request.depth === 'all' ? 'all' : Math.max(0, Math.floor(request.depth ?? 1));
  const focus = focusOf(document, graph, request);
  const total = { nodes: graph.graph.nodes.length, edges: graph.graph.edges.length };
  const empty: GraphView = { focus, depth, nodes: [], edges: [], width: 0, height: 0, total, types: graph.types, providers: graph.providers };
  if (!focus) return empty;
  const within = depth === 'all' ? [focus, ...graph.graph.nodes.map((n) => n.id).filter((id) => id !== focus)] : reach(graph, focus, depth, kinds);
  const selected = within.filter(
    (id) => id === focus || ((!request.type || graph.byId.get(id)?.type === request.type) && (!request.provider || graph.providerOf.get(id) === request.provider || id === request.provider)),
  );
  const shown = selected.slice(0, depth === 'all' ? LAID_OUT_NODE_LIMIT : FOCUS_NODE_LIMIT);
  const view: GraphView = { ...empty, ...layout(document, graph, shown, kinds, diagnostics) };
  if (selected.length > shown.length) view.truncated = { shown: shown.length, within: selected.length };
  if (request.search?.trim()) view.matches = search(graph, request.search.trim().toLowerCase(), focus, kinds);
  return view;
}

function layout(document: StateDocument, graph: Built, ids: string[], kinds: ReadonlySet<GraphEdgeKind>, diagnostics: readonly Diagnostic[]) {
  const shown = new Set(ids);
  const findings = findingsPerRecord(document, diagnostics);
  const g = new (dagre().graphlib.Graph)({ multigraph: true });
  // Bottom to top: a parent sits above its children, a dependent above what it depends on.
  // tight-tree ranks 3-5 times faster than dagre's default network simplex on wide graphs, and as readably.
  g.setGraph({ rankdir: 'BT', ranker: 'tight-tree', nodesep: 24, ranksep: 48, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const nodes: GraphViewNode[] = ids.map((id) => {
    const node = graph.byId.get(id)!;
    const record = graph.recordOf.get(id);
    const counts = (record !== undefined && findings.get(record)) || { errors: 0, warnings: 0 };
    const label = Math.min(MAX_LABEL, Math.max(node.name.length, node.type.length, 8));
    const viewNode: GraphViewNode = {
      id,
      urn: node.urn,
      type: node.type,
      name: node.name,
      custom: node.custom,
      delete: node.delete,
      protect: node.protect,
      taint: node.taint,
      missing: node.missing === true,
      pending: graph.pending.get(node.urn) ?? 0,
      errors: counts.errors,
      warnings: counts.warnings,
      x: 0,
      y: 0,
      width: label * CHARACTER_WIDTH + 28,
      height: NODE_HEIGHT,
    };
    const provider = graph.providerOf.get(id);
    if (provider) viewNode.provider = provider;
    const span = record === undefined ? undefined : document.navigation.recordSpan(record);
    if (span) viewNode.span = span;
    g.setNode(id, { width: viewNode.width, height: viewNode.height });
    return viewNode;
  });
  const edges = ids.flatMap((id) => graph.outgoing.get(id) ?? []).filter((edge) => kinds.has(edge.kind) && shown.has(edge.to) && edge.from !== edge.to);
  for (const edge of edges) g.setEdge(edge.from, edge.to, edge.labels.length ? { width: edge.labels.join(', ').length * CHARACTER_WIDTH, height: 14, labelpos: 'c' } : {}, edge.kind);
  dagre().layout(g);
  for (const node of nodes) {
    const placed = g.node(node.id);
    node.x = placed.x;
    node.y = placed.y;
  }
  const viewEdges: GraphViewEdge[] = edges.map((edge) => ({
    ...edge,
    points: ((g.edge(edge.from, edge.to, edge.kind) as { points?: Array<{ x: number; y: number }> } | undefined)?.points ?? []).map(({ x, y }) => ({ x, y })),
  }));
  const size = g.graph();
  return { nodes, edges: viewEdges, width: size.width ?? 0, height: size.height ?? 0 };
}

function search(graph: Built, query: string, focus: string, kinds: ReadonlySet<GraphEdgeKind>) {
  const near = new Map(reach(graph, focus, 3, kinds).map((id, index) => [id, index]));
  return graph.graph.nodes
    .filter((node) => node.name.toLowerCase().includes(query) || node.type.toLowerCase().includes(query) || node.urn.toLowerCase().includes(query))
    .sort((a, b) => (near.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (near.get(b.id) ?? Number.MAX_SAFE_INTEGER))
    .slice(0, 50)
    .map((node) => ({ id: node.id, name: node.name, type: node.type }));
}
