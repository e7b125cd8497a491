/**
 * Turns path-anchored findings into diagnostics: every anchor (and its ancestors) is located with
 * one locator pass, then converted with the line index.
 */
import { placeFinding, type Diagnostic, type Span } from '../../diagnostics';
import type { LineIndex } from '../../text/lineIndex';
import { pathKey, type JsonPath, type LocatedNode, type NodeLocator } from '../model/locate';
import { defaultSeverity, type StateSchemaMode } from '../codes';
import type { Anchor, StateFinding } from './findings';

/** Resolves every anchor with one locator pass and converts spans to ranges. */
export function resolve(pending: StateFinding[], locator: NodeLocator, lines: LineIndex, text: string, mode: StateSchemaMode): Diagnostic[] {
  const paths = new Map<string, JsonPath>();
  const want = (anchor: Anchor) => {
    // Ancestors too: a missing node (e.g. a required property) is shown on its nearest existing
    // ancestor, and ancestors lie on the scan's way anyway.
    for (let length = anchor.path.length; length >= 0; length--) {
      const key = pathKey(anchor.path.slice(0, length));
      if (paths.has(key)) break;
      paths.set(key, anchor.path.slice(0, length));
    }
  };
  for (const diagnostic of pending) {
    want(diagnostic.at);
    diagnostic.related?.forEach((r) => want(r.at));
  }
  const located = paths.size ? locator.locateAll(paths.values()) : new Map<string, LocatedNode>();
  const spanOf = (anchor: Anchor): Span => {
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
