/**
 * One entry for "diagnostics of a file" for `quota-state check`: it runs the same per-kind analyses
 * the language server's modes run, so both publish exactly the same codes, messages and ranges.
 */
import { applySeverityOverrides, type Diagnostic, type SeverityOverrides } from './diagnostics';
import { detectKind, type DocumentKind, type FilePatterns } from './documentKind';
import { FILE_KINDS } from './fileKinds';
import type { GroupSource } from './ini';
import type { StateSchemaMode } from './state';

export interface FileDiagnostics {
  kind: DocumentKind | undefined;
  diagnostics: Diagnostic[];
}

export interface AnalyzeOptions {
  patterns?: FilePatterns;
  severity?: SeverityOverrides;
  /** Force a kind (the server already knows it); otherwise detected from the name and content. */
  kind?: DocumentKind;
  /** For app.ini files: where group names are known to exist (none: names are not checked). */
  groups?: GroupSource[];
  /** Schema mode of state files (`quotaState.state.schema`, the CLI's `--schema`); default `pulumi`. */
  stateSchema?: StateSchemaMode;
}

function diagnosticsForKind(kind: DocumentKind, text: string, options: Pick<AnalyzeOptions, 'groups' | 'stateSchema'> = {}): Diagnostic[] {
  return FILE_KINDS[kind].analyze(text, options);
}

export function analyzeFile(path: string, text: string, options: AnalyzeOptions = {}): FileDiagnostics {
  const kind = options.kind ?? detectKind(path, text, options.patterns);
  if (!kind) return { kind, diagnostics: [] };
  return { kind, diagnostics: applySeverityOverrides(diagnosticsForKind(kind, text, options), options.severity) };
}
