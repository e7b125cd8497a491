/**
 * The quick fixes of resource-state files, one provider per diagnostic code (the registry in
 * codes.ts names it), as offset-based edits. Every edit keeps the JSON valid and reuses the file's
 * own indentation.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest, TextEdit } from '../../edits';
import { occurrencesOf } from './fields';
import type { StateSnapshot } from '../model/snapshot';
import { pathKey, type JsonPath, type LocatedNode } from '../model/locate';
import { dependencyReferences, isObject } from '../model/structure';
import { resolveTarget } from './cycles';
import { indexUrns } from './integrity';
import { parseProviderReference } from '../model/urn';

export type { TextEdit };

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

function locate(analysis: StateSnapshot, path: JsonPath): LocatedNode | undefined {
  return analysis.locator.locateAll([path]).get(pathKey(path));
}

/** Removes an object member or array element together with one adjacent comma. */
export function removalEdit(text: string, node: LocatedNode): TextEdit {
  const start = node.key ? node.key.offset : node.value.offset;
  const end = node.value.offset + node.value.length;
  let before = start - 1;
  while (isWhitespace(text[before])) before--;
  if (text[before] === ',') return { offset: before, length: end - before, newText: '' };
  // First member: remove it, its comma and the whitespace up to the next member.
  let after = end;
  while (isWhitespace(text[after])) after++;
  if (text[after] === ',') {
    after++;
    while (isWhitespace(text[after])) after++;
    return { offset: start, length: after - start, newText: '' };
  }
  // Only member: collapse the container to `[]` / `{}`.
  return { offset: before + 1, length: after - (before + 1), newText: '' };
}

function replaceValue(node: LocatedNode, value: unknown): TextEdit {
  return { offset: node.value.offset, length: node.value.length, newText: JSON.stringify(value) };
}

/** `"delete": true` as the record's first member, indented like its first existing member. */
function markDeletedEdit(analysis: StateSnapshot, resourcePath: JsonPath): TextEdit | undefined {
  const existing = locate(analysis, [...resourcePath, 'delete']);
  if (existing) return replaceValue(existing, true);
  return insertFirstMemberEdit(analysis, resourcePath, 'delete', true);
}

/** `"key": value` as the object's first member, indented like its first existing member. */
function insertFirstMemberEdit(analysis: StateSnapshot, objectPath: JsonPath, key: string, value: unknown): TextEdit | undefined {
  const object = locate(analysis, objectPath);
  if (!object || object.kind !== 'object') return undefined;
  const text = analysis.text;
  const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  let first = object.value.offset + 1;
  while (isWhitespace(text[first])) first++;
  if (text[first] === '}') return { offset: first, length: 0, newText: member };
  const gap = text.slice(object.value.offset + 1, first);
  const newline = gap.lastIndexOf('\n');
  const separator = newline === -1 ? ' ' : `\n${gap.slice(newline + 1)}`;
  return { offset: first, length: 0, newText: `${member},${separator}` };
}

/** Reads one diagnostic's `data` and offers its fixes; the registry (codes.ts) names one per code. */
export type StateFixProvider = (analysis: StateSnapshot, request: FixRequest) => Fix[];

const pathOf = (data: Record<string, unknown>) => (Array.isArray(data.path) ? (data.path as JsonPath) : undefined);
const located = (analysis: StateSnapshot, data: Record<string, unknown>) => {
  const path = pathOf(data);
  return path && locate(analysis, path);
};

/** A reference to a resource that is not in the file (or to itself) is removed. */
export function removeReferenceFix(analysis: StateSnapshot, { code, data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node || data.kind === 'provider') return [];
  return [{ title: l10n.t('Remove the reference to {0}', String(data.target)), edits: [removalEdit(analysis.text, node)], preferred: code === 'missing-reference' }];
}

/** A copy pending deletion loses the protect flag Pulumi ignores for it. */
export function unprotectPendingDeleteFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  return node ? [{ title: l10n.t('Remove {0} (the pending deletion happens regardless)', '"protect": true'), edits: [removalEdit(analysis.text, node)], preferred: true }] : [];
}

/** Referenced resources move before their referrers. */
export function reorderFix(analysis: StateSnapshot): Fix[] {
  const edit = reorderEdit(analysis);
  return edit ? [{ title: l10n.t('Reorder resources into dependency order'), edits: [edit], preferred: true, id: 'reorder-resources' }] : [];
}

export function recomputeMagicFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node || typeof data.expected !== 'string') return [];
  return [{ title: l10n.t('Recompute the manifest magic'), edits: [replaceValue(node, data.expected)], preferred: true }];
}

/** A second copy of a urn becomes the pending deletion Pulumi allows beside the live copy. */
export function markDuplicateDeletedFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const path = pathOf(data);
  const edit = path && markDeletedEdit(analysis, path);
  return edit ? [{ title: l10n.t('Mark this duplicate {0}', '"delete": true'), edits: [edit], preferred: true }] : [];
}

export function unknownProviderFixes(analysis: StateSnapshot, request: FixRequest): Fix[] {
  const { data } = request;
  const fixes: Fix[] = [];
  const node = located(analysis, data);
  if (node && typeof data.suggestion === 'string') {
    fixes.push({ title: l10n.t('Point the provider reference at {0}', String(data.suggestion)), edits: [replaceValue(node, data.suggestion)], preferred: true });
  }
  if (data.later === true) fixes.push(...reorderFix(analysis));
  return fixes;
}

export function unknownPropertyFixes(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node) return [];
  const fixes: Fix[] = [];
  const suggestion = typeof data.suggestion === 'string' ? data.suggestion : undefined;
  if (suggestion && node.key) {
    fixes.push({ title: l10n.t('Rename to "{0}"', suggestion), edits: [{ offset: node.key.offset, length: node.key.length, newText: JSON.stringify(suggestion) }], preferred: true });
  }
  fixes.push({ title: l10n.t('Remove property "{0}"', String(data.property)), edits: [removalEdit(analysis.text, node)], preferred: !suggestion });
  return fixes;
}

/** One fix per legacy field, removing every occurrence (the diagnostic sums them up once per file). */
export function removeLegacyPropertyFixes(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const fixes: Fix[] = [];
  const fields = isObject(data.fields) ? Object.keys(data.fields) : [];
  for (const field of fields) {
    const paths = occurrencesOf(analysis.structure, field);
    const nodes = analysis.locator.locateAll(paths);
    const edits = paths
      .map((p) => nodes.get(pathKey(p)))
      .filter((n): n is LocatedNode => n !== undefined)
      .map((n) => removalEdit(analysis.text, n));
    if (edits.length) {
      fixes.push({
        title: edits.length === 1 ? l10n.t('Remove the legacy property "{0}" (1 occurrence)', field) : l10n.t('Remove the legacy property "{0}" ({1} occurrences)', field, edits.length),
        edits,
        preferred: fields.length === 1,
      });
    }
  }
  return fixes;
}

export function removeUnsupportedFeatureFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  return node ? [{ title: l10n.t('Remove the unsupported feature "{0}"', String(data.feature)), edits: [removalEdit(analysis.text, node)], preferred: true }] : [];
}

export function addSnippetUuidFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const path = pathOf(data);
  if (data.missing !== true || !path) return [];
  const existing = locate(analysis, [...path, 'uuid']);
  // Web Crypto's randomUUID is synchronous and global in Node 20 and in browser workers alike.
  const uuid = globalThis.crypto.randomUUID();
  const edit = existing ? replaceValue(existing, uuid) : insertFirstMemberEdit(analysis, path, 'uuid', uuid);
  return edit ? [{ title: l10n.t('Add a snippet uuid'), edits: [edit], preferred: true }] : [];
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
