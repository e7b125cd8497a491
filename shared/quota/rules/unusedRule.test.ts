import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unused-rule', [
  {
    name: 'a rule no group lists, removed',
    text: `{
  "rules": [
    { "name": "spare", "limit": -1, "subjects": ["size:all"] }, // want "Rule \\"spare\\" is not used by any group" fix="Remove unused rule \\"spare\\""
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
    // jsonc-parser's removal formats the item left beside it.
    fixed: `{
  "rules": [
    {
      "name": "repos",
      "limit": "1 GiB",
      "subjects": [
        "size:repos:all"
      ]
    }
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
  },
  {
    name: 'a repeated unused rule is reported once, on its first definition',
    text: `{
  "rules": [
    { "name": "spare", "limit": 1, "subjects": ["size:all"] }, // want "Rule \\"spare\\" is not used by any group"
    { "name": "spare", "limit": 2, "subjects": ["size:all"] }
  ]
}`,
  },
  {
    name: 'rules a group lists, even a group that is repeated',
    text: `{
  "rules": [
    { "name": "repos", "limit": 1, "subjects": ["size:repos:all"] },
    { "name": "lfs", "limit": 1, "subjects": ["size:git:lfs"] }
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }, { "name": "free", "rules": ["lfs"] }]
}`,
  },
]);
