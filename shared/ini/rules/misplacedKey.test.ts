import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'misplaced-key', [
  {
    name: 'ENABLED and DEFAULT_GROUPS in [quota.default] are not read',
    text: `[quota.default]
ENABLED = true // want "ENABLED belongs in [quota]: Forgejo does not read it in [quota.default]."
DEFAULT_GROUPS = free // want "DEFAULT_GROUPS belongs in [quota]"`,
  },
  {
    name: 'TOTAL in [quota] is read only by inheritance',
    text: `[quota]
ENABLED = true
TOTAL = 5 // want "TOTAL belongs in [quota.default]. Forgejo reads it from [quota] only through section inheritance"`,
  },
  {
    name: 'each key in its own section, and the same names outside the quota sections, are fine',
    text: `[quota]
ENABLED = true
DEFAULT_GROUPS = free
[quota.default]
TOTAL = 5
[server]
TOTAL = 5
ENABLED = true`,
  },
]);
