import type { AppIniOptions } from '../quotaSettings';
import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

const QUOTA_FILE = { label: 'quota.jsonc', names: ['free', 'pro', 'org'] };
const SERVER = { label: 'the server https://forge.example', names: ['free', 'pro', 'org', 'nobody'] };
const fileOnly: AppIniOptions = { groups: [QUOTA_FILE] };

describeRule(APP_INI_RULE_SPEC, 'unknown-default-group', [
  {
    name: 'a misspelt group: changed to the closest one',
    text: `[quota]
ENABLED = true
DEFAULT_GROUPS = free, prp // want "No group \\"prp\\" in quota.jsonc: Forgejo silently skips it. Did you mean \\"pro\\"?" fix="Change to group \\"pro\\""`,
    fixed: `[quota]
ENABLED = true
DEFAULT_GROUPS = free, pro`,
    options: fileOnly,
  },
  {
    name: 'a group missing from one source is named with that source only',
    text: `[quota]
// want "No group \\"nobody\\" in quota.jsonc: Forgejo silently skips it."
DEFAULT_GROUPS = nobody, enterprise // want "No group \\"enterprise\\" in quota.jsonc or the server https://forge.example"`,
    options: { groups: [QUOTA_FILE, SERVER] },
  },
  {
    name: 'groups that exist, and a list read after go-ini strips the comment, are fine',
    text: `[quota]
DEFAULT_GROUPS = free , pro ; enterprise later`,
    options: fileOnly,
  },
  {
    name: 'without a group source the names are not checked',
    text: `[quota]
DEFAULT_GROUPS = enterprise`,
    options: { groups: [] },
  },
]);
