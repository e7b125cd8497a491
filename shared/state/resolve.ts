/**
 * Turns path-anchored diagnostics into ranges: every anchor (and its ancestors) is located with
 * one locator pass, then converted with the line index.
 */
import type { Diagnostic, RelatedInformation, Span } from '../diagnostics';
import type { LineIndex } from '../text/lineIndex';
import { pathKey, type JsonPath, type LocatedNode, type NodeLocator } from './locate';
import { defaultSeverity, type StateSchemaMode } from './codes';
import type { Anchor, PendingDiagnostic } from './pending';

/** Resolves every anchor with one locator pass and converts spans to ranges. */
export function resolve(pending: PendingDiagnostic[], locator: NodeLocator, lines: LineIndex, text: string, mode: StateSchemaMode): Diagnostic[] {
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
  return pending.map((p) => {
    const diagnostic: Diagnostic = { code: p.code, severity: defaultSeverity(p.code, mode), message: p.message, range: lines.rangeOf(spanOf(p.at)) };
    if (p.related?.length) {
      diagnostic.relatedInformation = p.related.map((r): RelatedInformation => ({ range: lines.rangeOf(spanOf(r.at)), message: r.message }));
    }
    if (p.tags) diagnostic.tags = p.tags;
    if (p.data) diagnostic.data = { ...p.data, code: p.code };
    return diagnostic;
  });
}

function headOrName(node: LocatedNode): Span {
  if (node.key) return node.key;
  return node.kind === 'object' || node.kind === 'array' ? { offset: node.value.offset, length: Math.min(1, node.value.length) } : node.value;
}
