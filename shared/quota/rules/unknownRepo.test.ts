import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unknown-repo', [
  {
    name: "a misspelt attachment's repository, changed to the defined one",
    text: `{
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [
    { "repo": "acme/sight", "name": "a.png", "size": 10, "issue": 1 } // want "Attachment \\"a.png\\" names unknown repo \\"acme/sight\\". Did you mean \\"acme/site\\"?" fix="Change to \\"acme/site\\""
  ]
}`,
    fixed: `{
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [
    { "repo": "acme/site", "name": "a.png", "size": 10, "issue": 1 }
  ]
}`,
  },
  {
    name: 'packages and artifacts of repositories the file does not define',
    text: `{
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "packages": [{ "owner": "acme", "repo": "acme/tools", "type": "npm", "name": "p", "version": "1", "size": 1 }], // want "Package \\"p\\" names unknown repo \\"acme/tools\\""
  "artifacts": [{ "repo": "other/ci", "name": "build", "size": 1 }] // want "Artifact \\"build\\" names unknown repo \\"other/ci\\""
}`,
  },
  {
    name: 'defined repositories, and a name without an owner (the schema reports that)',
    text: `{
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [{ "repo": "acme/site", "name": "a.png", "size": 10 }, { "repo": "site", "name": "b.png", "size": 10 }]
}`,
  },
]);
