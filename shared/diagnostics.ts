/**
 * The editor-independent diagnostic model shared by the language server and the CLI.
 * Shapes mirror LSP (0-based line/character) so the server can forward them unchanged,
 * but severities are words so the CLI's JSON output reads naturally.
 */

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface RelatedInformation {
  /** Absent means "the same document". */
  uri?: string;
  range: Range;
  message: string;
}

export type DiagnosticTag = 'unnecessary' | 'deprecated';

export interface Diagnostic {
  /** Stable code from the file kind's registry (shared/<kind>/codes.ts). */
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  relatedInformation?: RelatedInformation[];
  tags?: DiagnosticTag[];
  /** Payload that quick fixes read; JSON-serialisable. */
  data?: unknown;
}

/** Offset-based span inside one text, converted to a Range once, at the end. */
export interface Span {
  offset: number;
  length: number;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Sort by position, then severity, then code, so output is deterministic. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0) ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character
  );
}

/**
 * Per-code severity overrides (the `quotaState.diagnostics.severity` setting).
 * `off` drops the diagnostic entirely.
 */
export type SeverityOverrides = Record<string, Severity | 'off'>;

export function applySeverityOverrides(diagnostics: Diagnostic[], overrides: SeverityOverrides | undefined): Diagnostic[] {
  if (!overrides || Object.keys(overrides).length === 0) return diagnostics;
  const result: Diagnostic[] = [];
  for (const d of diagnostics) {
    const override = overrides[d.code];
    if (override === 'off') continue;
    result.push(override ? { ...d, severity: override } : d);
  }
  return result;
}
