/**
 * `empty-file`: a file `quota-state check` was asked to check that holds nothing but whitespace.
 * No name pattern claims it and its content names no kind, yet "skipped" would turn a truncated or
 * never-written stack into a green build, so it is an Error of its own. Files a kind claims by name
 * keep that kind's own answer (a state file's `syntax`, a quota file's `schema`; an empty app.ini is
 * valid, as Forgejo reads it).
 */
import * as l10n from '@vscode/l10n';
import type { DocumentedCode } from './diagnosticRule';
import type { Diagnostic } from './diagnostics';

export const EMPTY_FILE: DocumentedCode = {
  code: 'empty-file',
  severity: 'error',
  doc: 'The file is empty or holds only whitespace: there is no state, quota config or app.ini to check.',
  hasFix: false,
};

/** Whitespace as JSON and INI readers skip it. */
const BLANK = /^[\s\uFEFF]*$/;

/** The `empty-file` diagnostic of an unrecognised file, when it is blank; none otherwise. */
export function emptyFileDiagnostics(text: string): Diagnostic[] {
  if (!BLANK.test(text)) return [];
  return [
    {
      code: EMPTY_FILE.code,
      severity: EMPTY_FILE.severity,
      message: l10n.t('The file is empty: it holds no resource state, quota config or app.ini settings to check'),
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    },
  ];
}
