import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'misspelt-section', [
  {
    name: 'section names are case-sensitive: [Quota] is renamed to [quota]',
    text: `[Quota] // want "[Quota] is not a section Forgejo reads; did you mean [quota]?" fix="Rename the section to [quota]"
ENABLED = true`,
    fixed: `[quota]
ENABLED = true`,
  },
  {
    name: 'a name starting like the quota sections may be two edits off',
    text: `[quota.defaults] // want "did you mean [quota.default]?" fix="Rename the section to [quota.default]"
TOTAL = 5`,
    fixed: `[quota.default]
TOTAL = 5`,
  },
  {
    name: 'section names are not trimmed',
    text: `[ quota ] // want "did you mean [quota]?" fix="Rename the section to [quota]"`,
    fixed: `[quota]`,
  },
  {
    name: 'another name one edit off',
    text: `[quote] // want "did you mean [quota]?"`,
  },
  {
    name: 'other sections of app.ini, and the quota sections themselves, are left alone',
    text: `[server]
[queue]
[mailer]
[repository]
[quota]
[quota.default]`,
  },
]);
