import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'invalid-size', [
  {
    name: 'a limit that is no size',
    text: `{
  "rules": [
    { "name": "bad", "limit": "lots", "subjects": ["size:all"] } // want "Invalid size for the limit of rule \\"bad\\""
  ]
}`,
  },
  {
    name: 'sizes of an instance file: a repository, an attachment and a usage scenario',
    text: `{
  "accounts": [{ "name": "acme", "type": "org" }],
  "repos": [
    { "owner": "acme", "name": "site", "gitSize": "big", "lfsSize": 0 } // want "Invalid size for the git size of repo \\"acme/site\\""
  ],
  "attachments": [
    { "repo": "acme/site", "name": "a.png", "size": true } // want "Invalid size for the size of attachment \\"a.png\\""
  ],
  "usage": { "acme": { "size:git:lfs": "5 parsecs" } } // want "Invalid size for the usage of \\"acme\\" for size:git:lfs"
}`,
  },
  {
    name: 'byte counts, size strings, unlimited and a limit beyond 2^53',
    text: `{
  "defaultTotal": "10 GB",
  "rules": [
    { "name": "a", "limit": "1 GiB", "subjects": ["size:all"] },
    { "name": "b", "limit": 1024, "subjects": ["size:all"] },
    { "name": "c", "limit": -1, "subjects": ["size:all"] },
    { "name": "d", "limit": 9223372036854775807, "subjects": ["size:all"] }
  ],
  "repos": [{ "owner": "acme", "name": "site", "gitSize": "1 MiB", "lfsSize": 0 }],
  "packages": [{ "owner": "acme", "type": "npm", "name": "p", "version": "1.0.0", "size": "3 KiB" }]
}`,
  },
]);
