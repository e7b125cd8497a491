/**
 * Resource-state analysis entry point (product.md §5). Placeholder that reports JSON syntax
 * errors only; the full analysis (schema, integrity, indexes) replaces it.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Diagnostic } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';

export interface StateAnalysis {
  diagnostics: Diagnostic[];
}

export function analyzeState(text: string): StateAnalysis {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const lines = new LineIndex(text);
  return {
    diagnostics: errors.map((e) => ({
      code: 'syntax',
      severity: 'error',
      message: `JSON syntax error: ${printParseErrorCode(e.error)}`,
      range: lines.rangeOf(e),
    })),
  };
}
