import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

const connected = { version: '11.0.3', server: 'https://forge.example' };

describeRule(QUOTA_RULE_SPEC, 'forgejo-version-mismatch', [
  {
    name: "a file declaring a Forgejo whose evaluation differs from the connected server's, changed to the server's",
    text: `{
  "forgejoVersion": "15.0.9", // want "This file declares Forgejo 15.0.9" fix="Use the connected server's version 11.0.3"
  "rules": []
}`,
    fixed: `{
  "forgejoVersion": "11.0.3",
  "rules": []
}`,
    options: { connected },
  },
  {
    name: 'an instance file, and a server known only by its version',
    text: `{
  "forgejoVersion": "12.0.4", // want "but the connected server runs 15.0.9"
  "accounts": [{ "name": "alice", "type": "user" }]
}`,
    options: { connected: { version: '15.0.9', server: undefined } },
  },
  {
    name: "versions of one evaluation generation: the server's rules are the file's",
    text: `{ "forgejoVersion": "13.0.5" }`,
    options: { connected: { version: '15.0.9', server: 'https://forge.example' } },
  },
  {
    name: 'no connected server',
    text: `{ "forgejoVersion": "15.0.9" }`,
  },
  {
    name: 'a file without a version, or with an invalid one, follows the server',
    text: `{ "forgejoVersion": "1.22.0" }`,
    options: { connected },
  },
  {
    name: 'a server whose version is no Forgejo version',
    text: `{ "forgejoVersion": "15.0.9" }`,
    options: { connected: { version: 'unknown', server: 'https://forge.example' } },
  },
]);
