/**
 * The diagnostic rule modules of quota config and instance files, one per code of ../codes.ts and in
 * its order: each holds its check, its quick fix and its documentation. The analysis (../config.ts)
 * runs the file rules; the language server runs `forgejo-version-mismatch`, the one that needs the
 * connected server's version. Assembled here, at the edge, so the code table stays a leaf.
 */
import type { QuotaCode } from '../codes';
import { duplicateAccount } from './duplicateAccount';
import { duplicateGroup } from './duplicateGroup';
import { duplicateRepo } from './duplicateRepo';
import { duplicateRule } from './duplicateRule';
import { emptySubjects } from './emptySubjects';
import { forgejoVersionMismatch } from './forgejoVersionMismatch';
import { invalidForgejoVersion } from './invalidForgejoVersion';
import { invalidSize } from './invalidSize';
import { missingLimit } from './missingLimit';
import { neverStands } from './neverStands';
import type { QuotaDiagnosticRule, QuotaFixProvider } from './quotaDiagnosticRule';
import { schema } from './schema';
import { subjectAlias } from './subjectAlias';
import { syntax } from './syntax';
import { unknownAccount } from './unknownAccount';
import { unknownGroup } from './unknownGroup';
import { unknownRepo } from './unknownRepo';
import { unknownRule } from './unknownRule';
import { unknownSubject } from './unknownSubject';
import { unusedRule } from './unusedRule';

export type { QuotaDiagnosticRule } from './quotaDiagnosticRule';

/** The rules whose checks read the file alone: the analysis runs these, in this order. */
export const QUOTA_FILE_RULES: readonly QuotaDiagnosticRule[] = [
  syntax,
  schema,
  unknownSubject,
  subjectAlias,
  duplicateRule,
  duplicateGroup,
  unknownRule,
  unknownGroup,
  missingLimit,
  neverStands,
  invalidSize,
  unusedRule,
  emptySubjects,
  unknownAccount,
  unknownRepo,
  duplicateAccount,
  duplicateRepo,
  invalidForgejoVersion,
];

/** Every quota diagnostic rule, in the registry's order (`forgejo-version-mismatch` is its last code). */
export const QUOTA_DIAGNOSTIC_RULES: ReadonlyArray<QuotaDiagnosticRule<unknown>> = [...QUOTA_FILE_RULES, forgejoVersionMismatch];

/** The quick fixes of `code`'s diagnostics, if the code has any. */
export function quotaFixProvider(code: QuotaCode): QuotaFixProvider | undefined {
  return QUOTA_DIAGNOSTIC_RULES.find((rule) => rule.code === code)?.fix;
}
