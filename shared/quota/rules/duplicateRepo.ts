/** `duplicate-repo`: a repository (`owner/name`) defined more than once; the repeat points at the first definition. */
import { duplicateNames } from './duplicateNames';
import type { QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const duplicateRepo: QuotaDiagnosticRule = {
  code: 'duplicate-repo',
  doc: 'Two repositories have the same owner and name: an instance holds one per owner and name, and the previews keep the first.',
  check: duplicateNames('repo'),
};
