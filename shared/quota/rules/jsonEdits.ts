/**
 * Minimal edits to one of a quota file's top-level arrays, for the "Create rule/group" and
 * "Remove unused rule" fixes. They touch only the item concerned and the comma beside it: a new
 * item is written like the item before it (on one line when that one is), and a removed item
 * takes its own line with it, comment included. Neighbours keep their bytes and their comments.
 * Only where the array is empty or missing does jsonc-parser write it, formatted like the file.
 */
import { modify, type Edit, type JSONPath, type Node } from 'jsonc-parser';
import type { TextEdit } from '../../edits';
import { detectFormatting, indentUnit, lineIndent } from '../../json/indentation';
import { propertyValueNode } from '../../json/jsoncTree';
import type { QuotaAnalysis } from '../analysis';

/** jsonc-parser's edits as the project's edit shape. */
function toTextEdits(edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
}

/** Appends `value` to the array at `key` (creating the array when missing). */
export function appendTo(analysis: QuotaAnalysis, key: string, value: unknown): TextEdit[] {
  const array = analysis.root ? propertyValueNode(analysis.root, key) : undefined;
  const items = array?.type === 'array' ? (array.children ?? []) : undefined;
  if (items && items.length > 0) return appendAfter(analysis.text, items[items.length - 1], value);
  const path: JSONPath = items ? [key, 0] : [key];
  const edits = modify(analysis.text, path, items ? value : [value], { formattingOptions: detectFormatting(analysis.text), isArrayInsertion: items !== undefined });
  return toTextEdits(edits);
}

/** Removes item `position` of the array at `key`. */
export function removeFrom(analysis: QuotaAnalysis, key: string, position: number): TextEdit[] {
  const array = analysis.root ? propertyValueNode(analysis.root, key) : undefined;
  const items = array?.type === 'array' ? (array.children ?? []) : [];
  const item = items[position];
  if (!item) return [];
  const { text } = analysis;
  const line = ownLine(text, item);
  const next = items[position + 1];
  const previous = items[position - 1];
  if (next) return [line ? cut(line.start, line.end) : cut(item.offset, next.offset)];
  if (!previous) {
    if (line) return [cut(line.start, line.end)];
    const trailingComma = commaAfter(text, end(item));
    return [cut(item.offset, trailingComma === undefined ? end(item) : trailingComma + 1)];
  }
  // The last of several: its comma is the one after the previous item.
  const comma = commaAfter(text, end(previous));
  if (line && comma !== undefined) return [cut(comma, comma + 1), cut(line.start, line.end)];
  return [cut(end(previous), end(item))];
}

function appendAfter(text: string, last: Node, value: unknown): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lastText = text.slice(last.offset, end(last));
  const line = ownLine(text, last);
  // Quota files may end an array with a comma (JSONC): then the new item ends with one too.
  const trailingComma = commaAfter(text, end(last));
  if (!line) {
    // Beside the item (`[{…}]`): a multi-line one is continued at the indentation of its closing line.
    const indent = lastText.includes('\n') ? lineIndent(text, end(last) - 1) : '';
    const rendered = renderLike(lastText, value, indent, eol, text);
    if (trailingComma !== undefined) return [{ offset: trailingComma + 1, length: 0, newText: ` ${rendered},` }];
    return [{ offset: end(last), length: 0, newText: `, ${rendered}` }];
  }
  const indent = lineIndent(text, last.offset);
  const rendered = `${eol}${indent}${renderLike(lastText, value, indent, eol, text)}`;
  // The comma goes right after the item; the new item after its line, so a trailing comment stays where it was.
  const lineEnd = line.end - (text.endsWith('\r\n', line.end) ? 2 : text.endsWith('\n', line.end) ? 1 : 0);
  if (trailingComma !== undefined) return [{ offset: lineEnd, length: 0, newText: `${rendered},` }];
  return [
    { offset: end(last), length: 0, newText: ',' },
    { offset: lineEnd, length: 0, newText: rendered },
  ];
}

/** `value` written the way `neighbour` is: on one line when it is (spaced as it is), else indented like the file. */
function renderLike(neighbour: string, value: unknown, indent: string, eol: string, text: string): string {
  if (!neighbour.includes('\n')) return /^[{[]\s/.test(neighbour) ? spacedOneLine(value) : JSON.stringify(value);
  return JSON.stringify(value, null, indentUnit(text, 2)).replace(/\n/g, `${eol}${indent}`);
}

/** `{ "name": "x", "rules": [] }`: the spacing people write one-line items with. */
function spacedOneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedOneLine).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}: ${spacedOneLine(member)}`);
    return members.length ? `{ ${members.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

const end = (node: Node): number => node.offset + node.length;
const cut = (from: number, to: number): TextEdit => ({ offset: from, length: to - from, newText: '' });

/**
 * The whole lines `node` is alone on, line break included: from the start of its first line to
 * after the line break that follows it, its comma and a line comment. Undefined when anything
 * else shares those lines.
 */
function ownLine(text: string, node: Node): { start: number; end: number } | undefined {
  let start = node.offset;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  if (start > 0 && text[start - 1] !== '\n') return undefined;
  let after = skipSpaces(text, end(node));
  if (text[after] === ',') after = skipSpaces(text, after + 1);
  if (text.startsWith('//', after)) {
    const lineBreak = text.indexOf('\n', after);
    after = lineBreak === -1 ? text.length : lineBreak;
  }
  if (text.startsWith('\r\n', after)) return { start, end: after + 2 };
  if (text[after] === '\n') return { start, end: after + 1 };
  return undefined;
}

function skipSpaces(text: string, offset: number): number {
  while (text[offset] === ' ' || text[offset] === '\t') offset++;
  return offset;
}

/** The offset of the comma that follows `offset` across whitespace, if that is what follows. */
function commaAfter(text: string, offset: number): number | undefined {
  let at = offset;
  while (at < text.length && /\s/.test(text[at])) at++;
  return text[at] === ',' ? at : undefined;
}
