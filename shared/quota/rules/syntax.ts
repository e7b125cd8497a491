/** `syntax`: the file is not valid JSON with comments, or nests deeper than the analyses read. */
import * as l10n from '@vscode/l10n';
import { printParseErrorCode, type ParseError } from 'jsonc-parser';
import { nestingMessage } from '../../json/nesting';
import { parseErrorWords } from '../../json/words';
import type { QuotaDiagnosticRule, QuotaFinding } from './quotaDiagnosticRule';

function syntaxMessage(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return l10n.t('JSON syntax error: {0}', parseErrorWords(code, 'jsonc'));
}

export const syntax: QuotaDiagnosticRule = {
  code: 'syntax',
  doc: 'The file is not valid JSON with comments, or nests deeper than the analyses read, so what the error touches is not read as written.',
  check: ({ tooDeep, parseErrors }) => [
    // Every reader of the tree recurses: containers past the bound were parsed as empty, one finding each.
    ...tooDeep.map((span): QuotaFinding => ({ code: 'syntax', message: nestingMessage(), at: span })),
    ...parseErrors.map((error): QuotaFinding => ({ code: 'syntax', message: syntaxMessage(error), at: { offset: error.offset, length: error.length } })),
  ],
};
