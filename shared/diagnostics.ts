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

interface RelatedInformation {
  /** Absent means "the same document". */
  uri?: string;
  range: Range;
  message: string;
}

type DiagnosticTag = 'unnecessary' | 'deprecated';

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

/**
 * What a rule reports before it is placed in the text: a code, a message, where (`at`: a span of
 * the text, or for state files a JSON anchor the analysis resolves to text in one locator pass),
 * related places, tags and the quick fixes' payload. Severity is not the rule's to choose: it is
 * the code's default in its kind's registry, after the user's overrides.
 */
export interface Finding<At = Span, Code extends string = string> {
  code: Code;
  message: string;
  at: At;
  related?: Array<{ at: At; message: string }>;
  tags?: DiagnosticTag[];
  data?: Record<string, unknown>;
}

/** Places a finding in the text: its locations become ranges, and the severity is the registry's. */
export function placeFinding<At>(finding: Finding<At>, severity: Severity, rangeOf: (at: At) => Range): Diagnostic {
  const diagnostic: Diagnostic = { code: finding.code, severity, message: finding.message, range: rangeOf(finding.at) };
  if (finding.related?.length) diagnostic.relatedInformation = finding.related.map((related) => ({ range: rangeOf(related.at), message: related.message }));
  if (finding.tags) diagnostic.tags = finding.tags;
  if (finding.data) diagnostic.data = finding.data;
  return diagnostic;
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
