/**
 * What a quota diagnostic rule module reads and reports: the parsed file in (its syntax tree, the parse
 * errors, and the reading of ../reader.ts when the file is an object), findings located by text offsets
 * out, and the quick fixes of one of its diagnostics. "Rule" here is a diagnostic code's module; the
 * quota rules a file defines are ../model.ts's `QuotaRule`.
 */
import type { Node, ParseError } from 'jsonc-parser';
import type { DiagnosticRule } from '../../diagnosticRule';
import type { Finding, Span } from '../../diagnostics';
import type { Fix, FixRequest } from '../../edits';
import type { QuotaAnalysis } from '../analysis';
import type { QuotaCode } from '../codes';
import type { QuotaReading } from '../reader';

/** A quota diagnostic rule's finding, located by offsets in the file's text. */
export type QuotaFinding = Finding<Span, QuotaCode>;

/** The parse of a quota file, once, for every rule module. */
export interface QuotaFile {
  /** Undefined when the text holds no JSON value at all. */
  root: Node | undefined;
  parseErrors: ParseError[];
  /** The opening bracket of each container nested too deeply to be read. */
  tooDeep: Span[];
  /** The reading of the file; undefined unless the root is an object. */
  reading: QuotaReading | undefined;
}

/** Reports one code about a parsed quota file. */
export type QuotaCheck = (file: QuotaFile) => QuotaFinding[];

/** Reads one diagnostic's `data` and offers its fixes. */
export type QuotaFixProvider = (analysis: QuotaAnalysis, request: FixRequest) => Fix[];

/** One quota diagnostic code's module; the checks of most read the file, `forgejo-version-mismatch`'s reads the connected server too. */
export type QuotaDiagnosticRule<Check = QuotaCheck> = DiagnosticRule<QuotaCode, Check, QuotaFixProvider>;

/** A check of the reading: a file that is not an object has none, so it reports nothing. */
export function ofReading(check: (reading: QuotaReading) => QuotaFinding[]): QuotaCheck {
  return (file) => (file.reading ? check(file.reading) : []);
}
