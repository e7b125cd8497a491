import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'duplicate-key', [
  {
    name: 'a key set twice: the earlier line is ignored, and the fix removes it',
    text: `[quota]
ENABLED = false // want "ENABLED is set again on line 3: Forgejo reads only the last value (\\"true\\")" fix="Remove the ignored ENABLED"
ENABLED = true
DEFAULT_GROUPS = free`,
    fixed: `[quota]
ENABLED = true
DEFAULT_GROUPS = free`,
  },
  {
    name: 'repeated sections merge, so a key set in both is set twice; a multi-line value goes as a whole',
    text: `[quota]
DEFAULT_GROUPS = \`free, // want "DEFAULT_GROUPS is set again on line 5" fix="Remove the ignored DEFAULT_GROUPS"
pro\`
[quota]
DEFAULT_GROUPS = org`,
    fixed: `[quota]
[quota]
DEFAULT_GROUPS = org`,
  },
  {
    name: 'the same key in [quota] and [quota.default], or repeated outside the quota sections, is not a duplicate',
    text: `[quota]
TOTAL = 5
[quota.default]
TOTAL = 6
[server]
DOMAIN = a
DOMAIN = b`,
  },
]);
