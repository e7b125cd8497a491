/**
 * Dependency cycles over parent, dependencies, propertyDependencies, deletedWith, replaceWith
 * and provider edges (iterative Tarjan, linear). An edge to a urn that exists both live and
 * `delete: true` resolves to the copy of the same kind, so such "false cycles" are not reported.
 */
import { dependencyReferences, isObject, providerSite, REFERENCE_KIND_LABEL, ReferenceSite, type ResourceEntry } from './model';
import type { PendingDiagnostic } from './pending';
import { parseProviderReference } from './urn';

interface Edge {
  to: number;
  site: ReferenceSite;
}

export function resolveTarget(resources: ResourceEntry[], byUrn: Map<string, number[]>, from: number, target: string): number | undefined {
  const copies = byUrn.get(target);
  if (!copies) return undefined;
  if (copies.length === 1) return copies[0];
  const deleted = resources[from].deleted;
  return copies.find((i) => resources[i].deleted === deleted) ?? copies[0];
}

/** Edges of the dependency graph (self-loops excluded: those are `self-reference`). */
export function dependencyEdges(resources: ResourceEntry[], byUrn: Map<string, number[]>, references?: ReferenceSite[][]): Edge[][] {
  return resources.map((resource) => {
    const edges: Edge[] = [];
    const add = (site: ReferenceSite) => {
      const to = resolveTarget(resources, byUrn, resource.index, site.target);
      if (to !== undefined && to !== resource.index) edges.push({ to, site });
    };
    for (const site of references?.[resource.index] ?? dependencyReferences(resource)) add(site);
    const record = resource.value;
    if (isObject(record) && typeof record.provider === 'string') {
      const parsed = parseProviderReference(record.provider);
      if (!('error' in parsed)) add(providerSite(resource, parsed.urn, parsed.id));
    }
    return edges;
  });
}

/** Strongly connected components with more than one member (iterative Tarjan). */
function components(edges: Edge[][]): number[][] {
  const n = edges.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const result: number[][] = [];
  let counter = 0;
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1) continue;
    const work: Array<[number, number]> = [[start, 0]];
    index[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      if (i < edges[v].length) {
        frame[1]++;
        const w = edges[v][i].to;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) result.push(component);
      }
    }
  }
  return result;
}

/** One shortest cycle through `start` inside its component (BFS), as edges. */
function cycleThrough(start: number, members: Set<number>, edges: Edge[][]): Edge[] {
  const via = new Map<number, Edge>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    for (const edge of edges[v]) {
      if (!members.has(edge.to)) continue;
      if (edge.to === start) {
        const path = [edge];
        for (let at = v; at !== start; at = via.get(at)!.site.from) path.unshift(via.get(at)!);
        return path;
      }
      if (!via.has(edge.to)) {
        via.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  return [];
}

export function findCycles(resources: ResourceEntry[], byUrn: Map<string, number[]>, references?: ReferenceSite[][]): PendingDiagnostic[] {
  const edges = dependencyEdges(resources, byUrn, references);
  const out: PendingDiagnostic[] = [];
  for (const component of components(edges)) {
    const start = component.reduce((a, b) => (a < b ? a : b));
    const cycle = cycleThrough(start, new Set(component), edges);
    if (!cycle.length) continue;
    const name = (i: number) => resources[i].urn ?? `resource at index ${i}`;
    const names = [name(start), ...cycle.map((edge) => name(edge.to))];
    out.push({
      code: 'dependency-cycle',
      severity: 'error',
      message: `Dependency cycle: ${names.join(' → ')}`,
      at: { path: cycle[0].site.path, part: 'value' },
      related: cycle.map((edge) => ({
        at: { path: edge.site.path, part: 'value' as const },
        message: `${name(edge.site.from)} → ${name(edge.to)} (${REFERENCE_KIND_LABEL[edge.site.kind]})`,
      })),
      data: { cycle: names, path: cycle[0].site.path },
    });
  }
  return out;
}
