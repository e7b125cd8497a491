/**
 * Every diagnostic code of quota config and instance files: its default severity and meaning. The
 * table imports nothing of the checks or fixes: each code's module in rules/ holds them.
 */
import { defineCodes } from '../codes';

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

export const QUOTA_CODES = defineCodes<QuotaCodeName>([
  { code: 'syntax', severity: 'error', description: 'The file is not valid JSON with comments.' },
  { code: 'schema', severity: 'error', description: 'A value has the wrong shape for a quota config file.' },
  { code: 'unknown-subject', severity: 'error', description: 'A string that is not a quota subject Forgejo accepts.' },
  { code: 'subject-alias', severity: 'information', description: 'A seed spelling of a subject that real Forgejo servers reject; use the canonical one.' },
  { code: 'duplicate-rule', severity: 'error', description: 'Two rules have the same name.' },
  { code: 'duplicate-group', severity: 'error', description: 'Two groups have the same name.' },
  { code: 'unknown-rule', severity: 'error', description: 'A group lists a rule that is not defined.' },
  { code: 'unknown-group', severity: 'error', description: 'Default groups or an assignment name a group that is not defined.' },
  { code: 'missing-limit', severity: 'error', description: 'A rule has no limit.' },
  { code: 'never-stands', severity: 'warning', description: 'A limit of 0 or a negative limit other than -1: the rule never stands.' },
  { code: 'invalid-size', severity: 'error', description: 'A size is neither a byte count nor a size string such as `1 GiB`.' },
  { code: 'unused-rule', severity: 'hint', description: 'A rule no group uses.' },
  { code: 'empty-subjects', severity: 'warning', description: 'A rule with no subjects applies to nothing.' },
  { code: 'unknown-account', severity: 'error', description: 'Instance content names an account that is not defined.' },
  { code: 'unknown-repo', severity: 'error', description: 'An attachment, package or artifact names a repository that is not defined.' },
  { code: 'duplicate-account', severity: 'error', description: 'Two accounts have the same name.' },
  { code: 'duplicate-repo', severity: 'error', description: 'Two repositories have the same owner and name.' },
  { code: 'invalid-forgejo-version', severity: 'error', description: '`forgejoVersion` is not a Forgejo version, or names a Gitea or Forgejo server without the quota API (before 9.0).' },
  // Reported by the language server, which knows the connected server's version.
  { code: 'forgejo-version-mismatch', severity: 'information', description: "`forgejoVersion` declares a Forgejo whose quota rules differ from the connected server's: the previews follow the file." },
]);

export type QuotaCode = keyof typeof QUOTA_CODES;
