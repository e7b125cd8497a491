/** `duplicate-account`: a account name defined more than once; the repeat points at the first definition. */
import { duplicateNames } from './duplicateNames';
import type { QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const duplicateAccount: QuotaDiagnosticRule = {
  code: 'duplicate-account',
  doc: 'Two accounts have the same name: an instance holds one account per name, and the previews keep the first.',
  check: duplicateNames('account'),
};
