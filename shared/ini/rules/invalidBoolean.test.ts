import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'invalid-boolean', [
  {
    name: 'a value that looks like yes: "true" is offered first',
    text: `[quota]
ENABLED = yes please // want "ENABLED = \\"yes please\\" is not a boolean go-ini reads" fix="Change to true"`,
    fixed: `[quota]
ENABLED = true`,
  },
  {
    name: 'any other value: "false" is offered first, and "true" too',
    text: `[quota]
ENABLED = nope // want "is not a boolean go-ini reads" fix="Change to true"`,
    fixed: `[quota]
ENABLED = true`,
  },
  {
    name: 'an empty value is reported on the key, and fixed after the "="',
    text: `[quota]
ENABLED = // want "ENABLED = \\"\\" is not a boolean" fix="Change to false"`,
    fixed: `[quota]
ENABLED =false`,
  },
  ...['true', 'On', 'TRUE', 'y', '0', 'f', 'No', 'OFF', '"true"', "'1'"].map((value) => ({
    name: `ENABLED = ${value} is one of go-ini's booleans`,
    text: `[quota]
ENABLED = ${value}`,
  })),
  {
    name: 'an invalid ENABLED overwritten later, and an ENABLED in [quota.default] (not read there), are not reported',
    text: `[quota]
ENABLED = maybe
[quota]
ENABLED = true
[quota.default]
ENABLED = sometimes`,
  },
]);
