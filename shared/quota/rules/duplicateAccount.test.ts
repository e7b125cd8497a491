import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'duplicate-account', [
  {
    name: 'an account name defined twice in an instance file',
    text: `{
  "accounts": [
    { "name": "alice", "type": "user", "token": "t-alice" },
    { "name": "alice", "type": "user" } // want "Account \\"alice\\" is defined more than once"
  ]
}`,
  },
  {
    name: 'distinct accounts, and names that appear again as owners, uploaders and assignments',
    text: `{
  "groups": [{ "name": "free", "rules": [] }],
  "assignments": { "alice": ["free"] },
  "accounts": [
    { "name": "alice", "type": "user" },
    { "name": "acme", "type": "org", "owners": ["alice"] }
  ],
  "repos": [{ "owner": "alice", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [{ "repo": "alice/site", "name": "a.png", "size": 10, "uploader": "alice" }]
}`,
  },
]);
