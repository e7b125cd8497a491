import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unknown-group', [
  {
    name: 'a misspelt default group, changed to the defined one',
    text: `{
  "defaultGroups": ["fre"], // want "defaultGroups names unknown group \\"fre\\". Did you mean \\"free\\"?" fix="Change to group \\"free\\""
  "groups": [{ "name": "free", "rules": [] }]
}`,
    fixed: `{
  "defaultGroups": ["free"],
  "groups": [{ "name": "free", "rules": [] }]
}`,
  },
  {
    name: 'an assigned group that is not defined yet, created',
    text: `{
  "groups": [
    { "name": "free", "rules": [] }
  ],
  "assignments": { "alice": ["paid"] } // want "The assignment of \\"alice\\" names unknown group \\"paid\\"" fix="Create group \\"paid\\""
}`,
    // jsonc-parser's insertion formats the item before the new one too.
    fixed: `{
  "groups": [
    {
      "name": "free",
      "rules": []
    },
    {
      "name": "paid",
      "rules": []
    }
  ],
  "assignments": { "alice": ["paid"] }
}`,
  },
  {
    name: "defined groups, in default groups and in an instance file's assignments",
    text: `{
  "defaultGroups": ["free"],
  "groups": [{ "name": "free", "rules": [] }, { "name": "paid", "rules": [] }],
  "accounts": [{ "name": "alice", "type": "user" }],
  "assignments": { "alice": ["paid", "free"] }
}`,
  },
]);
