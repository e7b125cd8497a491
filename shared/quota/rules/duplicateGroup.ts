/** `duplicate-group`: a group name defined more than once; the repeat points at the first definition. */
import { duplicateNames } from './duplicateNames';
import type { QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const duplicateGroup: QuotaDiagnosticRule = {
  code: 'duplicate-group',
  doc: 'Two groups have the same name: Forgejo refuses the second, and the previews follow the first.',
  check: duplicateNames('group'),
};
