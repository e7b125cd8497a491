/** `duplicate-rule`: a rule name defined more than once; the repeat points at the first definition. */
import { duplicateNames } from './duplicateNames';
import type { QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const duplicateRule: QuotaDiagnosticRule = {
  code: 'duplicate-rule',
  doc: 'Two rules have the same name: Forgejo refuses the second, and the previews follow the first.',
  check: duplicateNames('rule'),
};
