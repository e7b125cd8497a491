import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'missing-limit', [
  {
    name: 'a rule without a limit',
    text: `{
  "rules": [
    { "name": "nolimit", "subjects": ["size:all"] } // want "Rule \\"nolimit\\" has no limit: give a size such as \\"1 GiB\\", or -1 for unlimited"
  ]
}`,
  },
  {
    name: 'a null limit',
    text: `{
  "rules": [{ "name": "nolimit", "limit": null, "subjects": ["size:all"] }] // want "Rule \\"nolimit\\" has no limit"
}`,
  },
  {
    name: 'a rule without a name or a limit',
    text: `{
  "rules": [
    { "subjects": ["size:all"] } // want "Rule has no limit"
  ]
}`,
  },
  {
    name: 'unlimited, zero and invalid limits are limits',
    text: `{
  "rules": [
    { "name": "unlimited", "limit": -1, "subjects": ["size:all"] },
    { "name": "zero", "limit": 0, "subjects": ["size:all"] },
    { "name": "bad", "limit": "lots", "subjects": ["size:all"] }
  ]
}`,
  },
]);
