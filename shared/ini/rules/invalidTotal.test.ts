import { APP_INI_RULE_SPEC, describeRule, forgejoOptions } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'invalid-total', [
  {
    name: 'negative: newer servers read -1, older ones a limit no one can meet',
    text: `[quota.default]
TOTAL = -5 // want "newer Forgejo servers read it as -1 (unlimited) because it is negative; older servers read it as -5, a limit no one can meet"`,
  },
  {
    name: 'not a size',
    text: `[quota.default]
TOTAL = lots // want "because it does not start with a number; older servers ignore it (unlimited)"`,
  },
  {
    name: 'over the largest 64-bit limit',
    text: `[quota.default]
TOTAL = 10E // want "because it is larger than the largest 64-bit limit"`,
  },
  {
    name: 'a known version from 12.0.4 on is named',
    text: `[quota.default]
TOTAL = 10 apples // want "Forgejo 12.0 reads it as -1 (unlimited) because \\"apples\\" is not a size unit"`,
    options: forgejoOptions('12.0.4'),
  },
  ...['10GiB', '1,000', '-1', ''].map((total) => ({
    name: `TOTAL = ${total} is valid`,
    text: `[quota.default]
TOTAL = ${total}`,
  })),
  {
    name: 'a version before 12.0.4 never reads sizes: total-ignored instead',
    text: `[quota.default]
TOTAL = lots`,
    options: forgejoOptions('11.0.3'),
  },
]);
