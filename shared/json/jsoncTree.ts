/**
 * Small helpers over jsonc-parser's syntax tree, for documents small enough to hold one
 * (quota files). Large state files use their own scan instead.
 */
import * as l10n from '@vscode/l10n';
import { findNodeAtLocation, type Node, type Segment } from 'jsonc-parser';
import type { Span } from '../diagnostics';
import { typeName } from './words';

/** Splits an ajv `instancePath` (a JSON Pointer) into jsonc-parser path segments. */
export function pointerToPath(pointer: string): Segment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

/** The value node at `path`, or the deepest existing ancestor. */
export function nodeAtPath(root: Node, path: Segment[]): Node {
  for (let length = path.length; length >= 0; length--) {
    const node = findNodeAtLocation(root, path.slice(0, length));
    if (node) return node;
  }
  return root;
}

/** The key node of a property value (for "not allowed" errors, underline the key). */
export function propertyKeyNode(objectNode: Node, key: string): Node | undefined {
  for (const property of objectNode.children ?? []) {
    const keyNode = property.children?.[0];
    if (keyNode?.value === key) return keyNode;
  }
  return undefined;
}

export function propertyValueNode(objectNode: Node | undefined, key: string): Node | undefined {
  if (!objectNode || objectNode.type !== 'object') return undefined;
  for (const property of objectNode.children ?? []) {
    if (property.children?.[0]?.value === key) return property.children[1];
  }
  return undefined;
}

export function spanOf(node: Node): Span {
  return { offset: node.offset, length: node.length };
}

/** A span on the first character of an object or array: large containers are not underlined whole. */
export function headSpan(node: Node): Span {
  return node.type === 'object' || node.type === 'array' ? { offset: node.offset, length: 1 } : spanOf(node);
}

export function describeJsonType(node: Node | undefined): string {
  if (!node) return l10n.t('nothing');
  if (node.type === 'property') return l10n.t('a property');
  return node.type === 'number' && Number.isInteger(node.value) ? typeName('integer') : node.type === 'null' ? 'null' : typeName(node.type);
}

/** A schema error without a message of our own: where it is, and ajv's words for it (English). */
export function schemaErrorMessage(where: string, ajvMessage: string | undefined): string {
  return ajvMessage !== undefined
    ? l10n.t({ message: '{0} {1}', args: [where, ajvMessage], comment: ['{0} is a place in the file; {1} is what the schema validator says of it, in English'] })
    : l10n.t('{0} is invalid', where);
}

/** The innermost node covering `offset` (includes the end, as cursors sit after words). */
export function nodeAtOffset(root: Node | undefined, offset: number): Node | undefined {
  if (!root || offset < root.offset || offset > root.offset + root.length) return undefined;
  for (const child of root.children ?? []) {
    const found = nodeAtOffset(child, offset);
    if (found) return found;
  }
  return root;
}
