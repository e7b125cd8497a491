/**
 * The dependency graph the integrity index builds, and its cycles, which `dependency-cycle` reports:
 * over parent, dependencies, propertyDependencies, deletedWith, replaceWith and provider edges
 * (iterative Tarjan, linear). An edge to a urn that exists both live and
 * `delete: true` resolves to the copy of the same kind, so such "false cycles" are not reported.
 *
 * The graph is stored flat (one array of targets, rows by resource) and edges remember only
 * which reference they came from: a 30k-resource file has ~150k edges, and an object per edge
 * kept alive for the whole pass was a large share of the analysis's garbage collection.
 */
import { dependencyReferences, providerSite, type ReferenceSite, type ResourceEntry } from '../model/structure';
import { parseProviderReference } from '../model/urn';

/** The copy of a urn an edge from `from` leads to, among `copies` (the urn's indices, in order). */
export function pickCopy(resources: ResourceEntry[], copies: number[], from: number): number {
  if (copies.length === 1) return copies[0];
  const deleted = resources[from].deleted;
  return copies.find((i) => resources[i].deleted === deleted) ?? copies[0];
}

export function resolveTarget(resources: ResourceEntry[], byUrn: ReadonlyMap<string, number[]>, from: number, target: string): number | undefined {
  const copies = byUrn.get(target);
  return copies && pickCopy(resources, copies, from);
}

/** Marks an edge that comes from the resource's provider reference rather than a dependency site. */
const PROVIDER_EDGE = -1;

/**
 * Edges of the dependency graph (self-loops excluded: those are `self-reference`), added
 * resource by resource in index order: `begin(i)`, then that resource's edges.
 */
export class DependencyGraph {
  private readonly rowStart: Int32Array;
  private readonly targets: number[] = [];
  /** Per edge: the index of its site in `dependencyReferences(from)`, or PROVIDER_EDGE. */
  private readonly sites: number[] = [];
  private rows = 0;

  constructor(readonly size: number) {
    this.rowStart = new Int32Array(size + 1);
  }

  /** Starts the edges of resource `index`; resources must begin in order 0, 1, 2, ... */
  begin(index: number): void {
    while (this.rows <= index) this.rowStart[this.rows++] = this.targets.length;
  }

  /** An edge from the current resource to `to`, for its dependency site `site` (or the provider). */
  add(to: number, site: number = PROVIDER_EDGE): void {
    this.targets.push(to);
    this.sites.push(site);
  }

  /** Ends the graph: resources never begun have no edges. */
  finish(): void {
    this.begin(this.size - 1);
    this.rowStart[this.size] = this.targets.length;
  }

  first(v: number): number {
    return this.rowStart[v];
  }

  end(v: number): number {
    return this.rowStart[v + 1];
  }

  target(edge: number): number {
    return this.targets[edge];
  }

  /** The reference an edge of `from` stands for, rebuilt on demand (only cycles need it). */
  site(resources: ResourceEntry[], from: number, edge: number): ReferenceSite {
    const ordinal = this.sites[edge];
    const resource = resources[from];
    if (ordinal !== PROVIDER_EDGE) return dependencyReferences(resource)[ordinal];
    const parsed = parseProviderReference((resource.value as Record<string, unknown>).provider as string);
    if ('error' in parsed) throw new Error(`provider edge of ${from} without a provider reference`);
    return providerSite(resource, parsed.urn, parsed.id);
  }
}

/** The edge of `resource`'s provider reference to `providerUrn` (the reference parsed), when that names a resource of the file. */
export function addProviderEdge(graph: DependencyGraph, resources: ResourceEntry[], byUrn: ReadonlyMap<string, number[]>, resource: ResourceEntry, providerUrn: string): void {
  const to = resolveTarget(resources, byUrn, resource.index, providerUrn);
  if (to !== undefined && to !== resource.index) graph.add(to);
}

/** Strongly connected components with more than one member (iterative Tarjan). */
function components(graph: DependencyGraph): number[][] {
  const n = graph.size;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  // The depth-first work stack: a node and the next of its edges to follow.
  const workNode = new Int32Array(n);
  const workEdge = new Int32Array(n);
  const result: number[][] = [];
  let counter = 0;
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1) continue;
    let depth = 0;
    workNode[0] = start;
    workEdge[0] = graph.first(start);
    index[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (depth >= 0) {
      const v = workNode[depth];
      const edge = workEdge[depth];
      if (edge < graph.end(v)) {
        workEdge[depth]++;
        const w = graph.target(edge);
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          depth++;
          workNode[depth] = w;
          workEdge[depth] = graph.first(w);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      depth--;
      if (depth >= 0) {
        const parent = workNode[depth];
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

interface Step {
  from: number;
  edge: number;
}

/** One shortest cycle through `start` inside its component (BFS), as steps along edges. */
function cycleThrough(start: number, members: Set<number>, graph: DependencyGraph): Step[] {
  const via = new Map<number, Step>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    for (let edge = graph.first(v); edge < graph.end(v); edge++) {
      const to = graph.target(edge);
      if (!members.has(to)) continue;
      if (to === start) {
        const path: Step[] = [{ from: v, edge }];
        for (let at = v; at !== start; at = via.get(at)!.from) path.unshift(via.get(at)!);
        return path;
      }
      if (!via.has(to)) {
        via.set(to, { from: v, edge });
        queue.push(to);
      }
    }
  }
  return [];
}

/** One step of a cycle: the resource it leads to and the reference it follows. */
export interface CycleEdge {
  to: number;
  site: ReferenceSite;
}

/** One shortest cycle per strongly connected component, from its smallest index, as the references it follows. */
export function shortestCycles(resources: ResourceEntry[], graph: DependencyGraph): Array<{ start: number; edges: CycleEdge[] }> {
  const cycles: Array<{ start: number; edges: CycleEdge[] }> = [];
  for (const component of components(graph)) {
    const start = component.reduce((a, b) => (a < b ? a : b));
    const steps = cycleThrough(start, new Set(component), graph);
    if (!steps.length) continue;
    cycles.push({ start, edges: steps.map((step) => ({ to: graph.target(step.edge), site: graph.site(resources, step.from, step.edge) })) });
  }
  return cycles;
}
