/** Shared diagnostics, edits and fixes → LSP shapes; the only place offsets become ranges for LSP. */
import { CodeActionKind, DiagnosticSeverity, DiagnosticTag, type CodeAction, type Diagnostic as LspDiagnostic, type TextEdit as LspTextEdit } from 'vscode-languageserver';
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
