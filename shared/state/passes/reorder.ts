/**
 * The reorder fix `forward-reference` and `unknown-provider` offer: the resources moved into
 * dependency order, keeping the original order wherever it can.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, TextEdit } from '../../edits';
import { pathKey } from '../model/locate';
import type { StateSnapshot } from '../model/snapshot';
import { dependencyReferences, isObject } from '../model/structure';
import { parseProviderReference } from '../model/urn';
import { resolveTarget } from './cycles';
import { indexUrns } from './integrityIndex';

/** Referenced resources move before their referrers. */
export function reorderFix(analysis: StateSnapshot): Fix[] {
  const edit = reorderEdit(analysis);
  return edit ? [{ title: l10n.t('Reorder resources into dependency order'), edits: [edit], preferred: true, id: 'reorder-resources' }] : [];
}

/**
 * The order that puts every referenced resource before its referrers while keeping the
 * original order wherever it can: Kahn's algorithm always taking the smallest original index
 * (a binary heap, O(E log V)). Resources on a cycle keep their relative order at the end.
 */
export function dependencyOrder(analysis: StateSnapshot): number[] {
  const resources = analysis.structure.resources;
  const byUrn = indexUrns(resources);
  const successors: number[][] = resources.map(() => []);
  const indegree = new Int32Array(resources.length);
  for (const resource of resources) {
    const targets = dependencyReferences(resource).map((site) => site.target);
    const record = resource.value;
    if (isObject(record) && typeof record.provider === 'string') {
      const parsed = parseProviderReference(record.provider);
      if (!('error' in parsed)) targets.push(parsed.urn);
    }
    for (const target of new Set(targets)) {
      const from = resolveTarget(resources, byUrn, resource.index, target);
      if (from === undefined || from === resource.index) continue;
      successors[from].push(resource.index);
      indegree[resource.index]++;
    }
  }
  const heap = new MinHeap();
  for (let i = 0; i < resources.length; i++) if (indegree[i] === 0) heap.push(i);
  const order: number[] = [];
  const placed = new Uint8Array(resources.length);
  while (heap.size) {
    const next = heap.pop();
    order.push(next);
    placed[next] = 1;
    for (const successor of successors[next]) if (--indegree[successor] === 0) heap.push(successor);
  }
  for (let i = 0; i < resources.length; i++) if (!placed[i]) order.push(i);
  return order;
}

function reorderEdit(analysis: StateSnapshot): TextEdit | undefined {
  const { structure, text } = analysis;
  if (!structure.resourcesPath || structure.resources.length < 2) return undefined;
  const order = dependencyOrder(analysis);
  if (order.every((index, position) => index === position)) return undefined;
  const located = analysis.locator.locateAll(structure.resources.map((r) => r.path));
  const spans = structure.resources.map((r) => located.get(pathKey(r.path))?.value);
  if (spans.some((s) => !s)) return undefined;
  const first = spans[0]!;
  const last = spans[spans.length - 1]!;
  const separator = text.slice(first.offset + first.length, spans[1]!.offset);
  const newText = order.map((i) => text.slice(spans[i]!.offset, spans[i]!.offset + spans[i]!.length)).join(separator);
  return { offset: first.offset, length: last.offset + last.length - first.offset, newText };
}

class MinHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: number): void {
    const items = this.items;
    items.push(value);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent] <= items[i]) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): number {
    const items = this.items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && items[left] < items[smallest]) smallest = left;
        if (right < items.length && items[right] < items[smallest]) smallest = right;
        if (smallest === i) break;
        [items[smallest], items[i]] = [items[i], items[smallest]];
        i = smallest;
      }
    }
    return top;
  }
}
