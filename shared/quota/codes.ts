/**
 * Every diagnostic code of quota config and instance files, with its default severity. The table
 * imports nothing of the checks, fixes or docs: each code's module in rules/ holds them.
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
  { code: 'syntax', severity: 'error' },
  { code: 'schema', severity: 'error' },
  { code: 'unknown-subject', severity: 'error' },
  { code: 'subject-alias', severity: 'information' },
  { code: 'duplicate-rule', severity: 'error' },
  { code: 'duplicate-group', severity: 'error' },
  { code: 'unknown-rule', severity: 'error' },
  { code: 'unknown-group', severity: 'error' },
  { code: 'missing-limit', severity: 'error' },
  { code: 'never-stands', severity: 'warning' },
  { code: 'invalid-size', severity: 'error' },
  { code: 'unused-rule', severity: 'hint' },
  { code: 'empty-subjects', severity: 'warning' },
  { code: 'unknown-account', severity: 'error' },
  { code: 'unknown-repo', severity: 'error' },
  { code: 'duplicate-account', severity: 'error' },
  { code: 'duplicate-repo', severity: 'error' },
  { code: 'invalid-forgejo-version', severity: 'error' },
  // Reported by the language server, which knows the connected server's version.
  { code: 'forgejo-version-mismatch', severity: 'information' },
]);

export type QuotaCode = keyof typeof QUOTA_CODES;
