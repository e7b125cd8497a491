import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unknown-rule', [
  {
    name: 'a misspelt rule in a group, changed to the defined one',
    text: `{
  "rules": [{ "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }],
  "groups": [
    { "name": "free", "rules": ["reps"] } // want "Group \\"free\\" refers to unknown rule \\"reps\\". Did you mean \\"repos\\"?" fix="Change to rule \\"repos\\""
  ]
}`,
    fixed: `{
  "rules": [{ "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }],
  "groups": [
    { "name": "free", "rules": ["repos"] }
  ]
}`,
  },
  {
    name: 'a rule that is not defined yet, created',
    text: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }
  ],
  "groups": [
    { "name": "free", "rules": ["repos", "artifacts"] } // want "Group \\"free\\" refers to unknown rule \\"artifacts\\"" fix="Create rule \\"artifacts\\""
  ]
}`,
    // Written like the rule before it, which keeps its bytes.
    fixed: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] },
    { "name": "artifacts", "limit": -1, "subjects": ["size:all"] }
  ],
  "groups": [
    { "name": "free", "rules": ["repos", "artifacts"] }
  ]
}`,
  },
  {
    name: 'a group without a name',
    text: `{
  "groups": [{ "rules": ["ghost"] }] // want "Group refers to unknown rule \\"ghost\\""
}`,
  },
  {
    name: 'defined rules, a repeated definition and an empty name are not unknown rules',
    text: `{
  "rules": [
    { "name": "repos", "limit": 1, "subjects": ["size:all"] },
    { "name": "repos", "limit": 2, "subjects": ["size:all"] }
  ],
  "groups": [{ "name": "free", "rules": ["repos", ""] }]
}`,
  },
]);
