/**
 * Every diagnostic code of quota config and instance files: its default severity, meaning, the check
 * that reports it (over the reading of ./reader.ts) and its fix provider.
 */
import { defineCodes } from '../codes';
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
import {
  canonicalSubjectFix,
  removeUnusedRuleFix,
  serverVersionFix,
  unknownGroupFixes,
  unknownNameFixes,
  unknownRuleFixes,
  unknownSubjectFixes,
  type QuotaFixProvider,
} from './fixes';

type QuotaCodeName =
  | 'syntax'
  | 'schema'
  | 'unknown-subject'
  | 'subject-alias'
  | 'duplicate-rule'
  | 'duplicate-group'
  | 'unknown-rule'
  | 'unknown-group'
  | 'missing-limit'
  | 'never-stands'
  | 'invalid-size'
  | 'unused-rule'
  | 'empty-subjects'
  | 'unknown-account'
  | 'unknown-repo'
  | 'duplicate-account'
  | 'duplicate-repo'
  | 'invalid-forgejo-version'
  | 'forgejo-version-mismatch';

export const QUOTA_CODES = defineCodes<QuotaCodeName, { check?: QuotaCheck; fix?: QuotaFixProvider }>([
  { code: 'syntax', severity: 'error', description: 'The file is not valid JSON with comments.' },
  { code: 'schema', severity: 'error', description: 'A value has the wrong shape for a quota config file.', check: aggregateUsage },
  { code: 'unknown-subject', severity: 'error', description: 'A string that is not a quota subject Forgejo accepts.', check: unknownSubjects, fix: unknownSubjectFixes },
  { code: 'subject-alias', severity: 'information', description: 'A seed spelling of a subject that real Forgejo servers reject; use the canonical one.', check: subjectAliases, fix: canonicalSubjectFix },
  { code: 'duplicate-rule', severity: 'error', description: 'Two rules have the same name.', check: duplicateNames('rule') },
  { code: 'duplicate-group', severity: 'error', description: 'Two groups have the same name.', check: duplicateNames('group') },
  { code: 'unknown-rule', severity: 'error', description: 'A group lists a rule that is not defined.', check: unknownRules, fix: unknownRuleFixes },
  { code: 'unknown-group', severity: 'error', description: 'Default groups or an assignment name a group that is not defined.', check: unknownGroups, fix: unknownGroupFixes },
  { code: 'missing-limit', severity: 'error', description: 'A rule has no limit.', check: missingLimit },
  { code: 'never-stands', severity: 'warning', description: 'A limit of 0 or a negative limit other than -1: the rule never stands.', check: neverStandingLimits },
  { code: 'invalid-size', severity: 'error', description: 'A size is neither a byte count nor a size string such as `1 GiB`.', check: invalidSizes },
  { code: 'unused-rule', severity: 'hint', description: 'A rule no group uses.', check: unusedRules, fix: removeUnusedRuleFix },
  { code: 'empty-subjects', severity: 'warning', description: 'A rule with no subjects applies to nothing.', check: emptySubjects },
  { code: 'unknown-account', severity: 'error', description: 'Instance content names an account that is not defined.', check: unknownAccounts, fix: unknownNameFixes },
  { code: 'unknown-repo', severity: 'error', description: 'An attachment, package or artifact names a repository that is not defined.', check: unknownRepos, fix: unknownNameFixes },
  { code: 'duplicate-account', severity: 'error', description: 'Two accounts have the same name.', check: duplicateNames('account') },
  { code: 'duplicate-repo', severity: 'error', description: 'Two repositories have the same owner and name.', check: duplicateNames('repo') },
  { code: 'invalid-forgejo-version', severity: 'error', description: '`forgejoVersion` is not a Forgejo version, or names a Gitea or Forgejo server without the quota API (before 9.0).', check: invalidForgejoVersion },
  // Reported by the language server, which knows the connected server's version.
  { code: 'forgejo-version-mismatch', severity: 'information', description: "`forgejoVersion` declares a Forgejo whose quota rules differ from the connected server's: the previews follow the file.", fix: serverVersionFix },
]);

export type QuotaCode = keyof typeof QUOTA_CODES;

/** The registry's checks, each once, in registry order. */
export function quotaChecks(): QuotaCheck[] {
  const checks = Object.values(QUOTA_CODES).flatMap((info: { check?: QuotaCheck }) => (info.check ? [info.check] : []));
  return [...new Set(checks)];
}
