/** Shared diagnostic model → LSP shapes. */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../shared/diagnostics';

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
    ...(diagnostic.tags?.length
      ? { tags: diagnostic.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated)) }
      : {}),
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
