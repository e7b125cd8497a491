/**
 * The edits the state rules' quick fixes share (and state surgery reuses), as offset-based edits,
 * and the fix two codes offer (removing a reference). Each code's own fix is in its module. Every
 * edit keeps the JSON valid and reuses the file's own indentation.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest, TextEdit } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { pathKey, type JsonPath, type LocatedNode } from '../model/locate';

export type { TextEdit };

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

export function locate(analysis: StateSnapshot, path: JsonPath): LocatedNode | undefined {
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

export function replaceValue(node: LocatedNode, value: unknown): TextEdit {
  return { offset: node.value.offset, length: node.value.length, newText: JSON.stringify(value) };
}

/** `"key": value` as the object's first member, indented like its first existing member. */
export function insertFirstMemberEdit(analysis: StateSnapshot, objectPath: JsonPath, key: string, value: unknown): TextEdit | undefined {
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

/** The diagnostic's `data.path`, when it has one. */
export const pathOf = (data: Record<string, unknown>) => (Array.isArray(data.path) ? (data.path as JsonPath) : undefined);
/** The node at the diagnostic's `data.path`, when there is one. */
export const located = (analysis: StateSnapshot, data: Record<string, unknown>) => {
  const path = pathOf(data);
  return path && locate(analysis, path);
};

/** A reference to a resource that is not in the file (or to itself) is removed. */
export function removeReferenceFix(analysis: StateSnapshot, { code, data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node || data.kind === 'provider') return [];
  return [{ title: l10n.t('Remove the reference to {0}', String(data.target)), edits: [removalEdit(analysis.text, node)], preferred: code === 'missing-reference' }];
}

export { dependencyOrder } from './reorder';
