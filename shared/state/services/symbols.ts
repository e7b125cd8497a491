/** The outline as the parent tree, and workspace symbols for every urn defined in a document. */
import type { OutlineSymbol, WorkspaceSymbolEntry } from '../../features';
import { isProviderType } from '../model/urn';
import { resourceName, type StateDocument } from './context';

/** Workspace symbol searches stop after this many results. */
export const WORKSPACE_SYMBOL_LIMIT = 1000;

/** Document symbols as the parent tree (iterative, so deep or cyclic parent chains are safe). */
export function stateDocumentSymbols({ snapshot, navigation }: StateDocument): OutlineSymbol[] {
  const resources = snapshot.structure.resources;
  const symbols = new Map<number, OutlineSymbol>();
  const parentOf = new Map<number, number>();
  const definitions = navigation.allDefinitions();
  for (const resource of resources) {
    const span = navigation.recordSpan(resource.index);
    const urnSpan = definitions.get(resource.index)?.span;
    if (!span || !resource.urn) continue;
    const record = resource.value as Record<string, unknown>;
    symbols.set(resource.index, {
      name: resourceName(resource.urn),
      detail: resource.type,
      kind: resource.type && isProviderType(resource.type) ? 'interface' : record.custom === true ? 'object' : 'module',
      range: snapshot.lines.rangeOf(span),
      selectionRange: snapshot.lines.rangeOf(urnSpan ?? { offset: span.offset, length: 1 }),
      children: [],
    });
    if (typeof record.parent === 'string') {
      const parent = navigation.definingRecords(record.parent)[0];
      if (parent !== undefined && parent !== resource.index) parentOf.set(resource.index, parent);
    }
  }
  // Attach each symbol under its parent unless that would close a cycle.
  const roots: OutlineSymbol[] = [];
  const attached = new Set<number>();
  const childrenOf = new Map<number, number[]>();
  for (const [child, parent] of parentOf) {
    if (!symbols.has(parent)) continue;
    const list = childrenOf.get(parent);
    if (list) list.push(child);
    else childrenOf.set(parent, [child]);
  }
  const attachFrom = (root: number) => {
    const stack = [root];
    attached.add(root);
    while (stack.length) {
      const current = stack.pop()!;
      for (const child of childrenOf.get(current) ?? []) {
        if (attached.has(child)) continue;
        attached.add(child);
        symbols.get(current)!.children!.push(symbols.get(child)!);
        stack.push(child);
      }
    }
  };
  for (const index of symbols.keys()) {
    const parent = parentOf.get(index);
    if (parent === undefined || !symbols.has(parent)) {
      roots.push(symbols.get(index)!);
      attachFrom(index);
    }
  }
  for (const index of symbols.keys()) {
    if (attached.has(index)) continue;
    roots.push(symbols.get(index)!);
    attachFrom(index);
  }
  for (const symbol of symbols.values()) symbol.children!.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return roots;
}

/** The urns of one document matching `query` (case-insensitive substring), appended to `results` up to the limit. */
export function stateWorkspaceSymbols({ snapshot, navigation }: StateDocument, uri: string, query: string, results: WorkspaceSymbolEntry[]): void {
  const needle = query.toLowerCase();
  const located = navigation.allDefinitions();
  for (const [urn, definitions] of navigation.definedUrns()) {
    if (results.length >= WORKSPACE_SYMBOL_LIMIT) return;
    if (needle && !urn.toLowerCase().includes(needle)) continue;
    const definition = located.get(definitions[0]);
    if (!definition) continue;
    const resource = snapshot.structure.resources[definitions[0]];
    results.push({
      name: resourceName(urn),
      kind: resource.type && isProviderType(resource.type) ? 'interface' : 'object',
      containerName: resource.type,
      location: { uri, range: snapshot.lines.rangeOf(definition.span) },
    });
  }
}
