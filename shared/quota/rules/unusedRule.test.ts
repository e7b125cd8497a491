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
    // The rule's line goes, comment included; the rule left beside it keeps its bytes.
    fixed: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
  },
  {
    name: 'the last rule, removed with the comma before it; the comment of the rule before stays',
    text: `{
  "rules": [
    { "name": "repos", "limit": 1, "subjects": ["size:repos:all"] }, // the repos rule
    {
      "name": "spare", // want "Rule \\"spare\\" is not used by any group" fix="Remove unused rule \\"spare\\""
      "limit": 2,
      "subjects": ["size:all"]
    }
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
    fixed: `{
  "rules": [
    { "name": "repos", "limit": 1, "subjects": ["size:repos:all"] } // the repos rule
  ],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
  },
  {
    name: 'a rule in a one-line array, and the only rule of a file',
    text: `{
  "rules": [{ "name": "spare", "limit": 2, "subjects": ["size:all"] }, { "name": "repos", "limit": 1, "subjects": ["size:repos:all"] }], // want "Rule \\"spare\\" is not used by any group" fix="Remove unused rule \\"spare\\""
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
    fixed: `{
  "rules": [{ "name": "repos", "limit": 1, "subjects": ["size:repos:all"] }],
  "groups": [{ "name": "free", "rules": ["repos"] }]
}`,
  },
  {
    name: 'the only rule, alone on its line',
    text: `{
  "rules": [
    { "name": "spare", "limit": 2, "subjects": ["size:all"] } // want "Rule \\"spare\\" is not used by any group" fix="Remove unused rule \\"spare\\""
  ]
}`,
    fixed: `{
  "rules": [
  ]
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
