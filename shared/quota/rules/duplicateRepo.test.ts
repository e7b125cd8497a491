import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'duplicate-repo', [
  {
    name: 'a repository with the same owner and name twice',
    text: `{
  "accounts": [{ "name": "acme", "type": "org" }],
  "repos": [
    { "owner": "acme", "name": "site", "gitSize": "1 MiB", "lfsSize": 0 },
    { "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 } // want "Repo \\"acme/site\\" is defined more than once"
  ]
}`,
  },
  {
    name: 'the same name under two owners, and one repository referenced by its assets',
    text: `{
  "accounts": [{ "name": "acme", "type": "org" }, { "name": "alice", "type": "user" }],
  "repos": [
    { "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 },
    { "owner": "alice", "name": "site", "gitSize": 1, "lfsSize": 0 }
  ],
  "attachments": [{ "repo": "acme/site", "name": "a.png", "size": 10 }],
  "artifacts": [{ "repo": "acme/site", "name": "build", "size": 10 }]
}`,
  },
]);
