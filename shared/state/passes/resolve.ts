/**
 * Turns path-anchored findings into diagnostics: every anchor (and its ancestors) is located with
 * one locator pass, then converted with the line index.
 */
import { placeFinding, type Diagnostic, type Span } from '../../diagnostics';
import type { LineIndex } from '../../text/lineIndex';
import { pathKey, type JsonPath, type LocatedNode, type NodeLocator } from '../model/locate';
import { defaultSeverity, type StateSchemaMode } from '../codes';
import type { Anchor, StateFinding } from './findings';

/**
 * Resolves every anchor and converts spans to ranges. One locator pass finds the anchored nodes,
 * stopping as soon as it has them all; only when some are missing (a required property, say) does a
 * second pass find their nearest existing ancestors.
 */
export function resolve(pending: StateFinding[], locator: NodeLocator, lines: LineIndex, text: string, mode: StateSchemaMode): Diagnostic[] {
  const anchors = new Map<string, JsonPath>();
  // A span anchor (a syntax error) is in the text already: no path of it to find.
  const want = (anchor: Anchor) => anchor.span || anchors.set(pathKey(anchor.path), anchor.path);
  for (const diagnostic of pending) {
    want(diagnostic.at);
    diagnostic.related?.forEach((r) => want(r.at));
  }
  const located = anchors.size ? locator.locateAll(anchors.values(), { stopWhenFound: true }) : new Map<string, LocatedNode>();
  const ancestors = new Map<string, JsonPath>();
  for (const [key, path] of anchors) {
    if (located.has(key)) continue;
    for (let length = path.length - 1; length >= 0; length--) ancestors.set(pathKey(path.slice(0, length)), path.slice(0, length));
  }
  if (ancestors.size) for (const [key, node] of locator.locateAll(ancestors.values())) if (!located.has(key)) located.set(key, node);
  const spanOf = (anchor: Anchor): Span => {
    if (anchor.span) return anchor.span;
    const node = located.get(pathKey(anchor.path));
    if (!node) {
      for (let length = anchor.path.length - 1; length >= 0; length--) {
        const ancestor = located.get(pathKey(anchor.path.slice(0, length)));
        if (ancestor) return headOrName(ancestor);
      }
      return { offset: 0, length: Math.min(1, text.length) };
    }
    switch (anchor.part) {
      case 'value':
        return node.kind === 'object' || node.kind === 'array' ? { offset: node.value.offset, length: 1 } : node.value;
      case 'key':
        return node.key ?? headOrName(node);
      case 'name':
        return headOrName(node);
      case 'head':
        return { offset: node.value.offset, length: Math.min(1, node.value.length) };
    }
  };
  const rangeOf = (anchor: Anchor) => lines.rangeOf(spanOf(anchor));
  // The quick fixes of state codes read the code from the payload too.
  return pending.map((finding) => placeFinding(finding.data ? { ...finding, data: { ...finding.data, code: finding.code } } : finding, defaultSeverity(finding.code, mode), rangeOf));
}

function headOrName(node: LocatedNode): Span {
  if (node.key) return node.key;
  return node.kind === 'object' || node.kind === 'array' ? { offset: node.value.offset, length: Math.min(1, node.value.length) } : node.value;
}
