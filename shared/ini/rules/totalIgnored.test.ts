import { APP_INI_RULE_SPEC, describeRule, forgejoOptions } from '../../../test/helpers/ruleSpec';

const v11 = forgejoOptions('11.0.3');

describeRule(APP_INI_RULE_SPEC, 'total-ignored', [
  {
    name: 'a size on a version that reads a plain integer: ignored; the fix writes plain bytes',
    text: `[quota.default]
TOTAL = 2G // want "Forgejo 11.0 (before 12.0.4) reads TOTAL as a plain integer and silently ignores this value" fix="Write TOTAL as plain bytes (2000000000)"`,
    fixed: `[quota.default]
TOTAL = 2000000000`,
    options: v11,
  },
  {
    name: 'a value that is no size either: no plain bytes to offer',
    text: `[quota.default]
TOTAL = lots // want "Write a number of bytes, or -1."`,
    options: v11,
  },
  ...['2000000000', '0x10', '-1', ''].map((total) => ({
    name: `TOTAL = ${total} is a plain integer Go reads (hexadecimal included), or empty`,
    text: `[quota.default]
TOTAL = ${total}`,
    options: v11,
  })),
  {
    name: 'from 12.0.4 on a size is read',
    text: `[quota.default]
TOTAL = 2G`,
    options: forgejoOptions('12.0.4'),
  },
  {
    name: 'without a known version it is total-older-servers',
    text: `[quota.default]
TOTAL = 2G`,
  },
  {
    name: 'without [quota.default] the version never reads TOTAL',
    text: `[quota]
TOTAL = 2G`,
    options: v11,
  },
]);
