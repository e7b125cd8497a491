import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'duplicate-rule', [
  {
    name: 'a rule name defined twice: the repeat is reported',
    text: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] },
    { "name": "repos", "limit": "2 GiB", "subjects": ["size:repos:all"] } // want "Rule \\"repos\\" is defined more than once"
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
  },
  {
    name: 'every repeat after the first is reported',
    text: `{
  "rules": [
    { "name": "a", "limit": 1, "subjects": ["size:all"] },
    { "name": "a", "limit": 2, "subjects": ["size:all"] }, // want "Rule \\"a\\" is defined more than once"
    { "name": "a", "limit": 3, "subjects": ["size:all"] } // want "Rule \\"a\\" is defined more than once"
  ]
}`,
  },
  {
    name: 'distinct rule names, and a group named like a rule',
    text: `{
  "rules": [
    { "name": "repos", "limit": 1, "subjects": ["size:repos:all"] },
    { "name": "Repos", "limit": 1, "subjects": ["size:repos:all"] }
  ],
  "groups": [{ "name": "repos", "rules": ["repos", "Repos"] }]
}`,
  },
]);
