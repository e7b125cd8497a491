/**
 * Text machinery of state surgery: the members of one object located in the text, values rendered
 * in the file's own style (minified, or indented like the surrounding text). Records an operation does not change are never re-rendered: their bytes stay as they are.
 */
import type { Span } from '../../diagnostics';
import type { TextEdit } from '../../edits';
import { indentUnit, lineIndent } from '../../json/indentation';
import { pathKey, ScanLocator, type LocatedNode } from '../model/locate';
import { removalEdit } from '../passes/fixes';

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

/** How new values are written: minified (Pulumi ≥ 3.238) or indented with `unit` per level. */
export interface TextStyle {
  minified: boolean;
  unit: string;
  eol: string;
}

export function detectStyle(text: string): TextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const firstNewline = text.indexOf('\n');
  // A file whose content sits on one line (a trailing newline aside) is minified.
  if (firstNewline === -1 || firstNewline >= text.trimEnd().length) return { minified: true, unit: '', eol };
  return { minified: false, unit: indentUnit(text, 4), eol };
}

/** `value` as JSON in `style`, its continuation lines indented by `indent`. */
export function renderValue(value: unknown, style: TextStyle, indent: string): string {
  if (style.minified) return JSON.stringify(value);
  const json = JSON.stringify(value, null, style.unit);
  return json.includes('\n') ? json.replace(/\n/g, `${style.eol}${indent}`) : json;
}

/** The members of the object whose text is `text.slice(span.offset, span.offset + span.length)`. */
function locateMembers(text: string, span: Span, keys: readonly string[]): Map<string, LocatedNode> {
  const objectText = text.slice(span.offset, span.offset + span.length);
  const found = new ScanLocator(objectText).locateAll(keys.map((k) => [k]));
  const out = new Map<string, LocatedNode>();
  const shift = (s: Span): Span => ({ offset: s.offset + span.offset, length: s.length });
  for (const key of keys) {
    const node = found.get(pathKey([key]));
    if (node) out.set(key, { key: node.key && shift(node.key), value: shift(node.value), kind: node.kind });
  }
  return out;
}

/**
 * The edits that turn the object at `span` (whose parsed value is `before`) into `after`, member by
 * member: changed members get their value replaced, removed members are cut, new members are
 * inserted after the member that precedes them in `order` (Pulumi's field order), else first.
 * Members whose value is unchanged keep their bytes.
 */
export function objectEdits(text: string, span: Span, before: Record<string, unknown>, after: Record<string, unknown>, style: TextStyle, order: readonly string[] = []): TextEdit[] {
  const changed: string[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  for (const key of Object.keys(before)) {
    if (!(key in after) || after[key] === undefined) removed.push(key);
    else if (after[key] !== before[key] && JSON.stringify(after[key]) !== JSON.stringify(before[key])) changed.push(key);
  }
  for (const key of Object.keys(after)) if (!(key in before) && after[key] !== undefined) added.push(key);
  if (!changed.length && !removed.length && !added.length) return [];
  const nodes = locateMembers(text, span, Object.keys(before));
  const edits: TextEdit[] = [];
  const memberIndent = (node: LocatedNode | undefined) => (node?.key ? lineIndent(text, node.key.offset) : '');
  for (const key of changed) {
    const node = nodes.get(key);
    if (!node) continue;
    edits.push({ offset: node.value.offset, length: node.value.length, newText: renderValue(after[key], style, memberIndent(node)) });
  }
  // Removing every member of the object: one edit, so that the removals never overlap.
  const keptKeys = Object.keys(before).filter((k) => !removed.includes(k));
  if (removed.length && keptKeys.length === 0 && added.length === 0) {
    return [{ offset: span.offset + 1, length: span.length - 2, newText: '' }];
  }
  const removedNodes = removed.map((k) => nodes.get(k)).filter((n): n is LocatedNode => n !== undefined);
  edits.push(...removalEdits(text, removedNodes));
  if (added.length) {
    // Anchor: the first member's layout tells how members are separated and indented.
    const existing = keptKeys.map((k) => nodes.get(k)).filter((n): n is LocatedNode => n !== undefined);
    const first = [...nodes.values()].sort((a, b) => a.key!.offset - b.key!.offset)[0];
    const indent = first ? memberIndent(first) : '';
    const colon = first ? text.slice(first.key!.offset + first.key!.length, first.value.offset) : style.minified ? ':' : ': ';
    const separator = style.minified || !first ? '' : `${style.eol}${indent}`;
    const member = (key: string) => `${JSON.stringify(key)}${colon}${renderValue(after[key], style, indent)}`;
    const rank = (key: string) => {
      const i = order.indexOf(key);
      return i === -1 ? order.length : i;
    };
    const inserts = new Map<number, string[]>();
    const atStart: string[] = [];
    for (const key of added) {
      // The kept member with the largest rank below this key's rank comes before it.
      let anchor: LocatedNode | undefined;
      let anchorRank = -1;
      for (const k of keptKeys) {
        const r = rank(k);
        const node = nodes.get(k);
        if (node && r <= rank(key) && r >= anchorRank) {
          if (r > anchorRank || (anchor && node.value.offset > anchor.value.offset)) anchor = node;
          anchorRank = r;
        }
      }
      if (anchor) {
        const at = anchor.value.offset + anchor.value.length;
        inserts.set(at, [...(inserts.get(at) ?? []), `,${separator}${member(key)}`]);
      } else atStart.push(member(key));
    }
    for (const [offset, texts] of inserts) edits.push({ offset, length: 0, newText: texts.join('') });
    if (atStart.length) {
      if (existing.length) {
        const firstKept = existing.sort((a, b) => a.key!.offset - b.key!.offset)[0];
        edits.push({ offset: firstKept.key!.offset, length: 0, newText: atStart.map((m) => `${m},${separator}`).join('') });
      } else {
        const inner = style.minified ? atStart.join(',') : `${style.eol}${indent || style.unit}${atStart.join(`,${style.eol}${indent || style.unit}`)}${style.eol}`;
        edits.push({ offset: span.offset + 1, length: span.length - 2, newText: inner });
      }
    }
  }
  return mergeAdjacent(edits);
}

/**
 * Removal edits for several members or elements of one container that never overlap: runs of
 * neighbours are cut as one span.
 */
export function removalEdits(text: string, nodes: LocatedNode[]): TextEdit[] {
  if (nodes.length === 0) return [];
  const sorted = [...nodes].sort((a, b) => start(a) - start(b));
  const edits: TextEdit[] = [];
  for (const node of sorted) {
    const edit = removalEdit(text, node);
    const last = edits[edits.length - 1];
    if (last && edit.offset < last.offset + last.length) {
      // Overlap: the previous edit removed a leading node and the comma after it. Extend it over
      // this node and, as for a leading node, the comma and whitespace after this one.
      let after = node.value.offset + node.value.length;
      while (isWhitespace(text[after])) after++;
      if (text[after] === ',') {
        after++;
        while (isWhitespace(text[after])) after++;
      } else after = node.value.offset + node.value.length;
      last.length = Math.max(last.offset + last.length, after) - last.offset;
    } else edits.push({ ...edit });
  }
  return edits;
}

function start(node: LocatedNode): number {
  return node.key ? node.key.offset : node.value.offset;
}

/** Edits inserting at the same offset as another edit's start are merged in order of creation. */
function mergeAdjacent(edits: TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset || a.length - b.length);
  const out: TextEdit[] = [];
  for (const edit of sorted) {
    const last = out[out.length - 1];
    if (last && edit.offset < last.offset + last.length) {
      // An insertion right at a removal's start keeps both; anything else overlapping is a bug.
      if (!(edit.offset === last.offset && (edit.length === 0 || last.length === 0))) throw new Error('overlapping member edits');
    }
    out.push(edit);
  }
  return out;
}
