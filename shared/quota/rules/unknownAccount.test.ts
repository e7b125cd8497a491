import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'unknown-account', [
  {
    name: 'a misspelt repository owner, changed to the defined account',
    text: `{
  "accounts": [{ "name": "alice", "type": "user" }],
  "repos": [
    { "owner": "alicee", "name": "site", "gitSize": 1, "lfsSize": 0 } // want "Repo \\"alicee/site\\" names unknown account \\"alicee\\". Did you mean \\"alice\\"?" fix="Change to \\"alice\\""
  ]
}`,
    fixed: `{
  "accounts": [{ "name": "alice", "type": "user" }],
  "repos": [
    { "owner": "alice", "name": "site", "gitSize": 1, "lfsSize": 0 }
  ]
}`,
  },
  {
    name: 'assignments, usage, owners, uploaders and package owners of a file that defines accounts',
    text: `{
  "groups": [{ "name": "free", "rules": [] }],
  "assignments": { "stranger": ["free"] }, // want "assignments names unknown account \\"stranger\\""
  "usage": { "ghost": { "size:git:lfs": 1 } }, // want "usage names unknown account \\"ghost\\""
  "accounts": [
    { "name": "alice", "type": "user" },
    { "name": "acme", "type": "org", "owners": ["bob"] } // want "The owners of \\"acme\\" names unknown account \\"bob\\""
  ],
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [{ "repo": "acme/site", "name": "a.png", "size": 1, "uploader": "carol" }], // want "Attachment \\"a.png\\" names unknown account \\"carol\\""
  "packages": [{ "owner": "dave", "type": "npm", "name": "p", "version": "1", "size": 1 }] // want "Package \\"p\\" names unknown account \\"dave\\""
}`,
  },
  {
    name: 'a quota config without accounts may assign and give usage to any account',
    text: `{
  "groups": [{ "name": "free", "rules": [] }],
  "assignments": { "stranger": ["free"] },
  "usage": { "ghost": { "size:git:lfs": 1 } }
}`,
  },
  {
    name: 'defined accounts, a repeated definition included',
    text: `{
  "accounts": [{ "name": "alice", "type": "user" }, { "name": "alice", "type": "user" }, { "name": "acme", "type": "org", "owners": ["alice"] }],
  "repos": [{ "owner": "acme", "name": "site", "gitSize": 1, "lfsSize": 0 }],
  "attachments": [{ "repo": "acme/site", "name": "a.png", "size": 1, "uploader": "alice" }],
  "assignments": { "alice": [] }
}`,
  },
]);
