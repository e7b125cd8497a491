/**
 * Loads a quota config or instance file: JSONC → syntax tree → the reading (./reader.ts: the quota
 * model, the instance content, preview usage and a name index for navigation) → every file rule of
 * ./rules/index.ts, in the registry's order (the JSON Schema's validation is the `schema` rule's).
 * Parse once; everything else is derived from this one analysis.
 */
import { parseTree, type ParseError } from 'jsonc-parser';
import { compareDiagnostics, placeFinding, type Diagnostic } from '../diagnostics';
import { limitNesting } from '../json/nesting';
import { LineIndex } from '../text/lineIndex';
import type { QuotaAnalysis } from './analysis';
import { QUOTA_CODES } from './codes';
import { emptyInstanceContent, defaultQuotaModel, type LeafUsage } from './model';
import { readQuotaDocument, type SemanticResult } from './reader';
import { QUOTA_FILE_RULES } from './rules';
import type { QuotaFile } from './rules/quotaDiagnosticRule';

export type { QuotaAnalysis } from './analysis';

/** What a file that is not an object yields: the default model, no content, no names. */
function emptyResult(): SemanticResult {
  return {
    names: { occurrences: [] },
    ruleLayout: [],
    groupLayout: [],
    model: defaultQuotaModel(),
    content: emptyInstanceContent(),
    isInstance: false,
    accountNames: [],
    usage: new Map<string, LeafUsage>(),
    usageSource: new Map<string, 'usage' | 'content'>(),
  };
}

/** The parse: containers nested past the bound are blanked first (every reader of the tree recurses), then the tree and its errors. */
function parseQuotaText(text: string): { parsedText: string; file: QuotaFile } {
  const nesting = limitNesting(text);
  const parseErrors: ParseError[] = [];
  const root = parseTree(nesting.text, parseErrors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const reading = root?.type === 'object' ? readQuotaDocument(root, nesting.text) : undefined;
  return { parsedText: nesting.text, file: { root, parseErrors, tooDeep: nesting.tooDeep, reading } };
}

export function analyzeQuotaConfig(text: string): QuotaAnalysis {
  const lines = new LineIndex(text);
  const { parsedText, file } = parseQuotaText(text);
  const placed = QUOTA_FILE_RULES.flatMap((rule) => rule.check(file)).map((finding) => placeFinding(finding, QUOTA_CODES[finding.code].severity, (span) => lines.rangeOf(span)));
  // Only a file read as an object gets the rules that may say one thing twice.
  const diagnostics = (file.reading ? dedupe(placed) : placed).sort(compareDiagnostics);
  return {
    text,
    lines,
    root: file.root,
    parsedText,
    nestingLimited: file.tooDeep.length > 0,
    ...(file.reading?.result ?? emptyResult()),
    diagnostics,
  };
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.code}|${d.range.start.line}:${d.range.start.character}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when the analysis found nothing that stops evaluation (no Error diagnostic). */
export function isEvaluable(analysis: QuotaAnalysis): boolean {
  return !analysis.diagnostics.some((d) => d.severity === 'error');
}
