/** `ini-syntax`: a line go-ini refuses, which stops Forgejo from loading the whole file. */
import * as l10n from '@vscode/l10n';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';

function check(context: AppIniContext): AppIniFinding[] {
  return context.document.errors.map((error) => ({
    code: 'ini-syntax',
    at: error.span,
    message: l10n.t('Forgejo cannot load this file: {0}. go-ini refuses the whole file, so the server does not start.', error.message),
  }));
}

export const iniSyntax: AppIniRule = {
  code: 'ini-syntax',
  doc: 'A line go-ini cannot read (no `=`, an unclosed `[`, an empty `[]`, a `` ` `` or `"""` value never closed): Forgejo refuses to load the whole file and does not start.',
  check,
};
