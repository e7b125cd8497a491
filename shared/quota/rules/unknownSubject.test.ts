import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unknown-subject', [
  {
    name: 'a misspelt subject in a rule, changed to the closest',
    text: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repo:all"] } // want "\\"size:repo:all\\" in rule \\"repos\\" is not a quota subject. Did you mean \\"size:repos:all\\"" fix="Change to \\"size:repos:all\\""
  ]
}`,
    fixed: `{
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] }
  ]
}`,
  },
  {
    name: 'a subject nothing is close to',
    text: `{
  "rules": [{ "name": "repos", "limit": 1, "subjects": ["everything-and-more"] }] // want "is not a quota subject"
}`,
  },
  {
    name: "an unknown subject in an instance file's usage",
    text: `{
  "accounts": [{ "name": "alice", "type": "user" }],
  "usage": { "alice": { "size:bogus": 1 } } // want "\\"size:bogus\\" in the usage of \\"alice\\" is not a quota subject"
}`,
  },
  {
    name: 'canonical subjects and seed aliases are subjects',
    text: `{
  "rules": [{ "name": "repos", "limit": 1, "subjects": ["size:repos:all", "size:git:lfs", "sizeall", "size:wiki"] }],
  "usage": { "alice": { "size:git:lfs": 1 } }
}`,
  },
]);
