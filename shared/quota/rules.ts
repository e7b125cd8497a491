/**
 * The rules of quota config and instance files: each code of codes.ts with the check that reports it
 * (over the reading of ./reader.ts) and its fix provider. Assembled here, at the edge, so the code table
 * stays a leaf that anything may import.
 */
import { aggregateUsage } from './checks/aggregateUsage';
import { duplicateNames } from './checks/duplicateNames';
import { emptySubjects } from './checks/emptySubjects';
import { invalidForgejoVersion } from './checks/forgejoVersion';
import type { QuotaCheck } from './checks/finding';
import { invalidSizes } from './checks/invalidSize';
import { missingLimit } from './checks/missingLimit';
import { neverStandingLimits } from './checks/neverStands';
import { subjectAliases } from './checks/subjectAlias';
import { unknownAccounts } from './checks/unknownAccount';
import { unknownGroups } from './checks/unknownGroup';
import { unknownRepos } from './checks/unknownRepo';
import { unknownRules } from './checks/unknownRule';
import { unknownSubjects } from './checks/unknownSubject';
import { unusedRules } from './checks/unusedRule';
import { canonicalSubjectFix, removeUnusedRuleFix, serverVersionFix, unknownGroupFixes, unknownNameFixes, unknownRuleFixes, unknownSubjectFixes, type QuotaFixProvider } from './fixes';
import type { QuotaCode } from './codes';

export interface QuotaRule {
  check?: QuotaCheck;
  fix?: QuotaFixProvider;
}

export const QUOTA_RULES: Readonly<Partial<Record<QuotaCode, QuotaRule>>> = {
  schema: { check: aggregateUsage },
  'unknown-subject': { check: unknownSubjects, fix: unknownSubjectFixes },
  'subject-alias': { check: subjectAliases, fix: canonicalSubjectFix },
  'duplicate-rule': { check: duplicateNames('rule') },
  'duplicate-group': { check: duplicateNames('group') },
  'unknown-rule': { check: unknownRules, fix: unknownRuleFixes },
  'unknown-group': { check: unknownGroups, fix: unknownGroupFixes },
  'missing-limit': { check: missingLimit },
  'never-stands': { check: neverStandingLimits },
  'invalid-size': { check: invalidSizes },
  'unused-rule': { check: unusedRules, fix: removeUnusedRuleFix },
  'empty-subjects': { check: emptySubjects },
  'unknown-account': { check: unknownAccounts, fix: unknownNameFixes },
  'unknown-repo': { check: unknownRepos, fix: unknownNameFixes },
  'duplicate-account': { check: duplicateNames('account') },
  'duplicate-repo': { check: duplicateNames('repo') },
  'invalid-forgejo-version': { check: invalidForgejoVersion },
  'forgejo-version-mismatch': { fix: serverVersionFix },
};

/** The rules' checks, each once, in the code table's order. */
export function quotaChecks(): QuotaCheck[] {
  return [...new Set(Object.values(QUOTA_RULES).flatMap((rule) => (rule?.check ? [rule.check] : [])))];
}

/** The fix provider of `code`, if it has one. */
export const quotaFixProvider = (code: QuotaCode): QuotaFixProvider | undefined => QUOTA_RULES[code]?.fix;
