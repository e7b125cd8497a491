import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'continuation-ignored', [
  {
    name: 'a value ending in a backslash is not joined with the next line',
    text: `[quota]
DEFAULT_GROUPS = free, \\ // want "Forgejo does not join lines ending in a backslash: the \\"\\\\\\" is part of DEFAULT_GROUPS's value"
pro = 1`,
  },
  {
    name: 'a backslash inside a value, in a quoted value, or outside the quota sections is fine',
    text: `[quota]
DEFAULT_GROUPS = free\\,pro
[quota.default]
TOTAL = "5\\"
[server]
PATH = C:\\`,
  },
]);
