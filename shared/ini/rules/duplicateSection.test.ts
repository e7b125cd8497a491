import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'duplicate-section', [
  {
    name: 'a quota section header repeated is merged into the first',
    text: `[quota]
ENABLED = true
[quota.default]
[quota] // want "[quota] appears again (first on line 1): Forgejo merges both into one section"
DEFAULT_GROUPS = free
[quota.default] // want "[quota.default] appears again (first on line 3)"`,
  },
  {
    name: 'each quota section once, and other sections repeated, are not reported',
    text: `[server]
[quota]
[quota.default]
[server]`,
  },
]);
