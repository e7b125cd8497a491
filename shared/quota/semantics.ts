/**
 * The semantic pass of a quota config / instance file: the reader (./reader.ts) turns the syntax
 * tree into the model, the usage and the name index, then every check the registry names judges
 * that reading. Works on whatever parsed, so a half-typed file still gets every check it can.
 */
import type { Node } from 'jsonc-parser';
import { placeFinding, type Diagnostic, type Range, type Span } from '../diagnostics';
import { QUOTA_CODES } from './codes';
import { quotaChecks } from './rules';
import type { QuotaFinding } from './checks/finding';
import { readQuotaDocument, type SemanticResult } from './reader';

export type { SemanticResult } from './reader';

export function runSemanticChecks(root: Node, at: (span: Span) => Range, text?: string): { diagnostics: Diagnostic[]; result: SemanticResult } {
  const reading = readQuotaDocument(root, text);
  const toDiagnostic = (finding: QuotaFinding): Diagnostic => placeFinding(finding, QUOTA_CODES[finding.code].severity, at);
  return {
    diagnostics: quotaChecks()
      .flatMap((check) => check(reading))
      .map(toDiagnostic),
    result: reading.result,
  };
}
