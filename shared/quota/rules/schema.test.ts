import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'schema', [
  {
    name: 'a property a rule does not have',
    text: `{
  "rules": [
    { "name": "odd", "limit": 5, "subjects": ["size:all"], "colour": "red" } // want "Property \\"colour\\" is not allowed in rule \\"odd\\""
  ]
}`,
  },
  {
    name: 'a value of the wrong type',
    text: `{
  "enabled": "yes", // want "\\"enabled\\" must be true or false, not a string"
  "rules": []
}`,
  },
  {
    name: 'an empty file',
    text: `// want "The file is empty"
`,
  },
  {
    name: 'a root that is not an object',
    text: `["free"] // want "A quota config must be a JSON object, not an array"`,
  },
  {
    name: 'usage given for an aggregate subject instead of its leaves',
    text: `{
  "usage": {
    "alice": {
      "size:repos:all": 5 // want "Usage is given per leaf subject: size:repos:all is the sum of"
    }
  }
}`,
  },
  {
    name: 'an instance account of an unknown type',
    text: `{
  "accounts": [
    { "name": "alice", "type": "team" } // want "\\"type\\" must be one of"
  ]
}`,
  },
  {
    name: 'a valid config and instance file, with usage on leaves and on subjects that measure nothing',
    text: `{
  "enabled": true,
  "defaultGroups": ["free"],
  "rules": [{ "name": "free", "limit": "1 GiB", "subjects": ["size:all"] }],
  "groups": [{ "name": "free", "rules": ["free"] }],
  "accounts": [{ "name": "alice", "type": "user" }],
  "repos": [{ "owner": "alice", "name": "site", "gitSize": "1 MiB", "lfsSize": 0 }],
  "usage": { "alice": { "size:repos:public": 5, "none": 1, "size:assets:wiki": 2 } }
}`,
  },
]);
