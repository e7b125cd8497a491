import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'unknown-key', [
  {
    name: 'a key in the wrong case: renamed to the key Forgejo reads',
    text: `[quota]
Enabled = true // want "Forgejo does not read Enabled in [quota]; did you mean ENABLED?" fix="Rename to ENABLED"`,
    fixed: `[quota]
ENABLED = true`,
  },
  {
    name: 'a misspelt key of [quota.default]',
    text: `[quota.default]
TOTALS = 5 // want "did you mean TOTAL?" fix="Rename to TOTAL"`,
    fixed: `[quota.default]
TOTAL = 5`,
  },
  {
    name: 'a key close to none: the message lists what the section reads',
    text: `[quota]
ENABLED = true
MAX_SIZE = 5 // want "it reads only ENABLED and DEFAULT_GROUPS there"`,
  },
  {
    name: 'keys in their sections, keys outside the quota sections and a quota key in the other section are not unknown',
    text: `[quota]
ENABLED = true
DEFAULT_GROUPS = free
TOTAL = 5
[quota.default]
TOTAL = 5
[server]
Enabled = whatever`,
  },
]);
