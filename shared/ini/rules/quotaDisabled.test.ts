import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'quota-disabled', [
  {
    name: 'ENABLED not set: it defaults to false; the fix adds it under [quota]',
    text: `[quota] // want "ENABLED is not set and defaults to false" fix="Add ENABLED = true"
DEFAULT_GROUPS = free`,
    fixed: `[quota]
ENABLED = true
DEFAULT_GROUPS = free`,
  },
  {
    name: 'only [quota.default]: reported on its header',
    text: `[server]
DOMAIN = forge.example
[quota.default] // want "ENABLED is not set"
TOTAL = 5`,
  },
  {
    name: 'explicitly disabled',
    text: `[quota]
ENABLED = off // want "Quota is disabled: every quota API route answers 404 and no limit is enforced, whatever the other quota settings say."`,
  },
  {
    name: 'enabled, an ENABLED that is no boolean (invalid-boolean) and a file without quota sections are not reported',
    text: `[quota]
ENABLED = 1
[server]
DOMAIN = forge.example`,
  },
  {
    name: 'an ENABLED that is no boolean is invalid-boolean, not quota-disabled',
    text: `[quota]
ENABLED = maybe`,
  },
]);
