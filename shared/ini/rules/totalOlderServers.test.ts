import { APP_INI_RULE_SPEC, describeRule, forgejoOptions } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'total-older-servers', [
  {
    name: 'a size such as 2G: older servers ignore it; the fix writes plain bytes',
    text: `[quota]
ENABLED = true
[quota.default]
TOTAL = 2G // want "newer Forgejo servers read 2000000000 bytes (1.86 GiB), but older servers (which read TOTAL as a plain integer) ignore it (unlimited)" fix="Write TOTAL as plain bytes (2000000000)"`,
    fixed: `[quota]
ENABLED = true
[quota.default]
TOTAL = 2000000000`,
  },
  {
    name: 'a leading zero: older servers read octal',
    text: `[quota.default]
TOTAL = 010 // want "older servers (which read TOTAL as a plain integer) read it as 8 bytes" fix="Write TOTAL as plain bytes (10)"`,
    fixed: `[quota.default]
TOTAL = 10`,
  },
  {
    name: 'inherited from [quota] when [quota.default] exists',
    text: `[quota]
TOTAL = 1k // want "ignore it (unlimited)"
[quota.default]`,
  },
  ...['2000000000', '-1', ''].map((total) => ({
    name: `TOTAL = ${total} is read alike by every version`,
    text: `[quota.default]
TOTAL = ${total}`,
  })),
  {
    name: 'without [quota.default] older servers never read TOTAL, so there is nothing to compare',
    text: `[quota]
TOTAL = 2G`,
  },
  {
    name: 'a known version from 12.0.4 on reads sizes: not reported',
    text: `[quota.default]
TOTAL = 2G`,
    options: forgejoOptions('12.0.4'),
  },
  {
    name: 'a known version before 12.0.4 gets total-ignored instead',
    text: `[quota.default]
TOTAL = 2G`,
    options: forgejoOptions('11.0.3'),
  },
]);
