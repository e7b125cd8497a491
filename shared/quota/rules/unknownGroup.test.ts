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
    // Written like the group before it, which keeps its bytes.
    fixed: `{
  "groups": [
    { "name": "free", "rules": [] },
    { "name": "paid", "rules": [] }
  ],
  "assignments": { "alice": ["paid"] }
}`,
  },
  {
    name: "created after groups written over several lines: indented like them, after the last one's comment",
    text: `{
  "groups": [
    {
      "name": "free",
      "rules": []
    } // the default
  ],
  "defaultGroups": ["paid"] // want "defaultGroups names unknown group \\"paid\\"" fix="Create group \\"paid\\""
}`,
    fixed: `{
  "groups": [
    {
      "name": "free",
      "rules": []
    }, // the default
    {
      "name": "paid",
      "rules": []
    }
  ],
  "defaultGroups": ["paid"]
}`,
  },
  {
    name: 'created in a one-line array, after its last group',
    text: `{
  "groups": [{ "name": "free", "rules": [] }],
  "defaultGroups": ["paid"] // want "defaultGroups names unknown group \\"paid\\"" fix="Create group \\"paid\\""
}`,
    fixed: `{
  "groups": [{ "name": "free", "rules": [] }, { "name": "paid", "rules": [] }],
  "defaultGroups": ["paid"]
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
