/** Every diagnostic code of quota config and instance files, with its default severity and meaning. */
import { defineCodes } from '../codes';
import {
  canonicalSubjectFix,
  removeUnusedRuleFix,
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
  | 'duplicate-repo';

export const QUOTA_CODES = defineCodes<QuotaCodeName, { fix?: QuotaFixProvider }>([
  { code: 'syntax', severity: 'error', description: 'The file is not valid JSON with comments.' },
  { code: 'schema', severity: 'error', description: 'A value has the wrong shape for a quota config file.' },
  { code: 'unknown-subject', severity: 'error', description: 'A string that is not a quota subject Forgejo accepts.', fix: unknownSubjectFixes },
  { code: 'subject-alias', severity: 'information', description: 'A seed spelling of a subject that real Forgejo servers reject; use the canonical one.', fix: canonicalSubjectFix },
  { code: 'duplicate-rule', severity: 'error', description: 'Two rules have the same name.' },
  { code: 'duplicate-group', severity: 'error', description: 'Two groups have the same name.' },
  { code: 'unknown-rule', severity: 'error', description: 'A group lists a rule that is not defined.', fix: unknownRuleFixes },
  { code: 'unknown-group', severity: 'error', description: 'Default groups or an assignment name a group that is not defined.', fix: unknownGroupFixes },
  { code: 'missing-limit', severity: 'error', description: 'A rule has no limit.' },
  { code: 'never-stands', severity: 'warning', description: 'A limit of 0 or a negative limit other than -1: the rule never stands.' },
  { code: 'invalid-size', severity: 'error', description: 'A size is neither a byte count nor a size string such as `1 GiB`.' },
  { code: 'unused-rule', severity: 'hint', description: 'A rule no group uses.', fix: removeUnusedRuleFix },
  { code: 'empty-subjects', severity: 'warning', description: 'A rule with no subjects applies to nothing.' },
  { code: 'unknown-account', severity: 'error', description: 'Instance content names an account that is not defined.', fix: unknownNameFixes },
  { code: 'unknown-repo', severity: 'error', description: 'An attachment, package or artifact names a repository that is not defined.', fix: unknownNameFixes },
  { code: 'duplicate-account', severity: 'error', description: 'Two accounts have the same name.' },
  { code: 'duplicate-repo', severity: 'error', description: 'Two repositories have the same owner and name.' },
]);

export type QuotaCode = keyof typeof QUOTA_CODES;
