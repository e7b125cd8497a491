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
import { GRAPH_EDGE_KINDS, GROUP_ID_PREFIX, type GraphEdgeKind, type GraphGroupBy } from './kinds';

// dagre loads with the first picture, not with every start of the server.
let dagreModule: typeof Dagre | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dagre = () => (dagreModule ??= (require('@dagrejs/dagre') as { default: typeof Dagre }).default);

/**
 * The whole graph is drawn resource by resource up to this many resources; above it, as an overview of
 * groups (by parent component, type or provider). dagre's layered layout grows much faster than the
 * nodes: 100 nodes with crossing dependencies took 1.3 s, 300 took 15 s and 500 took 85 s here.
 */
const WHOLE_GRAPH_NODE_LIMIT = 100;
/** An overview shows at most this many groups; the smallest of the rest are one group, "other". */
const GROUP_LIMIT = 40;
/** An expanded group shows at most this many of its members; the rest stay in the group's box. */
const EXPANDED_MEMBER_LIMIT = 40;
/** An overview lays out at most this many boxes, groups and expanded members together. */
const OVERVIEW_NODE_LIMIT = 160;
/** At most this many edges are laid out (the heaviest first); the rest are counted in the notice. */
const EDGE_LIMIT = 250;
/** An overview's edges between groups: each bundles many, and fewer keep its layout within a second or two. */
const OVERVIEW_EDGE_LIMIT = 150;

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
  /** The whole graph's overview: what a group is (default: parent components when the stack has them, else types). */
  groupBy?: GraphGroupBy;
  /** Groups of the overview shown resource by resource (their ids, as the view answered). */
  expand?: string[];
  /** `grid`: place the boxes in rows without the layered layout (the server's answer when a layout ran past its time). */
  layout?: 'layered' | 'grid';
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
  /** Set on an overview's group box: what it groups, how many resources, and whether it is expanded. */
  group?: { by: GraphGroupBy; key: string; members: number; expanded: boolean };
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
  /** How many edges of the graph this one stands for (an overview's edges between groups); absent for one. */
  count?: number;
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
  /** Set when the picture is the whole graph's overview of groups. */
  overview?: { by: GraphGroupBy; groups: number; resources: number };
  /** Set when edges were left out of the picture: how many of how many. */
  edgesLeftOut?: { shown: number; within: number };
  /** How the boxes were placed: `grid` when the layered layout was skipped (see `GraphViewRequest.layout`). */
  layout: 'layered' | 'grid';
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
  /** Each node's parent (by parent edge), the nodes with children, and how many below the stack have children. */
  parentOf: Map<string, string>;
  hasChildren: Set<string>;
  components: number;
  /** The overview's memo: each node's top-level component ('' for none). */
  topOf: Map<string, string>;
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
  const parentOf = new Map<string, string>();
  const hasChildren = new Set<string>();
  for (const edge of graph.edges) {
    if (edge.kind === 'parent' && edge.from !== edge.to) {
      parentOf.set(edge.from, edge.to);
      hasChildren.add(edge.to);
    }
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
  let components = 0;
  for (const id of hasChildren) if (parentOf.has(id)) components++;
  cached = { graph, byId, recordOf, nodeOfRecord, providerOf, neighbours, outgoing, pending, types, providers, parentOf, hasChildren, components, topOf: new Map() };
  built.set(snapshot, cached);
  return cached;
}

/** Builds the whole graph of a document ahead of its picture (the graph worker does, before a layout it may be asked to skip). */
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
  const grid = request.layout === 'grid';
  const empty: GraphView = { focus, depth, nodes: [], edges: [], width: 0, height: 0, total, types: graph.types, providers: graph.providers, layout: grid ? 'grid' : 'layered' };
  if (!focus) return empty;
  const within = depth === 'all' ? [focus, ...graph.graph.nodes.map((n) => n.id).filter((id) => id !== focus)] : reach(graph, focus, depth, kinds);
  const selected = within.filter(
    (id) => id === focus || ((!request.type || graph.byId.get(id)?.type === request.type) && (!request.provider || graph.providerOf.get(id) === request.provider || id === request.provider)),
  );
  const findings = findingsPerRecord(document, diagnostics);
  let view: GraphView;
  if (depth === 'all' && selected.length > WHOLE_GRAPH_NODE_LIMIT) {
    view = { ...empty, ...overview(document, graph, selected, focus, kinds, findings, request, grid) };
  } else {
    const shown = selected.slice(0, depth === 'all' ? WHOLE_GRAPH_NODE_LIMIT : FOCUS_NODE_LIMIT);
    const nodes = shown.map((id) => resourceNode(document, graph, id, findings));
    const shownIds = new Set(shown);
    const edges: Array<Omit<GraphViewEdge, 'points'>> = shown
      .flatMap((id) => graph.outgoing.get(id) ?? [])
      .filter((edge) => kinds.has(edge.kind) && shownIds.has(edge.to) && edge.from !== edge.to)
      .map(({ from, to, kind, labels }) => ({ from, to, kind, labels }));
    const kept = heaviest(edges, EDGE_LIMIT);
    view = { ...empty, ...place(nodes, kept, grid) };
    if (kept.length < edges.length) view.edgesLeftOut = { shown: kept.length, within: edges.length };
    if (selected.length > shown.length) view.truncated = { shown: shown.length, within: selected.length };
  }
  if (request.search?.trim()) view.matches = search(graph, request.search.trim().toLowerCase(), focus, kinds);
  return view;
}

/** The edges to lay out: all when few enough, else the ones standing for most edges first. */
function heaviest<E extends { count?: number }>(edges: E[], limit: number): E[] {
  if (edges.length <= limit) return edges;
  return [...edges].sort((a, b) => (b.count ?? 1) - (a.count ?? 1)).slice(0, limit);
}

/** The default grouping: parent components when any resource below the stack has children, else types. */
function defaultGroupBy(graph: Built): GraphGroupBy {
  return graph.components > 0 ? 'parent' : 'type';
}

/**
 * The whole graph as groups: each resource in the group its `groupBy` names, one box per group (the
 * smallest beyond `GROUP_LIMIT` together as "other"), the expanded groups' members as their own boxes,
 * and one edge per pair of boxes and kind, counting the edges it stands for.
 */
function overview(
  document: StateDocument,
  graph: Built,
  selected: string[],
  focus: string,
  kinds: ReadonlySet<GraphEdgeKind>,
  findings: Map<number, { errors: number; warnings: number }>,
  request: GraphViewRequest,
  grid: boolean,
): Omit<GraphView, 'focus' | 'depth' | 'total' | 'types' | 'providers'> {
  const by = request.groupBy ?? defaultGroupBy(graph);
  const { keys, members } = groupsOf(graph, selected, by);
  const groupId = (key: string) => `${GROUP_ID_PREFIX}${by}:${key}`;
  const expandedIds = new Set(request.expand ?? []);
  // A focus the user chose (a found resource, a lens) opens its group, so it is drawn as itself.
  const groupOfResource = new Map<string, string>();
  for (const key of keys) for (const id of members.get(key)!) groupOfResource.set(id, groupId(key));
  const focusGroup = groupOfResource.get(focus);
  if (focusGroup && request.focus === focus) expandedIds.add(focusGroup);
  const display = new Map<string, string>();
  const nodes: GraphViewNode[] = [];
  let room = OVERVIEW_NODE_LIMIT - keys.length;
  for (const key of keys) {
    const id = groupId(key);
    const list = members.get(key)!;
    const expanded = expandedIds.has(id) && room > 0;
    let hidden = list;
    if (expanded) {
      // The focus first, then file order.
      const ordered = list.includes(focus) ? [focus, ...list.filter((m) => m !== focus)] : list;
      const shown = ordered.slice(0, Math.min(EXPANDED_MEMBER_LIMIT, room));
      room -= shown.length;
      for (const member of shown) {
        display.set(member, member);
        nodes.push(resourceNode(document, graph, member, findings));
      }
      hidden = ordered.slice(shown.length);
    }
    for (const member of hidden) display.set(member, id);
    if (hidden.length === 0) continue;
    let errors = 0;
    let warnings = 0;
    for (const member of hidden) {
      const record = graph.recordOf.get(member);
      const counts = record === undefined ? undefined : findings.get(record);
      if (counts) {
        errors += counts.errors;
        warnings += counts.warnings;
      }
    }
    const name = groupName(graph, by, key);
    const label = Math.min(MAX_LABEL, Math.max(name.length, 14));
    nodes.push({
      id,
      urn: '',
      type: '',
      name,
      custom: false,
      delete: false,
      protect: false,
      taint: false,
      missing: false,
      pending: 0,
      errors,
      warnings,
      group: { by, key, members: hidden.length, expanded },
      x: 0,
      y: 0,
      width: label * CHARACTER_WIDTH + 28,
      height: NODE_HEIGHT,
    });
  }
  const edges = bundleEdges(graph, selected, display, kinds);
  const kept = heaviest(edges, OVERVIEW_EDGE_LIMIT);
  const placed = place(nodes, kept, grid);
  const result: ReturnType<typeof overview> = { ...placed, overview: { by, groups: keys.length, resources: selected.length }, layout: placed.layout };
  if (kept.length < edges.length) result.edgesLeftOut = { shown: kept.length, within: edges.length };
  return result;
}

const OTHER_GROUP = '(other)';

/** Each selected resource in its group, the largest groups first; beyond `GROUP_LIMIT`, the smallest share one. */
function groupsOf(graph: Built, selected: string[], by: GraphGroupBy): { keys: string[]; members: Map<string, string[]> } {
  const keyOf = (id: string): string => {
    const node = graph.byId.get(id)!;
    if (by === 'type') return node.type || '(missing)';
    if (by === 'provider') return graph.providerOf.get(id) ?? '(no provider)';
    const top = topComponent(graph, id);
    return top ?? `${node.type || '(missing)'}`;
  };
  const members = new Map<string, string[]>();
  for (const id of selected) {
    const key = keyOf(id);
    const list = members.get(key);
    if (list) list.push(id);
    else members.set(key, [id]);
  }
  // The largest groups keep their own box; the rest share one.
  let keys = [...members.keys()].sort((a, b) => members.get(b)!.length - members.get(a)!.length || (a < b ? -1 : 1));
  if (keys.length > GROUP_LIMIT) {
    const rest = keys.slice(GROUP_LIMIT - 1);
    const other = rest.flatMap((key) => members.get(key)!);
    for (const key of rest) members.delete(key);
    members.set(OTHER_GROUP, other);
    keys = [...keys.slice(0, GROUP_LIMIT - 1), OTHER_GROUP];
  }
  return { keys, members };
}

/** One edge per pair of boxes and kind, counting the graph's edges it stands for (`display`: each resource's box). */
function bundleEdges(graph: Built, selected: string[], display: Map<string, string>, kinds: ReadonlySet<GraphEdgeKind>): GraphViewEdge[] {
  // One edge per pair of boxes and kind, counting what it stands for.
  const bundled = new Map<string, GraphViewEdge>();
  for (const id of selected) {
    for (const edge of graph.outgoing.get(id) ?? []) {
      if (!kinds.has(edge.kind)) continue;
      const from = display.get(edge.from);
      const to = display.get(edge.to);
      if (!from || !to || from === to) continue;
      const key = `${from}\n${to}\n${edge.kind}`;
      const existing = bundled.get(key);
      if (existing) existing.count = (existing.count ?? 1) + 1;
      else bundled.set(key, { from, to, kind: edge.kind, labels: from === edge.from && to === edge.to ? edge.labels : [], points: [] });
    }
  }
  return [...bundled.values()];
}

/** The ancestor just below the stack (a top-level component), or undefined for a resource with no children and no parent but the stack. */
function topComponent(graph: Built, id: string): string | undefined {
  const cached = graph.topOf.get(id);
  if (cached !== undefined) return cached || undefined;
  const chain: string[] = [];
  let current = id;
  const seen = new Set<string>();
  // Climb while the parent has a parent of its own (a cycle stops the climb).
  for (;;) {
    const parent = graph.parentOf.get(current);
    if (!parent || seen.has(parent) || !graph.parentOf.has(parent)) break;
    seen.add(parent);
    chain.push(current);
    current = parent;
  }
  // `current` is the child of a root; it is a component when it has children, else the resource is grouped by its type.
  const top = graph.hasChildren.has(current) ? current : '';
  for (const each of [id, ...chain]) graph.topOf.set(each, top);
  return top || undefined;
}

function groupName(graph: Built, by: GraphGroupBy, key: string): string {
  if (key === OTHER_GROUP) return key;
  if (by === 'parent') {
    const node = graph.byId.get(key);
    return node ? `${node.name} (${node.type})` : key;
  }
  if (by === 'provider') return graph.byId.get(key)?.name ?? key;
  return key;
}

/** Places the boxes: dagre's layered layout, or rows when `grid` (no layout ran past its time here). */
function place(nodes: GraphViewNode[], edges: Array<Omit<GraphViewEdge, 'points'> & { points?: GraphViewEdge['points'] }>, grid: boolean) {
  return grid ? gridLayout(nodes, edges) : layeredLayout(nodes, edges);
}

const GRID_GAP = 24;

/** Rows of boxes in the given order, and straight edges between their centres: linear, for the picture whose layout ran past its time. */
function gridLayout(nodes: GraphViewNode[], edges: Array<Omit<GraphViewEdge, 'points'>>) {
  const perRow = Math.max(1, Math.ceil(Math.sqrt(nodes.length)));
  const columnWidth = Math.max(0, ...nodes.map((n) => n.width)) + GRID_GAP;
  nodes.forEach((node, index) => {
    node.x = 16 + (index % perRow) * columnWidth + node.width / 2;
    node.y = 16 + Math.floor(index / perRow) * (NODE_HEIGHT + GRID_GAP * 2) + NODE_HEIGHT / 2;
  });
  const at = new Map(nodes.map((n) => [n.id, n]));
  const viewEdges: GraphViewEdge[] = edges.map((edge) => {
    const a = at.get(edge.from)!;
    const b = at.get(edge.to)!;
    return {
      ...edge,
      points: [
        { x: a.x, y: a.y },
        { x: b.x, y: b.y },
      ],
    };
  });
  const rows = Math.ceil(nodes.length / perRow);
  return { nodes, edges: viewEdges, width: 32 + Math.min(perRow, nodes.length) * columnWidth, height: 32 + rows * (NODE_HEIGHT + GRID_GAP * 2), layout: 'grid' as const };
}

function resourceNode(document: StateDocument, graph: Built, id: string, findings: Map<number, { errors: number; warnings: number }>): GraphViewNode {
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
  return viewNode;
}

function layeredLayout(nodes: GraphViewNode[], edges: Array<Omit<GraphViewEdge, 'points'>>) {
  const g = new (dagre().graphlib.Graph)();
  // Bottom to top: a parent sits above its children, a dependent above what it depends on.
  // tight-tree ranks 3-5 times faster than dagre's default network simplex on wide graphs, and as readably.
  g.setGraph({ rankdir: 'BT', ranker: 'tight-tree', nodesep: 24, ranksep: 48, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { width: node.width, height: node.height });
  // One laid-out edge per pair of boxes, whatever the kinds and directions between them: dagre's time
  // grows with its edges, and the edges of one pair share one path (a reverse edge runs it backwards).
  const laidOut = new Map<string, { from: string; to: string; label: number }>();
  const pairOf = (edge: Omit<GraphViewEdge, 'points'>) => (edge.from < edge.to ? `${edge.from}\n${edge.to}` : `${edge.to}\n${edge.from}`);
  for (const edge of edges) {
    const pair = pairOf(edge);
    const label = edge.labels.length ? edge.labels.join(', ').length : 0;
    const known = laidOut.get(pair);
    if (known) known.label = Math.max(known.label, label);
    else laidOut.set(pair, { from: edge.from, to: edge.to, label });
  }
  for (const { from, to, label } of laidOut.values()) g.setEdge(from, to, label ? { width: label * CHARACTER_WIDTH, height: 14, labelpos: 'c' } : {});
  dagre().layout(g);
  for (const node of nodes) {
    const placed = g.node(node.id);
    node.x = placed.x;
    node.y = placed.y;
  }
  const viewEdges: GraphViewEdge[] = edges.map((edge) => {
    const shared = laidOut.get(pairOf(edge))!;
    const points = ((g.edge(shared.from, shared.to) as { points?: Array<{ x: number; y: number }> } | undefined)?.points ?? []).map(({ x, y }) => ({ x, y }));
    return { ...edge, points: shared.from === edge.from ? points : points.reverse() };
  });
  const size = g.graph();
  return { nodes, edges: viewEdges, width: size.width ?? 0, height: size.height ?? 0, layout: 'layered' as const };
}

function search(graph: Built, query: string, focus: string, kinds: ReadonlySet<GraphEdgeKind>) {
  const near = new Map(reach(graph, focus, 3, kinds).map((id, index) => [id, index]));
  return graph.graph.nodes
    .filter((node) => node.name.toLowerCase().includes(query) || node.type.toLowerCase().includes(query) || node.urn.toLowerCase().includes(query))
    .sort((a, b) => (near.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (near.get(b.id) ?? Number.MAX_SAFE_INTEGER))
    .slice(0, 50)
    .map((node) => ({ id: node.id, name: node.name, type: node.type }));
}
