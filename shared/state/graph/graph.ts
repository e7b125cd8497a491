/**
 * The resource graph of a state: parent and dependency edges as `pulumi stack graph` draws them
 * (pkg/cmd/pulumi/stack/stack_graph.go and graph/dotconv/print.go at v3.274.1), and, with
 * `allEdges`, what Pulumi leaves out: provider, `deletedWith` and `replaceWith` edges, every copy of
 * a urn as its own node, and references to resources not in the state as missing nodes.
 *
 * Pulumi's quirks kept in the default mode: copies of one urn are one vertex, the last copy in file
 * order; a dependency edge runs from the dependency to the dependent, labelled with the property
 * names whose `propertyDependencies` list it (only `dependencies` entries make edges); a parent edge
 * runs from the child to the parent; vertices are printed breadth first from the roots sorted by urn.
 */
import { isObject, type JsonObject } from '../model/structure';

type EdgeKind = 'parent' | 'dependency' | 'provider' | 'deletedWith' | 'replaceWith';
const EDGE_KIND_CODES: Record<EdgeKind, number> = { parent: 0, dependency: 1, provider: 2, deletedWith: 3, replaceWith: 4 };

export interface GraphNode {
  /** The urn; with `allEdges`, `urn#N` for the N-th of several copies. */
  id: string;
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  delete: boolean;
  protect: boolean;
  taint: boolean;
  /** A reference to a resource the state does not hold. */
  missing?: true;
}

interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  labels: string[];
}

export interface ResourceGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphOptions {
  ignoreParentEdges?: boolean;
  ignoreDependencyEdges?: boolean;
  allEdges?: boolean;
}

const text = (record: JsonObject, key: string) => (typeof record[key] === 'string' ? (record[key] as string) : '');
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : []);

/** The last `::`-separated segment of a urn (`URN.Name()`). */
function urnName(urn: string): string {
  return urn.slice(urn.lastIndexOf('::') + 2);
}

function nodeOf(record: JsonObject, id: string): GraphNode {
  const urn = text(record, 'urn');
  return { id, urn, type: text(record, 'type'), name: urnName(urn), custom: record.custom === true, delete: record.delete === true, protect: record.protect === true, taint: record.taint === true };
}

/** The graph of `records` (a deployment's resources, in file order). */
export function buildGraph(records: readonly unknown[], options: GraphOptions = {}): ResourceGraph {
  const objects = records.filter(isObject).filter((r) => text(r, 'urn') !== '');
  const counts = new Map<string, number>();
  for (const record of objects) counts.set(text(record, 'urn'), (counts.get(text(record, 'urn')) ?? 0) + 1);
  const seen = new Map<string, number>();
  const ids = objects.map((record) => {
    const urn = text(record, 'urn');
    const n = (seen.get(urn) ?? 0) + 1;
    seen.set(urn, n);
    return options.allEdges && counts.get(urn)! > 1 ? `${urn}#${n}` : urn;
  });
  // Pulumi: one vertex per urn, the last copy's; with allEdges, every copy, and a reference names the live copy or the last.
  const vertexOf = new Map<string, string>();
  objects.forEach((record, index) => {
    const urn = text(record, 'urn');
    if (!options.allEdges || record.delete !== true || !vertexOf.has(urn)) vertexOf.set(urn, ids[index]);
  });
  const nodes = new Map<string, GraphNode>();
  objects.forEach((record, index) => {
    if (options.allEdges || vertexOf.get(text(record, 'urn')) === ids[index]) nodes.set(ids[index], nodeOf(record, ids[index]));
  });
  // Edges are told apart by number (the ends' places among the node ids, and the kind): keys made by
  // joining two urns would build and hash a long new string for every edge of a 30k-resource state.
  const edges = new Map<number, GraphEdge>();
  const place = new Map<string, number>();
  const placeOf = (id: string) => {
    let at = place.get(id);
    if (at === undefined) place.set(id, (at = place.size));
    return at;
  };
  const add = (from: string, to: string, kind: EdgeKind, labels: string[] = []) => {
    const key = (placeOf(from) * 0x100000 + placeOf(to)) * 8 + EDGE_KIND_CODES[kind];
    if (!edges.has(key)) edges.set(key, { from, to, kind, labels });
  };
  const target = (urn: string): string => {
    const id = vertexOf.get(urn);
    if (id) return id;
    if (!nodes.has(urn)) nodes.set(urn, { id: urn, urn, type: '', name: urnName(urn), custom: false, delete: false, protect: false, taint: false, missing: true });
    return urn;
  };
  const lastIndexOf = new Map(ids.map((id, index) => [id, index]));
  objects.forEach((record, index) => {
    // Pulumi takes every copy's turn with the last copy's vertex: its edges, once (strict digraph).
    const self = options.allEdges ? ids[index] : vertexOf.get(text(record, 'urn'))!;
    const source = options.allEdges ? record : objects[lastIndexOf.get(self)!];
    edgesOf(source, self, options, add, (urn) => (options.allEdges ? target(urn) : vertexOf.get(urn)));
  });
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

function edgesOf(
  record: JsonObject,
  self: string,
  options: GraphOptions,
  add: (from: string, to: string, kind: EdgeKind, labels?: string[]) => void,
  vertex: (urn: string) => string | undefined,
): void {
  if (!options.ignoreDependencyEdges) {
    const blame = new Map<string, string[]>();
    const byProperty = isObject(record.propertyDependencies) ? record.propertyDependencies : {};
    for (const key of Object.keys(byProperty).sort()) for (const dep of strings(byProperty[key])) blame.set(dep, [...(blame.get(dep) ?? []), key]);
    for (const dep of strings(record.dependencies)) {
      const from = vertex(dep);
      if (from) add(from, self, 'dependency', blame.get(dep) ?? []);
    }
  }
  if (!options.ignoreParentEdges) {
    const parent = text(record, 'parent');
    const to = parent && vertex(parent);
    if (to) add(self, to, 'parent');
  }
  if (!options.allEdges) return;
  const provider = text(record, 'provider');
  if (provider.includes('::')) {
    const to = vertex(provider.slice(0, provider.lastIndexOf('::')));
    if (to) add(self, to, 'provider');
  }
  const deletedWith = text(record, 'deletedWith');
  const deletedWithTarget = deletedWith && vertex(deletedWith);
  if (deletedWithTarget) add(self, deletedWithTarget, 'deletedWith');
  for (const urn of strings(record.replaceWith)) {
    const to = vertex(urn);
    if (to) add(self, to, 'replaceWith');
  }
}

const DEPENDENCY_COLOR = '#246C60';
const PARENT_COLOR = '#AA6639';

/** DOT as `pulumi stack graph` prints it (dotconv.Print): `ResourceN` ids, breadth first from the roots sorted by urn. */
export function toDot(graph: ResourceGraph, options: { shortNodeName?: boolean } = {}): string {
  const outs = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const list = outs.get(edge.from);
    if (list) list.push(edge);
    else outs.set(edge.from, [edge]);
  }
  const ids = new Map<string, string>();
  const idOf = (node: string) => {
    let id = ids.get(node);
    if (!id) ids.set(node, (id = `Resource${ids.size}`));
    return id;
  };
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const lines = ['strict digraph {'];
  const frontier = graph.nodes.map((n) => n.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const node of frontier) {
    const label = options.shortNodeName ? byId.get(node)!.name : byId.get(node)!.urn;
    lines.push(`    ${idOf(node)}${label ? ` [label="${label}"]` : ''};`);
    for (const edge of outs.get(node) ?? []) {
      const attributes = [`color = "${edge.kind === 'parent' ? PARENT_COLOR : DEPENDENCY_COLOR}"`];
      if (edge.labels.length) attributes.push(`label = "${edge.labels.join(', ')}"`);
      else if (edge.kind !== 'dependency' && edge.kind !== 'parent') attributes.push(`label = "${edge.kind}"`);
      lines.push(`    ${idOf(node)} -> ${idOf(edge.to)} [${attributes.join(', ')}];`);
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The resource `urn` and everything within `depth` edges of it, in either direction. */
export function focusGraph(graph: ResourceGraph, urn: string, depth: number): ResourceGraph | undefined {
  const start = graph.nodes.filter((n) => n.urn === urn).map((n) => n.id);
  if (start.length === 0) return undefined;
  const keep = new Set(start);
  let frontier = new Set(start);
  for (let step = 0; step < depth && frontier.size; step++) {
    const next = new Set<string>();
    for (const edge of graph.edges) {
      for (const [a, b] of [
        [edge.from, edge.to],
        [edge.to, edge.from],
      ]) {
        if (frontier.has(a) && !keep.has(b)) {
          keep.add(b);
          next.add(b);
        }
      }
    }
    frontier = next;
  }
  return { nodes: graph.nodes.filter((n) => keep.has(n.id)), edges: graph.edges.filter((e) => keep.has(e.from) && keep.has(e.to)) };
}

/** The most nodes a Mermaid picture can show readably (its renderer gives up well before thousands). */
export const MERMAID_NODE_LIMIT = 500;

/** A Mermaid flowchart: nodes by name and type, one arrow style per edge kind (dotted for parents). */
export function toMermaid(graph: ResourceGraph, options: { shortNodeName?: boolean } = {}): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const quote = (value: string) => value.replace(/"/g, '#quot;');
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const label = options.shortNodeName ? node.name : `${node.name}<br/>${node.type || 'missing'}`;
    lines.push(`  ${ids.get(node.id)}["${quote(label)}"]`);
  }
  for (const edge of graph.edges) {
    const label = edge.kind === 'dependency' ? edge.labels.join(', ') : edge.kind;
    const arrow = edge.kind === 'parent' ? '-.->' : '-->';
    lines.push(`  ${ids.get(edge.from)} ${arrow}${label ? `|"${quote(label)}"|` : ''} ${ids.get(edge.to)}`);
  }
  return `${lines.join('\n')}\n`;
}
