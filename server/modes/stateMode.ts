/**
 * Language mode for resource-state files: adapts the editor-independent analysis in
 * shared/state to LSP (diagnostics, quick fixes, urn navigation, rename, symbols, hover,
 * completion, code lens). Validation runs in the analysis worker, off this thread (issue 7);
 * the editor features read a snapshot (parsed text, no validation) kept per uri+version and
 * derived from the previous version record by record, made on this thread while the worker
 * validates. The navigation index is built on the first request that needs it and kept with
 * that version.
 */
import { getLocation } from 'jsonc-parser';
import { limitNesting } from '../../shared/json/nesting';
import {
  CodeActionKind,
  CompletionItemKind,
  SymbolKind,
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type DocumentSymbol,
  type Hover,
  type Location,
  type Position,
  type Range,
  type SymbolInformation,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Span } from '../../shared/diagnostics';
import { fieldWriter } from '../../shared/state/fields';
import { SHOW_DEPENDENTS_COMMAND, type ServerSettings, type ShowDependentsArguments } from '../../shared/protocol';
import type { StateSchemaMode } from '../../shared/state/codes';
import type { StateShape } from '../../shared/state/model';
import { editRecord, parseState, type StateSnapshot } from '../../shared/state/snapshot';
import type { StateAnalyzer } from '../state/stateAnalyzer';
import { fixesFor, type TextEdit } from '../../shared/state/fixes';
import { isObject } from '../../shared/state/model';
import { NavigationIndex } from '../../shared/state/navigation';
import { isProviderType, parseUrn, UNKNOWN_ID } from '../../shared/state/urn';
import { DIAGNOSTIC_SOURCE } from '../convert';
import type { LanguageMode, ModeContext } from './languageMode';
import { DocumentCache } from './documentCache';

interface Cached {
  analysis: StateSnapshot;
  navigation?: NavigationIndex;
}

const REFERENCE_FIELDS = new Set(['parent', 'dependencies', 'propertyDependencies', 'deletedWith', 'replaceWith', 'aliases']);

export interface StateMode extends LanguageMode {
  /** Where the records depending on `urn` refer to it, in file order (what the dependents lens counts). */
  dependents(document: TextDocument, urn: string): Location[];
}

/** `settings`: the server's current `quotaState` settings (the schema mode is read on every validation). */
export function createStateMode(context: ModeContext & { readonly settings?: ServerSettings }, analyzer: StateAnalyzer): StateMode {
  const cache = new DocumentCache<Cached>((document, previous): Cached => {
    const text = document.getText();
    if (previous && text === previous.analysis.text) return previous;
    // An edit inside one record: carry the rest of the snapshot and of the navigation index over.
    const edit = previous && editRecord(previous.analysis, text);
    if (edit) return { analysis: edit.snapshot, navigation: previous.navigation?.derive(edit.snapshot, edit.index) };
    return { analysis: parseState(text) };
  });
  /** What the last validation found, for the language status. */
  const validated = new Map<string, { shape: StateShape; parsedWith: 'json' | 'tolerant'; mode: StateSchemaMode; diagnostics: Diagnostic[] }>();
  const cached = (document: TextDocument): Cached => cache.get(document);
  const navigationOf = (document: TextDocument): { analysis: StateSnapshot; navigation: NavigationIndex } => {
    const entry = cached(document);
    entry.navigation ??= new NavigationIndex(entry.analysis);
    return { analysis: entry.analysis, navigation: entry.navigation };
  };
  const rangeOf = (analysis: StateSnapshot, span: Span): Range => analysis.lines.rangeOf(span);
  const toLspEdits = (analysis: StateSnapshot, edits: TextEdit[]): LspTextEdit[] =>
    edits.map((e) => ({ range: rangeOf(analysis, { offset: e.offset, length: e.length }), newText: e.newText }));

  const resourceName = (urn: string) => parseUrn(urn)?.name ?? urn;

  return {
    kind: 'state',

    async validate(document) {
      const analysis = analyzer.analyzeDocument(document, context.stateSchemaFor(document.uri));
      // While the worker validates, ready what the editor features read: the outline and the
      // dependents code lenses ask for all of it right after open and after each change anyway,
      // and the first hover then finds it made. After an edit inside one record it is derived
      // from the previous version, so this costs the whole file only after open.
      try {
        navigationOf(document).navigation.prepare();
      } catch (error) {
        context.logError(`Could not prepare ${document.uri} for navigation: ${error instanceof Error ? error.message : String(error)}`);
      }
      const { diagnostics, shape, parsedWith, mode } = await analysis;
      validated.set(document.uri, { shape, parsedWith, mode, diagnostics });
      return diagnostics;
    },

    status(document) {
      const last = validated.get(document.uri);
      if (!last) return {};
      const unavailable = last.parsedWith === 'tolerant' ? [{ feature: 'reorder', reason: 'The file has JSON syntax errors; fix them to reorder resources.' }] : [];
      return { shape: last.shape, schema: last.mode, unavailable };
    },

    hover(document, position) {
      const summary = fieldSummaryHover(validated.get(document.uri)?.diagnostics, position);
      if (summary) return summary;
      const { analysis, navigation } = navigationOf(document);
      const occurrence = navigation.occurrenceAt(analysis.lines.offsetAt(position));
      if (!occurrence) return null;
      const lines: string[] = [];
      const definition = navigation.definingRecords(occurrence.urn)[0];
      const resource = definition !== undefined ? analysis.document.resources[definition] : undefined;
      const record = resource && isObject(resource.value) ? resource.value : undefined;
      lines.push(`**${resourceName(occurrence.urn)}**`, '', `\`${occurrence.urn}\``, '');
      if (!record) {
        lines.push(occurrence.kind === 'alias' ? 'Alias: a previous urn; it need not exist in this file.' : 'Not defined in this file.');
      } else {
        if (typeof record.type === 'string') lines.push(`- type: \`${record.type}\``);
        if (typeof record.id === 'string' && record.id !== '') lines.push(`- id: \`${record.id}\``);
        lines.push(`- custom: ${record.custom === true}`);
        if (record.protect === true) lines.push('- protect: true');
        if (record.delete === true) lines.push('- delete: true (pending deletion)');
        const chain: string[] = [];
        const visited = new Set([occurrence.urn]);
        let parent = typeof record.parent === 'string' ? record.parent : undefined;
        while (parent && !visited.has(parent) && chain.length < 20) {
          visited.add(parent);
          chain.push(resourceName(parent));
          const next = navigation.definingRecords(parent)[0];
          const value = next !== undefined ? analysis.document.resources[next].value : undefined;
          parent = isObject(value) && typeof value.parent === 'string' ? value.parent : undefined;
        }
        if (chain.length) lines.push(`- parent chain: ${chain.join(' → ')}`);
        lines.push(`- dependents: ${navigation.dependentCount(occurrence.urn)}`);
      }
      return { contents: { kind: 'markdown', value: lines.join('\n') }, range: rangeOf(analysis, occurrence.span) };
    },

    definition(document, position) {
      const { analysis, navigation } = navigationOf(document);
      const occurrence = navigation.occurrenceAt(analysis.lines.offsetAt(position));
      if (!occurrence) return null;
      const definitions = navigation.definitions(occurrence.urn);
      return definitions.map((d): Location => ({ uri: document.uri, range: rangeOf(analysis, d.span) }));
    },

    dependents(document, urn) {
      const { analysis, navigation } = navigationOf(document);
      return navigation
        .references(urn)
        .filter((o) => o.kind !== 'alias')
        .map((o): Location => ({ uri: document.uri, range: rangeOf(analysis, o.span) }));
    },

    references(document, position, includeDeclaration) {
      const { analysis, navigation } = navigationOf(document);
      const occurrence = navigation.occurrenceAt(analysis.lines.offsetAt(position));
      if (!occurrence) return null;
      const found = [...(includeDeclaration ? navigation.definitions(occurrence.urn) : []), ...navigation.references(occurrence.urn)];
      found.sort((a, b) => a.span.offset - b.span.offset);
      return found.map((o): Location => ({ uri: document.uri, range: rangeOf(analysis, o.span) }));
    },

    prepareRename(document, position) {
      const { analysis, navigation } = navigationOf(document);
      const occurrence = navigation.occurrenceAt(analysis.lines.offsetAt(position));
      if (!occurrence) return null;
      return { range: rangeOf(analysis, occurrence.span), placeholder: occurrence.urn };
    },

    rename(document, position, newName) {
      const { analysis, navigation } = navigationOf(document);
      const occurrence = navigation.occurrenceAt(analysis.lines.offsetAt(position));
      if (!occurrence) return null;
      const escaped = JSON.stringify(newName).slice(1, -1);
      const all = [...navigation.definitions(occurrence.urn), ...navigation.references(occurrence.urn)];
      const edits = all.map((o): LspTextEdit => {
        // A literal with escapes is rewritten whole (keeping a provider reference's id).
        const exact = o.span.length === occurrence.urn.length;
        if (exact) return { range: rangeOf(analysis, o.span), newText: escaped };
        return { range: rangeOf(analysis, o.literal), newText: JSON.stringify(o.kind === 'provider' ? `${newName}${providerIdSuffix(analysis, o.resource)}` : newName) };
      });
      return { changes: { [document.uri]: edits } };
    },

    completion(document, position) {
      const { analysis, navigation } = navigationOf(document);
      const offset = analysis.lines.offsetAt(position);
      const index = navigation.recordAt(offset);
      const span = index !== undefined ? navigation.recordSpan(index) : { offset: 0, length: analysis.text.length };
      if (!span) return null;
      const slice = analysis.text.slice(span.offset, span.offset + span.length);
      // jsonc-parser's getLocation recurses per level: read the slice with deep containers blanked.
      const location = getLocation(limitNesting(slice).text, offset - span.offset);
      if (location.isAtPropertyKey) return null;
      const field = location.path[0];
      const typing = location.previousNode?.type === 'string' ? location.previousNode : undefined;
      const replace: Range | undefined = typing
        ? rangeOf(analysis, { offset: span.offset + typing.offset, length: typing.length })
        : undefined;
      const item = (label: string, value: string, detail: string | undefined): CompletionItem => ({
        label,
        kind: CompletionItemKind.Reference,
        detail,
        filterText: JSON.stringify(value),
        ...(replace ? { textEdit: { range: replace, newText: JSON.stringify(value) } } : { insertText: JSON.stringify(value) }),
      });
      const resources = analysis.document.resources;
      const own = index !== undefined ? resources[index]?.urn : undefined;
      if (field === 'provider') {
        return resources
          .filter((r) => r.urn && r.type && isProviderType(r.type))
          .map((r) => {
            const id = isObject(r.value) && typeof r.value.id === 'string' && r.value.id !== '' ? r.value.id : UNKNOWN_ID;
            return item(`${r.urn}::${id}`, `${r.urn}::${id}`, r.type);
          });
      }
      if (typeof field !== 'string' || !REFERENCE_FIELDS.has(field)) return null;
      if (field === 'propertyDependencies' && location.path.length < 2) return null;
      const items: CompletionItem[] = [];
      for (const [urn, definitions] of navigation.definedUrns()) {
        if (urn === own) continue;
        items.push(item(urn, urn, resources[definitions[0]]?.type));
      }
      return { isIncomplete: false, items };
    },

    codeActions(document, _range, context) {
      const { analysis } = cached(document);
      const actions: CodeAction[] = [];
      const seenTitles = new Set<string>();
      for (const diagnostic of context.diagnostics) {
        if (diagnostic.source !== DIAGNOSTIC_SOURCE || !isObject(diagnostic.data)) continue;
        for (const fix of fixesFor(analysis, diagnostic.data)) {
          const shared = fix.title === 'Reorder resources into dependency order';
          if (shared && seenTitles.has(fix.title)) continue;
          seenTitles.add(fix.title);
          actions.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            isPreferred: fix.preferred,
            edit: { changes: { [document.uri]: toLspEdits(analysis, fix.edits) } },
          });
        }
      }
      return actions;
    },

    codeLenses(document) {
      const { analysis, navigation } = navigationOf(document);
      const lenses: CodeLens[] = [];
      const located = navigation.allDefinitions();
      for (const [urn, definitions] of navigation.definedUrns()) {
        const definition = located.get(definitions[0]);
        if (!definition) continue;
        const count = navigation.dependentCount(urn);
        const range = rangeOf(analysis, definition.span);
        const show: ShowDependentsArguments = { uri: document.uri, urn, position: range.start };
        lenses.push({ range, command: { title: count === 1 ? '1 dependent' : `${count} dependents`, command: SHOW_DEPENDENTS_COMMAND, arguments: [show] } });
      }
      return lenses;
    },

    documentSymbols(document) {
      const { analysis, navigation } = navigationOf(document);
      return parentTree(analysis, navigation);
    },

    workspaceSymbols(query, documents) {
      const needle = query.toLowerCase();
      const results: SymbolInformation[] = [];
      for (const document of documents) {
        const { analysis, navigation } = navigationOf(document);
        const located = navigation.allDefinitions();
        for (const [urn, definitions] of navigation.definedUrns()) {
          if (needle && !urn.toLowerCase().includes(needle)) continue;
          const definition = located.get(definitions[0]);
          if (!definition) continue;
          const resource = analysis.document.resources[definitions[0]];
          results.push({
            name: resourceName(urn),
            kind: resource.type && isProviderType(resource.type) ? SymbolKind.Interface : SymbolKind.Object,
            containerName: resource.type,
            location: { uri: document.uri, range: rangeOf(analysis, definition.span) },
          });
          if (results.length >= 1000) return results;
        }
      }
      return results;
    },

    forget(uri) {
      cache.forget(uri);
      validated.delete(uri);
      analyzer.forget(uri);
    },
  };

  function providerIdSuffix(analysis: StateSnapshot, resource: number): string {
    const value = analysis.document.resources[resource]?.value;
    const reference = isObject(value) && typeof value.provider === 'string' ? value.provider : '';
    const separator = reference.lastIndexOf('::');
    return separator === -1 ? '' : reference.slice(separator);
  }

  void context;
}

/** Document symbols as the parent tree (iterative, so deep or cyclic parent chains are safe). */
function parentTree(analysis: StateSnapshot, navigation: NavigationIndex): DocumentSymbol[] {
  const resources = analysis.document.resources;
  const symbols = new Map<number, DocumentSymbol>();
  const parentOf = new Map<number, number>();
  const definitions = navigation.allDefinitions();
  for (const resource of resources) {
    const span = navigation.recordSpan(resource.index);
    const urnSpan = definitions.get(resource.index)?.span;
    if (!span || !resource.urn) continue;
    const record = resource.value as Record<string, unknown>;
    symbols.set(resource.index, {
      name: parseUrn(resource.urn)?.name ?? resource.urn,
      detail: resource.type,
      kind: resource.type && isProviderType(resource.type) ? SymbolKind.Interface : record.custom === true ? SymbolKind.Object : SymbolKind.Module,
      range: analysis.lines.rangeOf(span),
      selectionRange: analysis.lines.rangeOf(urnSpan ?? { offset: span.offset, length: 1 }),
      children: [],
    });
    if (typeof record.parent === 'string') {
      const parent = navigation.definingRecords(record.parent)[0];
      if (parent !== undefined && parent !== resource.index) parentOf.set(resource.index, parent);
    }
  }
  // Attach each symbol under its parent unless that would close a cycle.
  const roots: DocumentSymbol[] = [];
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

const SUMMARY_TITLES: Record<string, string> = {
  'newer-engine-property': "Fields Pulumi declares that the seed's v3 record schema lacks (Pulumi reads them)",
  'legacy-property': 'Fields older Pulumi engines wrote and Pulumi now ignores',
};

/** The hover of a `newer-engine-property` / `legacy-property` summary: every field, its count and what writes it. */
function fieldSummaryHover(diagnostics: Diagnostic[] | undefined, position: Position): Hover | null {
  const diagnostic = diagnostics?.find((d) => SUMMARY_TITLES[d.code] && contains(d.range, position));
  const fields = (diagnostic?.data as { fields?: unknown } | undefined)?.fields;
  if (!diagnostic || !isObject(fields)) return null;
  const rows = Object.entries(fields).map(([field, count]) => `| \`${field}\` | ${String(count)} | ${fieldWriter(field) ?? ''} |`);
  const value = [`**${SUMMARY_TITLES[diagnostic.code]}**`, '', '| field | count | written by |', '| --- | ---: | --- |', ...rows].join('\n');
  return { contents: { kind: 'markdown', value }, range: diagnostic.range };
}

function contains(range: Range, position: Position): boolean {
  const after = position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character);
  const before = position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}
