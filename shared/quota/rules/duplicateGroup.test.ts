import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'duplicate-group', [
  {
    name: 'a group name defined twice: the repeat is reported',
    text: `{
  "rules": [{ "name": "repos", "limit": 1, "subjects": ["size:all"] }],
  "groups": [
    { "name": "free", "rules": ["repos"] },
    { "name": "free", "rules": [] } // want "Group \\"free\\" is defined more than once"
  ]
}`,
  },
  {
    name: 'distinct group names, and a rule named like a group',
    text: `{
  "rules": [{ "name": "free", "limit": 1, "subjects": ["size:all"] }],
  "groups": [
    { "name": "free", "rules": ["free"] },
    { "name": "paid", "rules": ["free"] }
  ]
}`,
  },
]);
