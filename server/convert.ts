/** Shared diagnostics, edits, fixes and feature results → LSP shapes; the only place offsets become ranges and kinds become LSP's numbers. */
import type { CodeAction, CompletionItem, Diagnostic as LspDiagnostic, DocumentSymbol, InlayHint, SymbolInformation, TextEdit as LspTextEdit } from 'vscode-languageserver';
import { CodeActionKind, CompletionItemKind, DiagnosticSeverity, DiagnosticTag, InlayHintKind, SymbolKind } from './lsp';
import type { CompletionEntry, CompletionKind, InlayHintEntry, OutlineSymbol, SymbolKindName, WorkspaceSymbolEntry } from '../shared/features';
import type { Diagnostic, Severity } from '../shared/diagnostics';
import type { Fix, TextEdit } from '../shared/edits';
import type { LineIndex } from '../shared/text/lineIndex';

export const DIAGNOSTIC_SOURCE = 'quota-state';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(diagnostic: Diagnostic, uri: string): LspDiagnostic {
  return {
    range: diagnostic.range,
    severity: SEVERITY[diagnostic.severity],
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnostic.message,
    ...(diagnostic.tags?.length ? { tags: diagnostic.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated)) } : {}),
    ...(diagnostic.relatedInformation?.length
      ? {
          relatedInformation: diagnostic.relatedInformation.map((r) => ({
            location: { uri: r.uri ?? uri, range: r.range },
            message: r.message,
          })),
        }
      : {}),
    ...(diagnostic.data !== undefined ? { data: diagnostic.data } : {}),
  };
}

/** Offset-based edits of shared/ as LSP text edits of the text `lines` indexes. */
export function toLspEdits(lines: LineIndex, edits: readonly TextEdit[]): LspTextEdit[] {
  return edits.map((e) => ({ range: lines.rangeOf(e), newText: e.newText }));
}

/** A shared fix as the quick fix answering `diagnostic`. */
export function toCodeAction(lines: LineIndex, uri: string, { fix, diagnostic }: { fix: Fix; diagnostic: LspDiagnostic }): CodeAction {
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: fix.preferred,
    edit: { changes: { [uri]: toLspEdits(lines, fix.edits) } },
  };
}

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  reference: CompletionItemKind.Reference,
  module: CompletionItemKind.Module,
  constant: CompletionItemKind.Constant,
  'enum-member': CompletionItemKind.EnumMember,
};

const SYMBOL_KIND: Record<SymbolKindName, SymbolKind> = {
  namespace: SymbolKind.Namespace,
  class: SymbolKind.Class,
  constant: SymbolKind.Constant,
  object: SymbolKind.Object,
  interface: SymbolKind.Interface,
  module: SymbolKind.Module,
};

export function toLspCompletionItems(entries: readonly CompletionEntry[]): CompletionItem[] {
  return entries.map((entry) => ({ ...entry, kind: COMPLETION_KIND[entry.kind] }));
}

export function toLspDocumentSymbols(symbols: readonly OutlineSymbol[]): DocumentSymbol[] {
  return symbols.map(({ children, ...symbol }) => ({ ...symbol, kind: SYMBOL_KIND[symbol.kind], ...(children ? { children: toLspDocumentSymbols(children) } : {}) }));
}

export function toLspWorkspaceSymbols(symbols: readonly WorkspaceSymbolEntry[]): SymbolInformation[] {
  return symbols.map((symbol) => ({ ...symbol, kind: SYMBOL_KIND[symbol.kind] }));
}

export function toLspInlayHints(hints: readonly InlayHintEntry[]): InlayHint[] {
  return hints.map(({ kind, ...hint }) => ({ ...hint, ...(kind ? { kind: kind === 'parameter' ? InlayHintKind.Parameter : InlayHintKind.Type } : {}) }));
}
